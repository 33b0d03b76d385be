"""What people type into a number field, read as the number they mean: '8k', '32K', '1,024', '1e3', '$25,000', '60%'.

A context length's 'k' is 1,024 tokens (8k = 8,192, as context sizes are quoted); any other field's 'k' is a
thousand ('2k users' = 2,000), 'm' a million; a count of training tokens or examples also takes 'B' (billion) and
'T' (trillion), as datasets are quoted ('1B tokens', '15T'). An hours field also reads durations as people write them: '3 days',
'2 weeks', '1 month' (730 h: a year's 8,760 h over 12, the month the tools price by), '36h', '1 week 2 days'; there
'm' is no million (it starts 'min' and 'month'), and a unit still being typed ('1 mo', '1 wee') is `PartialUnit`.
The field shows the value it read whenever the text is not already it.
"""
from __future__ import annotations

import math
import re

from gpusizer.tools.pricing import HOURS_PER_MONTH, HOURS_PER_YEAR

TOKEN_FIELDS = frozenset({"seq_len", "prompt_tokens", "output_tokens", "max_model_len", "max_num_batched_tokens"})
HOURS_FIELDS = frozenset({"hours"})  # read as durations too
COUNT_FIELDS = frozenset({"training_tokens", "examples"})  # dataset sizes: '1B', '15T'; a trailing 'tokens' is read too
COUNT_EXAMPLES = "e.g. 1B, 500M, 15T or 2e9"
NUMBER = re.compile(r"^\s*\$?\s*([-+]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)\s*([kKmMbBtT%]?)\s*$")
LONGEST_TEXT = 40  # characters: longer is not a number anyone typed

UNIT_HOURS = {
    **dict.fromkeys(("min", "mins", "minute", "minutes"), 1 / 60),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 1.0),
    **dict.fromkeys(("d", "day", "days"), 24.0),
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks"), 24.0 * 7),
    **dict.fromkeys(("mo", "mos", "month", "months"), HOURS_PER_MONTH),
    **dict.fromkeys(("y", "yr", "yrs", "year", "years"), float(HOURS_PER_YEAR)),
}
DURATION = re.compile(r"^\s*(?:(?:\d[\d,_]*(?:\.\d*)?|\.\d+)\s*[a-z]*\s*)+$")
DURATION_TERM = re.compile(r"(\d[\d,_]*(?:\.\d*)?|\.\d+)\s*([a-z]*)")
DURATION_EXAMPLES = "e.g. 36, 36h, 3 days, 2 weeks or 1 month (= 730 h)"


class PartialUnit(ValueError):
    """The text ends in the start of a unit ('1 m', '1 mon' on the way to '1 month'): not a value yet, nor a mistake."""


def read_number(field: str, text: str) -> float:
    """The number `text` means in `field`; ValueError when it is none (PartialUnit while a duration's unit is typed)."""
    if len(text) > LONGEST_TEXT:
        raise ValueError(text)
    if field in COUNT_FIELDS:
        text = re.sub(r"\s*(?:tokens?|examples?)\s*$", "", text, flags=re.IGNORECASE)
    found = NUMBER.match(text)
    if field in HOURS_FIELDS and (found is None or found.group(2).lower() == "m"):
        return read_hours(text)
    if found is None:
        raise ValueError(text)
    digits, suffix = found.group(1).replace(",", "").replace("_", ""), found.group(2).lower()
    value = float(digits)
    if suffix in ("b", "t") and field not in COUNT_FIELDS:
        raise ValueError(text)
    scale = {"k": 1024 if field in TOKEN_FIELDS else 1000, "m": 1024 ** 2 if field in TOKEN_FIELDS else 1e6, "%": 0.01,
             "b": 1e9, "t": 1e12}
    value *= scale.get(suffix, 1)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def read_hours(text: str) -> float:
    """A duration in hours: '3 days' = 72, '1 month' = 730, '1 week 2 days' = 216."""
    lowered = text.lower()
    if DURATION.match(lowered) is None:
        raise ValueError(text)
    total = 0.0
    terms = list(DURATION_TERM.finditer(lowered))
    for position, term in enumerate(terms):
        unit, last = term.group(2), position == len(terms) - 1
        if unit not in UNIT_HOURS:  # '1 mon', or '1 week 2' with its unit to come
            if last and any(known.startswith(unit) for known in UNIT_HOURS):
                raise PartialUnit(text)
            raise ValueError(text)
        total += float(term.group(1).replace(",", "").replace("_", "")) * UNIT_HOURS[unit]
    if not math.isfinite(total):
        raise ValueError(text)
    return total


def shown_as_read(value: float, field: str = "") -> str:
    """The value as the field echoes it: '= 8,192', '= 730 h'."""
    shown = f"= {value:,.0f}" if float(value).is_integer() else f"= {value:,g}"
    return shown + (" h" if field in HOURS_FIELDS else "")
