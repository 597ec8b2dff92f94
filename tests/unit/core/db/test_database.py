"""The library connection's savepoint, as nested write transactions use it: an inner write that fails is undone
alone and the outer one goes on; when the failure ended the whole transaction, its own error is what is raised."""

from __future__ import annotations

import sqlite3

import pytest

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.settings import get_setting, set_setting


def test_a_failed_inner_write_is_undone_alone(library: Database) -> None:
    with write_transaction(library):
        set_setting(library, "playback.speed", 1.5)
        with pytest.raises(ValueError), write_transaction(library):
            set_setting(library, "playback.speed", 2.0)
            raise ValueError("the inner write fails")
        assert get_setting(library, "playback.speed") == 1.5  # the outer write is still there, and goes on
        set_setting(library, "playback.volume", 40)
    assert not library.conn.in_transaction
    assert (get_setting(library, "playback.speed"), get_setting(library, "playback.volume")) == (1.5, 40)


def test_an_inner_failure_that_ended_the_transaction_raises_its_own_error(library: Database) -> None:
    library.execute("CREATE TEMP TABLE guarded (n)")
    library.execute("CREATE TEMP TRIGGER refuse BEFORE INSERT ON guarded BEGIN SELECT RAISE(ROLLBACK, 'refused'); "
                    "END")
    with pytest.raises(sqlite3.IntegrityError, match="refused"), write_transaction(library):
        set_setting(library, "playback.speed", 1.5)
        with write_transaction(library):
            library.execute("INSERT INTO guarded VALUES (1)")  # RAISE(ROLLBACK) ends the whole transaction
    assert not library.conn.in_transaction
    assert get_setting(library, "playback.speed") != 1.5
