"""Heads-up Bluffjack played well: the public tree built from the rules (the face-down card is
the only private card) and vector CFR+ per face-up pair, with the answer tables."""
