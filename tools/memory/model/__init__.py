"""The model itself: parameter counts by component, storage formats, and weight bytes as a release stores them.

- `count_parameters(arch)`: parameters per component (embedding, attention, MLP or experts, head).
- `weight_bytes_of(arch, counts, dtype)`: bytes of one full copy of the weights in a format, with how they were counted.
- `generic_dense_decoder(params_billions)`: a stand-in architecture for a model known only by its size.
"""
from gpusizer.tools.memory.model.generic_model import generic_dense_decoder
from gpusizer.tools.memory.model.parameters import count_parameters
from gpusizer.tools.memory.model.weights import weight_bytes_of

__all__ = ["count_parameters", "generic_dense_decoder", "weight_bytes_of"]
