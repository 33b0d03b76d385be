"""`gpusizer ask "QUESTION" [--json]`: the Ask tab's engine without the UI. Exit 0 answered, 2 not understood."""
from __future__ import annotations

import argparse
import json


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gpusizer ask", description="Answer one GPU sizing question and exit.")
    parser.add_argument("question", nargs="+", help='e.g. "will llama 3.1 70b fit on 2x h100?"')
    parser.add_argument("--json", action="store_true", help="print the interpretation and the tool results as JSON")
    parser.add_argument("--llm", action="store_true", help="use the configured LLM (GPUSIZER_LLM_MODEL) instead of the parser")
    arguments = parser.parse_args(argv)
    question = " ".join(arguments.question)

    from gpusizer.catalog import load_catalog
    from gpusizer.tools.questions import ask

    answer = ask(question, load_catalog())
    if arguments.llm:  # the parser's reading goes along as a hint
        from .ask.llm import ask_llm_sync, parser_hint

        answer = ask_llm_sync(question, parser_hint(answer))
    if arguments.json:
        print(json.dumps(answer.model_dump(mode="json"), indent=2))
    else:
        if answer.understood:
            print(answer.interpretation)
        print(answer.answer)
    return 0 if answer.understood else 2
