"""Numbers written as words, as digits: 'seventy billion' -> '70 billion', 'a hundred users' -> '100 users',
'thirty-two k' -> '32 k', 'sixteen hundred bucks' -> '1600 bucks', 'a dozen' -> '12'.

A lone 'one' or 'a' stays a word (it is a count the readers know, and 'this one' is no number) unless a million, billion or
trillion follows ('one trillion tokens'); 'zero' stays too (in these questions it is DeepSpeed's ZeRO)."""
from __future__ import annotations

import re

from . import regex as rx

# How a figure is written in the patterns that read one
NUMBER_K = r"(\d+(?:\.\d+)?) ?(k)?"  # a number and its thousands: '8k', '8 k', '8000', '1.5k'
FIGURE = r"(?<![\w.$])(\d+(?:\.\d+)?)"  # a number on its own: not part of a word, a decimal or a price
FIGURE_K = r"(?<![\w.$])" + NUMBER_K

UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
         "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
SCALES = {"dozen": 12, "hundred": 100, "thousand": 1000}  # million and billion stay words: the readers scale them ('70 billion')
WORD = "|".join([*UNITS, *TENS, *SCALES, "a", "and"])
RUN = re.compile(rf"\b(?:{WORD})(?:[ -](?:{WORD}))*\b")


def value_of(words: list[str]) -> int | None:
    """The number a run of number words spells, or None when it spells none (a lone 'a', 'one' or 'and')."""
    words = [w for w in words if w != "and"]
    if not words or words in (["a"], ["one"], ["a", "one"]) or words[-1] == "a":
        return None
    total, current = 0, 0
    for word, after in zip(words, [*words[1:], ""], strict=True):
        if word == "a" and after not in SCALES:  # 'a' is a number only as 'a hundred', 'a dozen'
            return None
        if word == "thousand":
            total, current = total + max(current, 1) * 1000, 0
        elif word in SCALES:
            current = max(current, 1) * SCALES[word]
        else:
            current += UNITS.get(word, 0) + TENS.get(word, 0)
    return total + current


ONE_OF_A_SCALE = re.compile(r"\b(?:one|a)(?= (?:million|billion|trillion)\b)|\bone(?= (?:dollar|buck|point)\b)")  # 'one trillion'
DIGIT = "|".join(["zero", *UNITS])
POINT = re.compile(rf"\b(\d+|{DIGIT}) point (\d+|{DIGIT})\b")  # 'one point five billion' is 1.5 billion


def digits_for_number_words(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        words = rx.split(r"[ -]", match.group(0))  # a leading 'a' or 'and' stays a word, unless a scale follows ('a hundred')
        lead = words.pop(0) + " " if words[0] in ("a", "and") and words[1:] and words[1] not in SCALES else ""
        return lead + replace_words(words)

    def replace_words(words: list[str]) -> str:
        value = value_of(words)
        return str(value) if value is not None else " ".join(words)

    def decimal(match: re.Match[str]) -> str:
        whole, part = (g if g.isdigit() else str({"zero": 0, **UNITS}[g]) for g in match.groups())
        return f"{whole}.{part}"

    return RUN.sub(replace, POINT.sub(decimal, ONE_OF_A_SCALE.sub("1", text)))
