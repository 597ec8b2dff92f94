"""The private folder for the single-instance socket leaves room for the socket's name: a long home folder
(found when a test's desktop of its own put HOME ~80 characters deep) made the socket's path too long to bind,
and every launch opened a window of its own."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from earmark.core.privacy import runtime_folder


@pytest.mark.parametrize("depth", [60, 70, 76, 85])
def test_the_socket_fits_whatever_the_cache_folders_length(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           depth: int) -> None:
    cache = tmp_path / ("c" * max(1, depth - len(str(tmp_path)) - len("/earmark/run") - 1))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    name = runtime_folder() / f"earmark-{'0' * 16}"  # as gui/single_instance.py names it
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(str(name))  # "AF_UNIX path too long" before the fix, at 85
    name.unlink()
