"""The Gomoku player's parts: line patterns, their compiled state, threat search, alpha-beta, time."""
