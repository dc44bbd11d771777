"""Reconstruction of the rules-page reel strips from the page's published facts (tooling; runs the exact engine)."""
