"""Studies: equity and ranges, starting hands, streets, and the fold-vs-check dilemma."""
