"""Matches and tournaments between GTP engines and the built-in player: games, runner, stats."""
