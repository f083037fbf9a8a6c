"""Bluffjack studies (RULES §3)."""
