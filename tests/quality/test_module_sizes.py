"""Files easy to live in: none under app/ over 500 lines, no command group of the command line over 300, the main
window within 400 (its controllers hold the rest)."""

from __future__ import annotations

from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_file_under_app_is_over_500_lines() -> None:
    """The files written here: not what an install generates beside them (earmark.egg-info lists every file)."""
    long = {str(path.relative_to(APP)): lines(path) for path in APP.rglob("*") if path.is_file()
            and path.suffix in (".py", ".toml", ".md", ".txt") and not _generated(path) and lines(path) > 500}
    assert not long, f"split these: {long}"


def _generated(path: Path) -> bool:
    return any(part.endswith(".egg-info") for part in path.relative_to(APP).parts)


def test_no_module_of_the_command_line_is_over_300_lines() -> None:
    long = {path.name: lines(path) for path in (APP / "earmark" / "cli").glob("*.py") if lines(path) > 300}
    assert not long, f"split these command groups: {long}"


def test_the_main_window_module_is_within_400_lines() -> None:
    assert lines(APP / "earmark" / "gui" / "mainwindow" / "window.py") <= 400
