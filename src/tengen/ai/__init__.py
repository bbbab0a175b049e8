"""search and players; imports core only."""
