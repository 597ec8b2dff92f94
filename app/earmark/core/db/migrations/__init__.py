"""Schema migrations: a ladder of named steps on PRAGMA user_version, each in one transaction.

Each step lives in its own module (``mNNN_what.py``); a new schema version adds one module and one line below."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from earmark.core.db.migrations.m001_initial import m001_initial
from earmark.core.db.migrations.m002_refresh_and_podcast_namespaces import m002_refresh_and_podcast_namespaces
from earmark.core.db.migrations.m003_tags_search_and_smart_lists import m003_tags_search_and_smart_lists
from earmark.core.db.migrations.m004_notes_transcripts_and_history import m004_notes_transcripts_and_history
from earmark.core.db.migrations.m005_queue_downloads_playback_prefs import m005_queue_downloads_playback_prefs
from earmark.core.db.migrations.m006_topic_graph import m006_topic_graph
from earmark.core.db.migrations.m007_reading_list import m007_reading_list
from earmark.core.db.migrations.m008_sync_and_secrets import m008_sync_and_secrets
from earmark.core.db.migrations.m009_technical_search import m009_technical_search
from earmark.core.db.migrations.m010_user_titles import m010_user_titles
from earmark.core.db.migrations.m011_enclosure_length import m011_enclosure_length
from earmark.core.db.migrations.m012_listening import m012_listening
from earmark.core.db.migrations.m013_transcription import m013_transcription
from earmark.core.db.migrations.m014_fresh_terms import m014_fresh_terms
from earmark.core.db.migrations.m015_one_subscription_per_podcast import m015_one_subscription_per_podcast
from earmark.core.db.migrations.m016_covers import m016_covers
from earmark.core.db.migrations.m017_sync_devices import m017_sync_devices
from earmark.core.db.migrations.m018_learning_paths import m018_learning_paths
from earmark.core.db.migrations.m019_show_notes_once import m019_show_notes_once
from earmark.core.db.schema import schema_version

Migration = Callable[[sqlite3.Connection], None]

MIGRATIONS: list[Migration] = [
    m001_initial,
    m002_refresh_and_podcast_namespaces,
    m003_tags_search_and_smart_lists,
    m004_notes_transcripts_and_history,
    m005_queue_downloads_playback_prefs,
    m006_topic_graph,
    m007_reading_list,
    m008_sync_and_secrets,
    m009_technical_search,
    m010_user_titles,
    m011_enclosure_length,
    m012_listening,
    m013_transcription,
    m014_fresh_terms,
    m015_one_subscription_per_podcast,
    m016_covers,
    m017_sync_devices,
    m018_learning_paths,
    m019_show_notes_once,
]


def apply_migrations(conn: sqlite3.Connection) -> None:
    """Run every migration the library has not had yet, each in its own transaction."""
    for number, migration in enumerate(MIGRATIONS, start=1):
        if schema_version(conn) >= number:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(conn) < number:  # another process may have migrated while we waited
                migration(conn)
            conn.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
