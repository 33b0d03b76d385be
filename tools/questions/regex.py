"""Ask's regular expressions, each compiled once. The package holds more patterns than the `re` module's own cache
(512), so calls through `re` kept recompiling them: a question took twice as long to read."""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

Pattern = str | re.Pattern[str]


@cache
def compiled(pattern: Pattern, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def search(pattern: Pattern, string: str) -> re.Match[str] | None:
    return compiled(pattern).search(string)


def match(pattern: Pattern, string: str) -> re.Match[str] | None:
    return compiled(pattern).match(string)


def fullmatch(pattern: Pattern, string: str) -> re.Match[str] | None:
    return compiled(pattern).fullmatch(string)


def finditer(pattern: Pattern, string: str) -> list[re.Match[str]]:
    return list(compiled(pattern).finditer(string))


def findall(pattern: Pattern, string: str) -> list[str]:
    return compiled(pattern).findall(string)


def split(pattern: Pattern, string: str, flags: int = 0) -> list[str]:
    return compiled(pattern, flags).split(string)


def sub(pattern: Pattern, replacement: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
    return compiled(pattern).sub(replacement, string, count=count)
