"""The sample library is tagged as a person would tag it: the sidebar's Tags name subjects (compiler, autograd,
distributed, …) that gather several episodes each, not words split from titles ("post", "grad", "ir"), and
nearly every episode shows a tag in its details (issue 37, finding 16: 5 of 51 episodes were tagged)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import (
    click_row,
    click_sidebar,
    count_of,
    item_list,
    sidebar_texts,
    wait_entry_listed,
    wait_rows,
)

EPISODES = 51


def test_the_sample_librarys_tags_name_subjects(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    rows = sidebar_texts(window)
    tags: dict[str, int] = {}
    for row in rows[rows.index("Tags") + 1:]:  # the tags, then the next entry ("Continue listening (0)")
        name = row.rsplit(" (", 1)[0]
        if not name.islower():
            break
        tags[name] = count_of(row)
    for subject in ("compiler", "autograd", "distributed", "cuda", "functorch", "testing"):
        assert tags.get(subject, 0) >= 2, f"no tag {subject!r} of several episodes in {tags}"
    assert tags.get("compiler", 0) >= 15
    assert not {"post", "grad", "define", "ir"} & set(tags), f"split title words as tags: {tags}"

    click_sidebar(qtbot, window, "Podcasts")
    wait_entry_listed(qtbot, window)
    table, tagged = item_list(window), 0
    for row in range(table.model().rowCount()):
        click_row(qtbot, table, row)
        title = str(table.model().index(row, 0).data())
        qtbot.waitUntil(lambda title=title: title in window.detail.toPlainText())
        tagged += "#" in window.detail.toPlainText().split("\n")[1]  # the line under the title: source · date · #tags
    assert table.model().rowCount() == EPISODES
    assert tagged >= 0.9 * EPISODES, f"{tagged} of {EPISODES} episodes show a tag"
