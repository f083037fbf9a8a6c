"""The lab's foundations: the counter-based random generator, numba thread control, result I/O.

JIT options live in :mod:`evaluator.jit` (the lowest layer, shared with the evaluator).
"""
