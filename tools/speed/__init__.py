"""Speed: how fast a replica serves (a roofline per engine step) and how long a training run takes.

- `roofline(...)`: decode and prefill rates of one replica at a batch, and what bounds each.
- `training_time(...)`: wall-clock hours, GPU-hours and cost of training on a number of tokens.
"""
from gpusizer.tools.speed.serving_speed import roofline
from gpusizer.tools.speed.training_time import training_time

__all__ = ["roofline", "training_time"]
