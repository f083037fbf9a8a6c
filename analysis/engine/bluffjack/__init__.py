"""Bluffjack as a betting game (RULES §3): stakes and options (``stakes``), the readable referee
(``referee``), JSON-lines histories (``history``), threshold strategies in TOML (``strategy``), the
numba kernel (``_kernel``) and hands and whole games played by it (``play``)."""
