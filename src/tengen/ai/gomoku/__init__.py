"""The Gomoku player's parts: line patterns and their state, threat search, alpha-beta, time."""
