"""The three-handed pre-flop solver: starting classes, the check-down continuation, CFR, the chart."""
