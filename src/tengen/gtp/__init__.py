"""Go Text Protocol both ways; imports core only."""
