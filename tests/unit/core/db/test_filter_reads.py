"""What a filter reads decides when a list or count is read again (issue 35 §1): a list of what is under way
follows positions and played marks, a tag's list its tags, the archive its archiving; the whole library follows
none of them (its rows are drawn again, not read again)."""

from __future__ import annotations

from earmark.core.db.filters import ItemFilter
from earmark.core.models import ItemState


def test_each_filter_reads_the_states_it_lists_by() -> None:
    assert ItemFilter().reads() == set()
    assert ItemFilter(kind="episode", source_id=3).reads() == set()
    assert ItemFilter(kind="episode", state="in_progress", sort="last_played").reads() == {
        ItemState.PLAYED, ItemState.POSITION}
    assert ItemFilter(sort="last_played").reads() == {ItemState.PLAYED, ItemState.POSITION}
    assert ItemFilter(tag="compiler").reads() == {ItemState.TAGS}
    assert ItemFilter(favourite=True).reads() == {ItemState.FAVOURITE}
    assert ItemFilter(kind="article", archived=False, state="in_progress").reads() == {
        ItemState.ARCHIVED, ItemState.PLAYED, ItemState.POSITION}
    assert ItemFilter(downloaded=True).reads() == ItemFilter(download_failed=True).reads() == {ItemState.DOWNLOADS}
    assert ItemFilter(text="autograd").reads() == {ItemState.TEXT}
