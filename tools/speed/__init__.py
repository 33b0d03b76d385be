"""Speed: how fast a replica serves (a roofline per engine step) and how long a training run takes.

- `roofline(...)`: decode and prefill rates of one replica at a batch, and what bounds each.
- `training_time(...)`: wall-clock hours, GPU-hours and cost of training on a number of tokens.
- `estimate_speed(model, gpu, ...)`: decode, prompt and time-to-first-token rates under an engine, and their bounds.
- `plan_training(model, ...)`: the same per GPU type from tokens or examples x length x epochs, with the GPUs the
  job needs under its recipe, cheapest first.
"""
from gpusizer.tools.speed.estimate_speed import SpeedEstimate, estimate_speed
from gpusizer.tools.speed.plan_training import PlanTraining, plan_training
from gpusizer.tools.speed.serving_speed import roofline
from gpusizer.tools.speed.training_time import training_time

__all__ = ["PlanTraining", "SpeedEstimate", "estimate_speed", "plan_training", "roofline", "training_time"]
