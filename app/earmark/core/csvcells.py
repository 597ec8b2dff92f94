"""CSV cells a spreadsheet shows as text: a cell that would start a formula is neutralised (OWASP's advice on
CSV injection), in every CSV Earmark writes; Earmark's own CSV reader takes the neutralising back off."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

# A cell starting with one of these runs as a formula in Excel, LibreOffice or Google Sheets (OWASP); one that
# starts with quotes before them is quoted once more, so that reading it back is exact.
_FORMULA = re.compile(r"'*[=+\-@\t\r]")


def safe_cell(value: object) -> str:
    """The cell's text, with a ``'`` in front when a spreadsheet would take it as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if _FORMULA.match(text) else text


def plain_cell(text: str) -> str:
    """A cell as ``safe_cell`` had it before neutralising."""
    return text[1:] if text.startswith("'") and _FORMULA.match(text[1:]) else text


def csv_text(header: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    """A whole CSV document (``\\n`` line ends, quoting where needed), every cell neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([safe_cell(value) for value in row] for row in rows)
    return out.getvalue()
