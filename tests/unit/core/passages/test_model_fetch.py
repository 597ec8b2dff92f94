"""Fetching the default sentence model by name from a local server answering as the Hugging Face hub does
(``/REPOSITORY/resolve/main/FILE``, with the commit and ETag headers its client asks for; HF_ENDPOINT names it):
the size is said first, progress follows, and the folder made is a model Ask loads."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from earmark.core.passages.catalogue import DEFAULT, KNOWN
from earmark.core.passages.model import cached_folder, fetch_model, local_folder
from earmark.core.passages.vectors import load
from helpers.sentence_model import sentence_test_model


class Hub(BaseHTTPRequestHandler):
    """Files of one repository, by their paths in it; every path asked is recorded."""

    files: dict[str, bytes] = {}
    asked: list[str] = []

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def do_GET(self) -> None:
        self._answer(body=True)

    def _answer(self, body: bool) -> None:
        self.asked.append(f"{self.command} {self.path}")
        data = self.files.get(self.path.split("?")[0])
        if data is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", f'"{hashlib.sha256(data).hexdigest()}"')
        self.send_header("X-Repo-Commit", "0" * 40)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        """Silent."""


@pytest.fixture
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[type[Hub]]:
    """The hub serving the default model's files (the test copy's) at their paths in its repository."""
    copy = sentence_test_model(tmp_path / "copy")
    repository = KNOWN[DEFAULT].repository
    Hub.files = {f"/{repository}/resolve/main/{remote}": (copy / local).read_bytes()
                 for remote, local in KNOWN[DEFAULT].files}
    Hub.asked = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    yield Hub
    server.shutdown()
    server.server_close()


def test_the_default_model_is_fetched_by_name_with_its_size_said_first(hub: type[Hub]) -> None:
    told: list[tuple[float, str]] = []
    folder = fetch_model(lambda share, label: told.append((share, label)))
    assert told[0] == (0.0, "Fetching the sentence model (18 MB, once)") and told[-1][0] == 1.0
    assert [share for share, _label in told] == [0.0, 0.5, 1.0]
    assert folder == cached_folder(DEFAULT) == local_folder(DEFAULT)
    assert {f"GET /dleemiller/word-llama-l2-supercat/resolve/main/{name}" for name in
            ("l2_supercat_256.safetensors", "l2_supercat_tokenizer_config.json")} <= set(hub.asked)
    model = load(folder, DEFAULT)
    assert model.dimensions == 256 and model.vectors(["why guards are needed"]).shape == (1, 256)
