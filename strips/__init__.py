"""Math sets (game.toml + reel-strip CSV files): the bundled sets and their loader."""
