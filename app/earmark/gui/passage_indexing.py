"""The passage index brought up to date in a child process (``earmark index-passages --jsonl --background``):
never in the window's process. Signals: ``progress(float, str)``, ``finished(str)`` (the sentence saying answers
come from words alone, '' with the model; or why indexing failed)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from earmark.gui.child_command import ChildCommand

KILL_AFTER_MS = 200


class PassageIndexing(ChildCommand):
    """Runs one indexing at a time."""

    progress = Signal(float, str)
    finished = Signal(str)

    def __init__(self, library_path: Path, parent: QObject | None = None) -> None:
        super().__init__(library_path, parent)
        self._said = ""

    def start(self, fetch: bool = True) -> bool:
        """Index what changed; False when an indexing is under way already. Without ``fetch`` the sentence model
        is not fetched (a person who never asked is not sent a model after a refresh): words alone until it is."""
        if self.is_running():
            return False
        self._said = ""
        return self._run(["index-passages", "--jsonl", "--background", *([] if fetch else ["--no-fetch"])])

    def shutdown(self) -> None:
        """Stop it (what it indexed stays indexed; the rest is indexed next time)."""
        self._stop(KILL_AFTER_MS, wait=True)

    def _message(self, message: dict[str, object]) -> None:
        if "progress" in message:
            self.progress.emit(float(message["progress"]), str(message.get("what", "")))  # type: ignore[arg-type]
        elif "passages" in message:
            self._said = str(message.get("words_alone") or "")

    def _ended(self, exit_code: int, errors: list[str]) -> None:
        if exit_code != 0:
            self._said = errors[-1] if errors else f"The passages could not be indexed (exit code {exit_code})."

    def _not_started(self, sentence: str) -> None:
        self._said = f"The passages could not be indexed: {sentence}."

    def _done(self) -> None:
        self.finished.emit(self._said)
