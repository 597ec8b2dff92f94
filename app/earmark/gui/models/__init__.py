"""Qt models, one per module, reading the library through SQL."""
