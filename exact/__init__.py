"""Exact slot math: the game model, the rules-page spin evaluator and the
per-reel factorised engine.  Every exact figure is an int or a
``fractions.Fraction``; floats appear only for display."""

__version__ = "0.1.0"
