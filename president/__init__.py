"""President, native and fast: cards, table settings and presets, the game state."""
