"""Everything that is not GUI: the library, feeds, articles, search. Never imports Qt."""
