"""A small counter-seeded random generator for numba kernels: xoshiro256** seeded by splitmix64.

Why not ``np.random`` inside ``prange``: numba gives every thread its own global
state, so results change with the thread count. Here every *stream* (for example
one fixed-size chunk of Monte Carlo deals) gets its own generator state derived
from ``(key, stream)`` only, so a chunk draws the same numbers whichever thread
runs it and the total is independent of the number of threads.

The state is a ``uint64[4]`` array owned by the caller (one per stream; allocate
it inside the ``prange`` body). Typical kernel use::

    state = np.empty(4, np.uint64)
    seed_state(state, key, chunk_index)
    for trial in range(chunk_size):
        deal(state, avail, n_avail, k)   # avail[:k] are now k random cards
        ...

``key`` is a uint64 made from the user's seed by :func:`derive_key` (in Python),
which hashes any non-negative integer (and optional extra words such as a study
name) with ``numpy.random.SeedSequence``.

API (all ``@kernel``, plain scalars and arrays only):

- :func:`splitmix64` - one step of the splitmix64 mixer (a pure function).
- :func:`seed_state` - fill a state from ``(key, stream)``.
- :func:`next_u64` - the next 64-bit output.
- :func:`next_float` - a float64 uniform in ``[0, 1)`` (53 random bits).
- :func:`bounded` - an unbiased integer in ``[0, n)`` for ``0 < n < 2**32`` (Lemire).
- :func:`deal` - partial Fisher-Yates: move ``k`` uniformly chosen cards of
  ``avail[:n]`` to ``avail[:k]`` (in random order), four draws per 64-bit output.
- :func:`weighted_index` - an index drawn from a cumulative weight array.
"""

from __future__ import annotations

import numpy as np

from evaluator.jit import kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM_MULT = np.uint64(0xD1B54A32D192ED03)
_LOW32 = np.uint64(0xFFFFFFFF)
_LOW16 = np.uint64(0xFFFF)
_TWO16 = np.uint64(1 << 16)
_S16 = np.uint64(16)
_S48 = np.uint64(48)
_TWO32 = np.uint64(1 << 32)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_S17 = np.uint64(17)
_FIVE = np.uint64(5)
_NINE = np.uint64(9)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


def derive_key(seed: int, *words: int | str) -> np.uint64:
    """A 64-bit generator key (``np.uint64``, ready to pass to a kernel) from a user seed
    (any non-negative int) and optional extra words.

    Distinct seeds (and distinct words, e.g. ``"starting-hands"``, an opponent
    count) give unrelated keys; the same inputs always give the same key.
    """
    if int(seed) < 0:
        raise ValueError(f"seed must be a non-negative integer; got {seed}")
    entropy = [int(seed)]
    for w in words:
        entropy.append(int.from_bytes(w.encode(), "little") if isinstance(w, str) else int(w))
    return np.uint64(np.random.SeedSequence(entropy).generate_state(1, np.uint64)[0])


@kernel(inline=True)
def _rotl(x, k):
    """``x`` rotated left by ``k`` bits (uint64)."""
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@kernel
def splitmix64(x):
    """The splitmix64 output function of ``x + golden``: a bijective 64-bit mixer."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@kernel
def seed_state(state, key, stream):
    """Fill ``state`` (uint64[4]) for stream number ``stream`` of generator key ``key``.

    The four words are consecutive splitmix64 outputs from a start point that
    mixes key and stream, as the xoshiro authors recommend.
    """
    x = splitmix64(np.uint64(key) ^ (np.uint64(stream) * _STREAM_MULT))
    for i in range(4):
        x = x + _GOLDEN
        state[i] = splitmix64(x)
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:  # pragma: no cover
        state[0] = _GOLDEN


@kernel(inline=True)
def next_u64(state):
    """The next 64-bit output of xoshiro256** (advances ``state``)."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * _FIVE, 7) * _NINE
    t = s1 << _S17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@kernel(inline=True)
def next_float(state):
    """A float64 uniform in [0, 1) from the top 53 bits of the next output."""
    return np.float64(next_u64(state) >> _S11) * _INV53


@kernel(inline=True)
def _bounded_from(state, x, n):
    """Lemire's method on a given 32-bit draw ``x``; redraws (rarely) only to stay unbiased."""
    nn = np.uint64(n)
    m = x * nn
    low = m & _LOW32
    if low < nn:
        threshold = (_TWO32 - nn) % nn
        while low < threshold:
            m = (next_u64(state) >> _S32) * nn
            low = m & _LOW32
    return np.int64(m >> _S32)


@kernel(inline=True)
def bounded(state, n):
    """An unbiased integer in ``[0, n)`` for ``0 < n < 2**32`` (Lemire's multiply-shift)."""
    return _bounded_from(state, next_u64(state) >> _S32, n)


@kernel(inline=True)
def _bounded16_from(state, x, n):
    """Lemire's method on a 16-bit draw ``x`` for ``0 < n < 2**16``; redraws (rarely) to stay unbiased."""
    nn = np.uint64(n)
    m = x * nn
    low = m & _LOW16
    if low < nn:
        threshold = (_TWO16 - nn) % nn
        while low < threshold:
            m = (next_u64(state) >> _S48) * nn
            low = m & _LOW16
    return np.int64(m >> _S16)


@kernel(inline=True)
def _swap(a, i, j):
    """Swap ``a[i]`` and ``a[j]``."""
    t = a[i]
    a[i] = a[j]
    a[j] = t


@kernel
def deal(state, avail, n, k):
    """Partial Fisher-Yates: ``avail[:k]`` becomes ``k`` distinct uniform draws from ``avail[:n]``.

    ``avail[:n]`` stays a permutation of the same cards, so the next call can
    deal again from it without resetting. For ``n < 2**16`` (any deck) each
    64-bit output feeds four draws (its 16-bit quarters are independent), which
    quarters the generator cost; every draw stays exactly uniform.
    """
    if n >= 65536:
        for i in range(k):
            _swap(avail, i, i + bounded(state, n - i))
        return
    r = np.uint64(0)
    for i in range(k):
        q = i & 3
        if q == 0:
            r = next_u64(state)
        # quarter q of the draw (one call site each, not four unrolled: a quarter of the
        # compile; LLVM unrolls it anyway)
        _swap(avail, i, i + _bounded16_from(state, (r >> np.uint64(16 * q)) & _LOW16, n - i))


@kernel(inline=True)
def weighted_index(state, cumulative, lo, hi):
    """An index in ``[lo, hi)`` drawn with probability proportional to its weight.

    ``cumulative[lo:hi]`` holds the running sums of that segment's weights
    (starting from the first weight, so ``cumulative[hi - 1]`` is the segment
    total; all weights positive); binary search on a uniform draw.
    """
    u = next_float(state) * cumulative[hi - 1]
    a = lo
    b = hi - 1
    while a < b:
        mid = (a + b) >> 1
        if cumulative[mid] > u:
            b = mid
        else:
            a = mid + 1
    return a
