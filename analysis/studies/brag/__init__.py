"""Three Card Brag studies (RULES §4)."""
