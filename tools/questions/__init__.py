"""Questions in plain words: read them, pick the tool calls that answer them, word the answer from their results.

Used by `gpusizer ask` and the TUI's Ask tab; imports neither Textual nor MCP.
"""
from gpusizer.tools.memory.answer import partly_in_system_ram

from .answers import AskAnswer, ToolCall
from .asking import EXAMPLES, Understood, ask, understand
from .reading import Reading, facts, read_question

__all__ = ["EXAMPLES", "AskAnswer", "Reading", "ToolCall", "Understood", "ask", "facts", "partly_in_system_ram", "read_question",
           "understand"]
