"""A context as long as the model's window holds the prompt and the answer together: 'how fast at 128k' on a 128k
model is a prompt of the window less the output, said in a note."""
from __future__ import annotations

from gpusizer.catalog import Catalog, SizingError
from gpusizer.tools.figures import number


def model_window(catalog: Catalog, model: str) -> int | None:
    """The model's context window (max_position_embeddings), None for a model the catalog does not hold."""
    try:
        return catalog.find_model(model).max_position_embeddings
    except SizingError:
        return None


def prompt_within_window(catalog: Catalog, model: str | None, context: int | None, output_tokens: int,
                         engine_window: int | None = None) -> tuple[int | None, str]:
    """The prompt a `context` leaves for `output_tokens` within the model's window (or the engine's, its max_model_len,
    where one is set), and the note saying so ('' where the context and the output fit as they are)."""
    window = engine_window or (model_window(catalog, model) if model and context else None)
    if window is None or context is None or context + output_tokens <= window:
        return context, ""
    prompt = max(1, min(context, window) - output_tokens)
    return prompt, (f"a {number(context)}-token context holds the prompt and the answer: {number(prompt)} prompt + "
                    f"{number(output_tokens)} output tokens")
