"""Money: what a job costs in the cloud, and whether to rent or buy.

- `cloud_cost(gpu, ...)`: every catalog offer that can run N GPUs for H hours, cheapest first.
- `rent_vs_buy(gpu, ...)`: the cost of owning against renting for the same busy hours, and the break-even.
- `cloud_cost_answer(result)`, `rent_vs_buy_answer(result)`: their results as short text answers, the verdict first.
- `budget` (module): what a budget buys: hours of rented GPUs, cards to buy within it, a priced run against it.
The price rule these share (cheapest offer for N GPUs, billed hours) is `gpusizer.tools.pricing`.
"""
from gpusizer.tools.money.answers import cloud_cost_answer, rent_vs_buy_answer
from gpusizer.tools.money.cloud_cost import CloudCost, cloud_cost
from gpusizer.tools.money.rent_vs_buy import RentVsBuy, rent_vs_buy

__all__ = ["CloudCost", "RentVsBuy", "cloud_cost", "cloud_cost_answer", "rent_vs_buy", "rent_vs_buy_answer"]
