"""Chapters Earmark makes from an episode's transcript where its publisher gave none: ``shifts`` finds where the
topic changes, ``titles`` names each part by its most specific terms, ``made`` keeps them in the library and says
which chapters an item has (a feed's or file's always win)."""
