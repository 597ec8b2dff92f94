"""Keyboard only, the menus: every menu of the menu bar and every command in a menu has its own Alt letter (a
walk through every menu of the real window), Alt plus a menu's letter opens it, and F10 opens the menu bar
(issue 17)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, press, wait_rows

ALT = Qt.KeyboardModifier.AltModifier


def mnemonic(text: str) -> str:
    """The underlined letter of a menu text ("" for none; "&&" is a literal ampersand)."""
    plain = text.replace("&&", "")
    at = plain.find("&")
    return plain[at + 1].lower() if 0 <= at < len(plain) - 1 else ""


def repeated(texts: list[str]) -> dict[str, list[str]]:
    """Letters given to more than one text, and texts with none."""
    letters = Counter(mnemonic(text) for text in texts)
    return {letter or "(none)": [t for t in texts if mnemonic(t) == letter] for letter, count in letters.items()
            if count > 1 or not letter}


def test_every_menu_and_command_has_its_own_letter(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    bar = window.menuBar()
    titles = [action.text() for action in bar.actions() if action.isVisible()]
    assert repeated(titles) == {}, "menu bar"
    menus = [action.menu() for action in bar.actions() if action.menu() is not None]
    while menus:
        menu = menus.pop()
        assert isinstance(menu, QMenu)
        entries = [action for action in menu.actions() if not action.isSeparator() and action.isVisible()]
        assert repeated([action.text() for action in entries]) == {}, f"menu {menu.title()}"
        menus.extend(action.menu() for action in entries if action.menu() is not None)


def open_menu() -> str:
    popup = QApplication.activePopupWidget()
    return popup.title().replace("&", "") if isinstance(popup, QMenu) else ""


def press_in_menu(qtbot: QtBot, key: Qt.Key) -> None:
    """A key while a menu is open goes to the menu (as Qt's popups take the keyboard)."""
    popup = QApplication.activePopupWidget()
    assert popup is not None
    qtbot.keyClick(popup, key)


def test_alt_letters_and_f10_open_the_menus(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    for key, title in ((Qt.Key.Key_D, "Feeds"), (Qt.Key.Key_E, "Edit")):
        press(qtbot, key, ALT)
        qtbot.waitUntil(lambda title=title: open_menu() == title, timeout=2000)
        press_in_menu(qtbot, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: open_menu() == "", timeout=2000)
    press(qtbot, Qt.Key.Key_F10)
    qtbot.waitUntil(lambda: open_menu() == "File", timeout=2000)
    press_in_menu(qtbot, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: open_menu() == "Edit", timeout=2000)
    press_in_menu(qtbot, Qt.Key.Key_Escape)


def test_a_letter_typed_in_an_open_menu_is_the_menus(qtbot: QtBot, launch: Launch, sample: None,
                                                     library_path: Path) -> None:
    """F in the Playback menu is Skip Forward, not Favourite (F alone, a key of the list behind the menu)."""
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, window.item_list, 0)
    press(qtbot, Qt.Key.Key_P, ALT)
    qtbot.waitUntil(lambda: open_menu() == "Playback", timeout=2000)
    press_in_menu(qtbot, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: open_menu() == "", timeout=2000)  # the entry with that letter was chosen
    qtbot.wait(200)  # a favourite would be written at once
    favourites = open_library(library_path).execute("SELECT count(*) FROM items WHERE favourite").fetchone()[0]
    assert favourites == 0
