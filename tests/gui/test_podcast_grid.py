"""The Podcasts view's model passes Qt's model tester, its tiles come from the library with their unplayed counts,
and a cover arriving repaints the tiles that show it."""

from __future__ import annotations

from pathlib import Path

from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.podcast_grid import podcast_tiles
from earmark.core.sample import load_sample
from earmark.gui.covers.cache import CoverCache
from earmark.gui.covers.podcasts_model import PodcastGridModel, UnplayedRole
from earmark.gui.tasks import TaskRunner


def test_the_grid_model(qtbot: QtBot, qtmodeltester: ModelTester, library_path: Path, tmp_path: Path) -> None:
    db = open_library(library_path)
    load_sample(db)
    db.execute("UPDATE items SET played = 1 WHERE id IN (SELECT id FROM items WHERE kind = 'episode' LIMIT 5)")
    tiles = podcast_tiles(db)
    db.close()
    assert [(tile.title, tile.unplayed, tile.episodes) for tile in tiles] == [("PyTorch Developer Podcast", 46, 51)]
    runner = TaskRunner(library_path)
    try:
        covers = CoverCache(runner, folder=tmp_path / "covers")
        model = PodcastGridModel(covers)
        model.populate(tiles)
        qtmodeltester.check(model)
        assert model.index(0).data(UnplayedRole) == 46
        with qtbot.waitSignal(model.dataChanged, timeout=10000):  # the sample's cover, fetched from its file
            model.index(0).data(1)  # DecorationRole: asks the cache
        assert covers.has(tiles[0].image_url, 132)
    finally:
        runner.shutdown(wait_for_reads=True)
