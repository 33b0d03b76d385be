"""Memory that is not a live tensor: CUDA context, library workspaces, caching-allocator slack."""
from __future__ import annotations

MIB = 2**20

# The CUDA context with PyTorch's kernels loaded takes roughly 300-600 MiB on current GPUs (PyTorch forum
# and docs reports; nvidia-smi shows it before the first allocation). cuBLAS/cuBLASLt keep a workspace per
# stream (32 MiB on Hopper per PyTorch's CUBLAS_WORKSPACE_CONFIG defaults). The caching allocator rounds
# blocks and keeps freed ones: reserved typically exceeds allocated by a few percent; training's churn of
# differently sized activations fragments more than a prefill does.
CUDA_CONTEXT_BYTES = 500 * MIB
WORKSPACE_BYTES = 64 * MIB
ALLOCATOR_SLACK = {"inference": 0.03, "training": 0.06}


def runtime_overhead_bytes(live_tensor_bytes: int, workload: str) -> int:
    return int(CUDA_CONTEXT_BYTES + WORKSPACE_BYTES + ALLOCATOR_SLACK[workload] * live_tensor_bytes)


def overhead_assumption(workload: str) -> str:
    return (f"runtime overhead: {CUDA_CONTEXT_BYTES // MIB} MiB CUDA context + {WORKSPACE_BYTES // MIB} MiB library "
            f"workspaces + {ALLOCATOR_SLACK[workload]:.0%} allocator slack on the live tensors")
