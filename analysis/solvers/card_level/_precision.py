"""The card solver's arithmetic precision as data: the kernels' scalars follow their arrays' dtype.

A kernel that starts a running sum at the literal ``0.0`` or scales by a float64 coefficient
computes in float64 whatever its arrays hold (numba promotes float32 with float64). :func:`like`
casts a scalar to an array's element type, so one source compiles to a float64 specialisation
(the default) and, only when a solver runs in float32, to a float32 one.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

PRECISIONS = {"float64": np.float64, "float32": np.float32}
"""The solver's precisions: the dtype of its reach and value rows, scratch and terminal tables."""
DEFAULT_PRECISION = "float64"


def like(array, x):  # type: ignore[no-untyped-def]
    """``x`` as a scalar of ``array``'s element type (kernels only; see the module)."""
    return array.dtype.type(x)


@overload(like, inline="always")
def _like(array, x):  # type: ignore[no-untyped-def]
    cast = array.dtype

    def impl(array, x):  # type: ignore[no-untyped-def]
        return cast(x)

    return impl
