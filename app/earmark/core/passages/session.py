"""The pieces of Ask put together for a library: its passage index, the sentence model the settings name (when
it is here, or once fetched), and an Asker over both."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from earmark.core.db.database import Database
from earmark.core.passages.ask import Asker
from earmark.core.passages.catalogue import KNOWN, OFF
from earmark.core.passages.indexer import IndexResult, index_library
from earmark.core.passages.model import ModelError, engine_installed, fetch_model, local_folder
from earmark.core.passages.store import open_index, passages_path
from earmark.core.settings import get_setting

if TYPE_CHECKING:
    from earmark.core.passages.vectors import Embedder

WORDS_ALONE = "Answers come from words alone: {why}."


def model_name(db: Database) -> str:
    return str(get_setting(db, "ask.model")).strip()


def load_embedder(db: Database, fetch: bool = False,
                  progress: Callable[[float, str], None] | None = None) -> tuple[Embedder | None, str]:
    """The sentence model the settings name, and '' — or None and the sentence saying why there is none. With
    ``fetch``, a model known by name is fetched when it is not here yet (``progress`` told the share done)."""
    name = model_name(db)
    if name == OFF or not name:
        return None, WORDS_ALONE.format(why="the sentence model is turned off (setting ask.model)")
    if not engine_installed(name):
        return None, WORDS_ALONE.format(why="the sentence model needs numpy, tokenizers and, for a transformer, "
                                            "onnxruntime (pip install 'earmark[transcribe]')")
    folder = local_folder(name)
    if folder is None and name in KNOWN and fetch:
        try:
            folder = fetch_model(progress, name)
        except ModelError as exc:
            return None, str(exc)
    if folder is None:
        why = ("the sentence model is not fetched yet" if name in KNOWN
               else f"{name} holds no sentence model (tokenizer.json with model.safetensors or model.onnx)")
        return None, WORDS_ALONE.format(why=why)
    from earmark.core.passages.vectors import load

    return load(folder, name if name in KNOWN else Path(name).name), ""


def update_index(db: Database, library: Path, embedder: Embedder | None,
                 progress: Callable[[int, int], None] | None = None) -> IndexResult:
    """Bring the library's passage index up to date."""
    index = open_index(passages_path(library))
    try:
        return index_library(db, index, embedder, progress)
    finally:
        index.close()


def asker(db: Database, library: Path, embedder: Embedder | None) -> Asker:
    """An Asker over the library's passage index (kept open while the Asker is used)."""
    return Asker(db, open_index(passages_path(library)), embedder)
