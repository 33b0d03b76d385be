"""rent_vs_buy's alternatives: the changes that flip its verdict (a higher utilization, a longer horizon, the other
class of rented machine), each tried through rent_vs_buy again and kept with its totals."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gpusizer.tools.alternatives import Change, retried
from gpusizer.tools.figures import percent, usd

SHOWN = 3


def rent_alternatives(arguments: Mapping[str, Any], result: Any, call: Callable[..., Any]) -> list[Change]:
    """The changes, among a few people weigh, under which the other side wins."""
    tries: list[tuple[str, dict[str, Any]]] = []
    if result.breakeven_utilization is not None and result.recommendation == "rent":
        share = min(1.0, round(result.breakeven_utilization + 0.05, 2))
        tries.append((f"keep the GPUs {percent(share)} busy", {"utilization": share}))
    if result.years < 5:
        tries.append(("own them for 5 years", {"years": 5.0}))
    if result.rent_offer_class in ("datacenter", "marketplace"):
        other = "marketplace" if result.rent_offer_class == "datacenter" else "datacenter"
        tries.append((f"rent from a {other} offer", {"rent_class": other}))
    found = []
    for change, values in tries:
        again = retried(call, arguments, values)
        if again is None or again.recommendation == result.recommendation:
            continue
        found.append(Change(change=change, arguments=values, text=f"{change}: {again.recommendation} wins, own "
                            f"{usd(again.own_total_usd)} vs rent {usd(again.rent_total_usd)}"))
    return found[:SHOWN]
