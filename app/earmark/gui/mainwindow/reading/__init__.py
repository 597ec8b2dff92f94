"""Reading: the reader and saving articles."""
