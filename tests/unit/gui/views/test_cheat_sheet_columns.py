"""The shortcuts sheet's columns (gui/views/cheat_sheet.py ``in_columns``): about the same height, menus in their
order, a tall menu cut over two columns only in pieces of at least three rows, under "(continued)"."""

from __future__ import annotations

from earmark.gui.views.cheat_sheet import HEADING_LINES, SHORTEST_PIECE, SLACK_LINES, in_columns

# the window's menus as the sheet lists them (rows with a shortcut), 2026-11-28
MENUS = [("File", 4), ("Edit", 4), ("View", 6), ("Feeds", 5), ("Playback", 22), ("Up Next", 7), ("Episode", 5),
         ("Articles", 11), ("Organize", 5), ("Go", 21), ("Graph", 3), ("Help", 3)]


def blocks(sizes: list[tuple[str, int]]) -> list[tuple[str, list[str]]]:
    return [(name, [f"{name} {row}" for row in range(count)]) for name, count in sizes]


def height(column: list[tuple[str, list[str]]]) -> int:
    return sum(HEADING_LINES + len(rows) for _name, rows in column)


def test_the_menus_fill_three_columns_of_about_the_same_height() -> None:
    columns = in_columns(blocks(MENUS), 3)
    assert len(columns) == 3
    total = sum(HEADING_LINES + count for _name, count in MENUS)
    tallest = max(height(column) for column in columns)
    assert tallest <= -(-total // 3) + SLACK_LINES + HEADING_LINES  # the old way: 51 lines beside 29 and 40
    rows = [row for column in columns for _name, piece in column for row in piece]
    assert rows == [row for _name, piece in blocks(MENUS) for row in piece]  # every row once, in menu order


def test_a_tall_menu_goes_on_in_the_next_column_under_its_name() -> None:
    columns = in_columns(blocks(MENUS), 3)
    pieces = [(name, len(rows)) for column in columns for name, rows in column if name.startswith("Playback")]
    assert [name for name, _count in pieces] == ["Playback", "Playback (continued)"]
    assert all(count >= SHORTEST_PIECE for _name, count in pieces)
    assert columns[1][0][0] == "Playback (continued)"


def test_menus_that_fit_are_never_cut() -> None:
    small = [("A", 3), ("B", 3), ("C", 3)]
    assert [[name for name, _rows in column] for column in in_columns(blocks(small), 3)] == [["A"], ["B"], ["C"]]
