"""The general card-game engine: the game protocol, RECYCLE, search players, tournaments."""
