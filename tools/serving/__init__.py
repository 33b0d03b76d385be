"""Serving: how many GPUs of which type serve a model to the traffic asked, at what speed and cost.

- `plan_serving(model, ...)`: options sorted by cost, each with replicas, concurrency, per-user speed and price.
- `plan_serving_answer(plan)`: a plan as a short text answer, the cheapest option first.
- `replica_capacity(...)`: how many requests one replica's KV cache holds, as its engine budgets memory.
- `serving_capacity(model, gpu=..., gpu_count=...)`: what GPUs in hand serve: requests at once within a per-user speed,
  the requests/s that sustains, $ per million output tokens kept busy; `serving_capacity_answer` words it.
"""
from gpusizer.tools.serving.answer import plan_serving_answer
from gpusizer.tools.serving.capacity import ServingCapacity, serving_capacity, serving_capacity_answer
from gpusizer.tools.serving.plan_models import ServingOption, ServingPlan
from gpusizer.tools.serving.plan_serving import plan_serving
from gpusizer.tools.serving.replica_capacity import replica_capacity

__all__ = ["ServingCapacity", "ServingOption", "ServingPlan", "plan_serving", "plan_serving_answer", "replica_capacity",
           "serving_capacity", "serving_capacity_answer"]
