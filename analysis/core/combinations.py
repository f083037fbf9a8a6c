"""Combinations stepped in place, for kernels that enumerate card subsets one at a time."""

from __future__ import annotations

from evaluator.jit import kernel


@kernel
def next_combination(idx, lo, hi, n):
    """Advance ``idx[lo:hi]`` (increasing values below ``n``) to the next combination in
    lexicographic order, in place; False (``idx`` unchanged) when it was the last."""
    j = hi - 1
    while j >= lo and idx[j] == n - hi + j:
        j -= 1
    if j < lo:
        return False
    idx[j] += 1
    for t in range(j + 1, hi):
        idx[t] = idx[t - 1] + 1
    return True
