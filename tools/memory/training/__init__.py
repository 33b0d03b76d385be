"""A training step's memory per GPU: weights, gradients and optimizer states under ZeRO/FSDP, and the step's peak.

- `training_state_bytes(...)`: weights, gradients and optimizer states per GPU for a sharding stage.
- `training_breakdown(plan, ...)`: the peak of the step (forward, backward or optimizer step, whichever is highest).
"""
from gpusizer.tools.memory.training.peak import training_breakdown
from gpusizer.tools.memory.training.states import training_state_bytes

__all__ = ["training_breakdown", "training_state_bytes"]
