"""Independent checks of the exact engine: exhaustive enumeration, simulation, certificates."""
