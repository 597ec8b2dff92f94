"""The acronyms a library defines ("Selective Activation Recomputation (SAR)", learnt for search in
``search_aliases``), read by the topic graph as the maintained aliases are: items saying either form share the
concept."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.topics import concepts
from earmark.core.topics.vocabulary import set_learnt_aliases


def use_library_aliases(db: Database) -> None:
    """Read texts with the acronyms ``db`` defines from now on (worker processes forked after this too). Items
    worked out before a new acronym was learnt take it at the next full pass."""
    pairs = [(str(name), str(alias)) for name, alias in db.execute("SELECT name, alias FROM search_aliases")]
    if set_learnt_aliases(pairs):
        concepts.forget_tokens()  # words read with the former aliases
