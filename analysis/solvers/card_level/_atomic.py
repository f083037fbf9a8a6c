"""An atomic counter for the kernels: threads of a parallel loop take tasks from one queue.

numba's threading layers hand out a ``prange`` statically (the workqueue and OpenMP layers split
it into one contiguous block per thread, whatever ``numba.set_parallel_chunksize`` says), so a
thread slowed by the machine or given the heavier tasks leaves the other waiting at the join.
:func:`fetch_add` lets each worker take the next task instead (see ``_kernels._run_tasks``).
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def fetch_add(typingctx, counter, i, step):  # type: ignore[no-untyped-def]
    """``counter[i] += step`` atomically (sequentially consistent); returns the value before.
    ``counter``: a 1-d int64 array; ``i``, ``step``: int64."""
    if not (isinstance(counter, types.Array) and counter.ndim == 1 and counter.dtype == types.int64):
        return None
    sig = types.int64(counter, types.int64, types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, array_type, array, [args[1]])
        return builder.atomic_rmw("add", ptr, args[2], "seq_cst")

    return sig, codegen
