"""Ask: a question in plain words; the answer, the interpretation it used and a card per tool call.

The parser in `gpusizer.tools.questions` answers; with an LLM configured, a question the parser did not understand or
read two ways goes to the model (with the parser's reading as a hint), which answers through gpusizer's MCP server
while the transcript streams. Esc cancels a running question.
"""
from __future__ import annotations

import json

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Collapsible, Input, Static

from gpusizer.catalog import Catalog
from gpusizer.tools.figures import gib, usd
from gpusizer.tools.memory.answer import partly_in_system_ram
from gpusizer.tools.questions import AskAnswer, ToolCall, ask
from gpusizer.tools.serving.capacity import ServingCapacity, best_layout

from ..form_input import FormInput
from ..safe_text import esc

WELCOME = ("Ask a sizing question in plain words, e.g. [i]will mixtral fit on 2x H100?[/i] · [i]cheapest way to rent "
           "8 H100s for 100 hours[/i] · [i]rent or buy 8 h100 at 60% utilization[/i], then follow up: [i]and on an A100?[/i] · "
           "[i]what about 4-bit?[/i]. Offline answers come from a parser that says how it read you, what it assumed and "
           "what it ignored; set GPUSIZER_LLM_MODEL to let an LLM answer, through the same tools, what it cannot.")


def key_figures(call: ToolCall) -> str:
    """The one line a card shows before it is expanded."""
    if call.error:
        return f"error: {call.error[:120]}"
    result = call.result or {}
    if call.tool == "estimate_vram":
        check = result.get("gpu_check") or {}
        partly = check.get("fits") and partly_in_system_ram(result.get("serving"))  # llama.cpp layers in system RAM
        fits = "" if not check else (" · fits partly (layers in system RAM)" if partly else " · fits" if check.get("fits")
                                     else " · does not fit")
        return f"{gib(result.get('total_bytes'))} per GPU{fits}"
    if call.tool == "cloud_cost":
        best = (result.get("offers") or [None])[0]
        return (f"cheapest {usd(best['total_usd'])} on {best['provider']} ({len(result['offers'])} offers)" if best
                else "no offer priced (why in notes)")
    if call.tool == "rent_vs_buy":
        return f"{result.get('recommendation')}: own {usd(result.get('own_total_usd'))} vs rent {usd(result.get('rent_total_usd'))}"
    if call.tool == "serving_capacity" and result.get("layouts"):
        best = result["layouts"][0]
        most = best_layout(ServingCapacity.model_validate(result), "throughput")  # the tools' pick, as the answer's
        tokens = f", up to {most.aggregate_tokens_per_s:,.0f} output tok/s" if most else ""
        return f"{best['requests_at_once']:,} requests at once, {best['requests_per_s']:.1f} requests/s{tokens}"
    if call.tool == "plan_serving" and result.get("options"):
        best = result["options"][0]
        return f"{best['total_gpus']} × {best['gpu_id']}" + (f", {usd(best['usd_per_month'])}/month" if best.get("usd_per_month") else "")
    if call.tool == "cheapest_way":
        return f"cheapest: {result.get('pick') or 'none priced'}"
    if call.tool == "biggest_model" and (formats := [f for f in result.get("formats", []) if f.get("models")]):
        return ", ".join(f"{f['models'][0]['model']} ({f['weights_dtype']})" for f in formats[:2])
    if call.tool == "compare_gpus":
        return ", ".join(row["gpu_id"] for row in result.get("gpus", []))
    return ""


def card(call: ToolCall) -> Collapsible:
    """Tool and key figures as the title; the arguments and the full JSON result inside."""
    outcome = call.result if call.result is not None else {"error": call.error}
    body = json.dumps({"arguments": call.arguments, "result": outcome}, indent=1)
    return Collapsible(Static(body, classes="card-json", markup=False), title=esc(f"{call.tool} → {key_figures(call)}"),
                       collapsed=True, classes="card")


class AskPane(Vertical):
    TITLE = "gpusizer ask"
    BINDINGS = [Binding("escape", "cancel", "Cancel question", show=False)]  # listed by f10; the footer has 80 columns

    def __init__(self, catalog: Catalog, **options):
        super().__init__(**options)
        self.catalog = catalog
        self.last: AskAnswer | None = None
        self.llm_model = None  # a pydantic-ai model object to use instead of the configured one (tests, embedding)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="transcript"):
            yield Static(WELCOME, classes="notes")
        yield FormInput(placeholder="Ask about memory, GPUs, cloud cost or rent vs buy, then Enter", id="question")

    @on(Input.Submitted, "#question")
    def submitted(self, event: Input.Submitted) -> None:
        question = event.value.strip()
        if not question:
            return
        event.input.value = ""
        self.add(Static(f"[b]You:[/b] {esc(question)}", classes="you"))
        from ..ask.llm import llm_settings, needs_the_llm, parser_hint

        answer = ask(question, self.catalog, self.last)  # 'and on an A100?' changes the last question
        if (self.llm_model is not None or llm_settings()) and needs_the_llm(answer):
            self.answer_with_llm(question, parser_hint(answer))  # read two ways or not at all: the LLM, with the reading
        else:
            self.show_answer(answer)

    def add(self, widget) -> None:
        transcript = self.query_one("#transcript", VerticalScroll)
        transcript.mount(widget)
        transcript.scroll_end(animate=False)

    def show_answer(self, answer: AskAnswer, with_cards: bool = True) -> None:
        self.last = answer
        if answer.understood and answer.journey != "llm":
            self.add(Static(answer.interpretation, classes="interpretation", markup=False))
        self.add(Static(answer.answer, classes="answer" if answer.understood else "answer error", markup=False))
        if with_cards:
            for call in answer.calls:
                self.add(card(call))

    @work(exclusive=True, group="ask-llm")
    async def answer_with_llm(self, question: str, hint: str | None = None) -> None:
        from ..ask.llm import ask_llm

        streaming = Static("", classes="answer", markup=False)
        self.add(streaming)
        text: list[str] = []

        def on_event(kind: str, payload) -> None:
            if kind == "text":
                text.append(payload)
                streaming.update("".join(text))
            elif kind == "result":
                self.add(card(payload))

        answer = await ask_llm(question, model=self.llm_model, on_event=on_event, hint=hint)
        if not answer.understood:
            streaming.update(answer.answer)
            streaming.add_class("error")
        self.last = answer

    def action_cancel(self) -> None:
        running = [w for w in self.workers if w.group == "ask-llm" and w.is_running]
        for worker in running:
            worker.cancel()
        if running:
            self.add(Static("[yellow]cancelled[/yellow]", classes="notes"))

    def markdown(self) -> str | None:
        if not self.last:
            return None
        lines = [f"# {self.last.question}", "", self.last.interpretation, "", self.last.answer, ""]
        lines += [f"- `{c.tool}` {json.dumps(c.arguments)} → {key_figures(c)}" for c in self.last.calls]
        return "\n".join(lines) + f"\nCatalog: {self.catalog.describe()}\n"

    def json(self) -> str | None:
        if not self.last:
            return None
        return json.dumps({**self.last.model_dump(mode="json"), "catalog": self.catalog.describe()}, indent=2)
