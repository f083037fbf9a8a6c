"""The heads-up pre-flop solver: an entry chart for Dilemma Hold'em's first betting round."""
