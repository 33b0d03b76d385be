"""Memory that is not a live tensor: CUDA context, library workspaces, caching-allocator slack.

The allocator model behind `reserved_bytes` (what torch.cuda.max_memory_reserved reports, beside the live tensors of
max_memory_allocated). PyTorch's caching allocator (c10/cuda/CUDACachingAllocator.cpp) rounds each block up to 512
bytes, serves blocks under 1 MiB from 2 MiB segments and blocks under 10 MiB from 20 MiB segments, rounds larger
ones to 2 MiB, and keeps every freed block for reuse instead of returning it to the driver. Weights and optimizer
states are allocated once, so they pack tightly; activations, loss buffers and the step's temporaries change size from
phase to phase, and a freed block of one size serves a request of another only by splitting it. The pool at the peak
is therefore the live tensors, the cuBLAS workspaces (allocated through it) and a slack that this model puts at a
share of the live tensors: 3% for a prefill, 6% for a training step (one published source measured reserved 12-24% above
allocated, higher where many differently sized activations churn: a modelled average, not a bound).
The CUDA context is outside the pool; nvidia-smi shows pool + context.
"""
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


def reserved_bytes(total_bytes: int) -> int:
    """What the caching allocator holds at the peak: everything in the estimate but the CUDA context."""
    return max(0, total_bytes - CUDA_CONTEXT_BYTES)
