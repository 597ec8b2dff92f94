"""Backups edited by hypothesis at the level of their JSON: missing and mistyped fields, wrong versions, unknown
tables and columns, rows of the wrong length, dangling foreign keys, values no column can hold. Restoring one
into a new library gives a library the app can read back, or a BackupError and an untouched library."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from earmark.core.notes.backup import TABLES
from earmark.core.settings import library_settings
from helpers.fuzz import honour, scaled
from helpers.parsers import PARSERS, backup_seed_document

LIBRARY_KEYS = sorted(setting.key for setting in library_settings())  # the ones a backup can hold

ODD_VALUES = st.one_of(
    st.sampled_from((2**63, 2**70, -(2**63) - 1, "\ud800", "1e999", "-1e999", "NaN", float("nan"), float("inf"))),
    st.sampled_from((None, "", "x", -1, 0, 1, 2**63 - 1, 2**63, -(2**63) - 1, 2**70, 1e308, float("nan"),
                     float("inf"), float("-inf"), True, False, [], {}, [1, 2], {"a": 1}, "\ud800", "a\x00b",
                     "x" * 100_000, "1e999", "NaN", "not json", "[1, 2", "{}", "2024-13-45", "../../etc/passwd",
                     "javascript:alert(1)", 999_999)),
    st.integers(), st.floats(), st.text(max_size=10),
)
ANY_JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
                        lambda children: st.one_of(st.lists(children, max_size=3),
                                                   st.dictionaries(st.text(max_size=5), children, max_size=3)),
                        max_leaves=8)
EDITS = ("drop key", "retype key", "drop table", "unknown table", "retype table", "drop columns", "retype rows",
         "cell", "cell", "cell", "cell", "cell", "setting", "setting",
         "foreign key", "duplicate column", "drop column", "unknown column", "short row",
         "duplicate row", "version", "empty columns")


@st.composite
def backups(draw: st.DrawFn) -> bytes:
    document: dict[str, Any] = backup_seed_document()
    tables: dict[str, Any] = document["tables"]
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(EDITS))
        name = draw(st.sampled_from(sorted(tables) or list(TABLES)))
        table = tables.get(name)
        usable = isinstance(table, dict) and isinstance(table.get("rows"), list) and isinstance(
            table.get("columns"), list)
        rows = table["rows"] if usable else []
        columns = table["columns"] if usable else []
        if edit == "drop key":
            document.pop(draw(st.sampled_from(sorted(document) or ["tables"])), None)
        elif edit == "retype key":
            document[draw(st.sampled_from(("format", "version", "schema", "tables", "exported_at")))] = draw(ANY_JSON)
        elif edit == "drop table":
            tables.pop(name, None)
        elif edit == "unknown table":
            tables[draw(st.sampled_from(("queue", "downloads", "sqlite_master", "items; DROP TABLE items", "")))] = \
                {"columns": ["item_id"], "rows": [[1]]}
        elif edit == "retype table":
            tables[name] = draw(ANY_JSON)
        elif edit == "drop columns" and usable:
            table.pop(draw(st.sampled_from(("columns", "rows"))))
        elif edit == "retype rows" and usable:
            table[draw(st.sampled_from(("columns", "rows")))] = draw(ANY_JSON)
        elif edit == "cell" and rows and columns:
            row = draw(st.sampled_from(rows))
            if isinstance(row, list) and row:
                row[draw(st.integers(0, len(row) - 1))] = draw(ODD_VALUES)
        elif edit == "foreign key" and rows and columns:
            keys = [i for i, column in enumerate(columns) if column in ("item_id", "source_id", "tag_id")]
            row = draw(st.sampled_from(rows))
            if keys and isinstance(row, list) and len(row) == len(columns):
                row[draw(st.sampled_from(keys))] = draw(st.sampled_from((999_999, -1, 0, None, "1")))
        elif edit == "duplicate column" and columns:
            column = draw(st.sampled_from(columns))
            table["columns"] = [*columns, column]
            table["rows"] = [[*row, row[columns.index(column)]] if isinstance(row, list) and len(row) == len(columns)
                             else row for row in rows]
        elif edit == "drop column" and columns:
            at = draw(st.integers(0, len(columns) - 1))
            table["columns"] = columns[:at] + columns[at + 1:]
            table["rows"] = [row[:at] + row[at + 1:] if isinstance(row, list) else row for row in rows]
        elif edit == "unknown column" and usable:
            table["columns"] = [*columns, draw(st.sampled_from(("colour", "rowid", "oid", "x) VALUES (1); --",
                                                                '"', "id")))]
            table["rows"] = [[*row, 1] if isinstance(row, list) else row for row in rows]
        elif edit == "short row" and rows:
            row = draw(st.sampled_from(rows))
            if isinstance(row, list) and row:
                row.pop()
        elif edit == "duplicate row" and rows:
            rows.append(list(draw(st.sampled_from(rows))))
        elif edit == "setting":
            tables["settings"] = {"columns": ["key", "value"], "rows": [
                [draw(st.sampled_from(LIBRARY_KEYS)), draw(st.one_of(ODD_VALUES, ODD_VALUES.map(json.dumps)))]]}
        elif edit == "version":
            document["version"] = draw(st.sampled_from((0, 2, -1, 1.5, "1", None, True, 10**30)))
        elif edit == "empty columns" and usable:
            table["columns"], table["rows"] = [], draw(st.sampled_from(([], [[]], [[], []])))
    text = json.dumps(document, allow_nan=True, ensure_ascii=draw(st.booleans()))
    return text.encode("utf-8", "surrogatepass")


@pytest.mark.timeout(180)
@settings(max_examples=scaled(200))
@given(backups())
def test_restoring_an_edited_backup_gives_a_readable_library_or_a_backup_error(document: bytes) -> None:
    honour(PARSERS["restore"], document)
