"""Search and players; imports core, scoring (the count) and clock only."""
