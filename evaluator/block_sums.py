"""Sums of per-block results, for kernels whose threads or tasks each fill one block's row."""

from __future__ import annotations

import numpy as np

from evaluator.jit import kernel


@kernel
def sum_blocks(a):
    """``a.sum(axis=0)`` of a C-contiguous array of any dimension, adding the blocks in order.

    Written out because numba's axis sum checks the axis with a formatted error message,
    which costs a cold compile about 3 s wherever it is used."""
    blocks = a.shape[0]
    flat = a.reshape(blocks, a.size // max(blocks, 1))
    out = np.zeros(flat.shape[1], a.dtype)
    for b in range(blocks):
        for j in range(flat.shape[1]):
            out[j] += flat[b, j]
    return out.reshape(a.shape[1:])
