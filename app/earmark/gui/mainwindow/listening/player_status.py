"""What the player is doing, in the player bar: its state in a word (loading, buffering, paused, stopped), the
one sentence of a failure, and a Retry button when playing again from where it stopped may help."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from earmark.core.timefmt import format_clock
from earmark.gui.theme import accents
from earmark.playback.player import Player, PlayerState
from earmark.playback.problems import Problem, Trouble

# Failures that may pass by asking again: the stream broke, the server was slow, down or had an error.
RETRYABLE = frozenset({Trouble.CLOSED, Trouble.CUT_SHORT, Trouble.TOO_SLOW, Trouble.SLOW_START,
                       Trouble.SERVER_ERROR, Trouble.UNREACHABLE})
_STATES = {PlayerState.LOADING: "Loading…", PlayerState.PAUSED: "Paused", PlayerState.ERROR: "Stopped",
           PlayerState.ENDED: "Finished"}


def dialog_when_needed(player: Player, show_error: Callable[[str, str], None]) -> None:
    """Show a failure in a dialog only when the user must act: nothing can play until they install VLC (every
    other failure is said once, in the player bar)."""
    def on_problem(problem: Problem) -> None:
        if problem.kind == Trouble.NO_PLAYER:
            show_error(problem.sentence, "Playback problem")

    player.problem_reported.connect(on_problem)


class PlayerStatus(QWidget):
    """The failure line of the player bar (``message`` and ``retry``), and ``state``, a label for the bar to
    place beside the title. Observes a Player."""

    def __init__(self, player: Player, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._player = player
        self.state = QLabel()
        self.state.setObjectName("playerState")
        self.message = QLabel()
        self.message.setObjectName("playerMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.retry = QPushButton("Retry")
        self.retry.setObjectName("playerRetry")
        self.retry.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.retry.clicked.connect(player.retry)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.retry)
        self.hide()
        player.problem_reported.connect(self.show_problem)
        player.state_changed.connect(self._on_state)
        player.buffering_changed.connect(lambda _buffering: self._on_state(str(player.state)))
        self._on_state(str(player.state))

    @Slot(object)
    def show_problem(self, problem: Problem) -> None:
        """Say what went wrong until the next successful start; offer Retry when it may help."""
        self.message.setStyleSheet(f"color: {accents().error};")  # the theme in force now
        self.message.setText(problem.sentence)
        self.retry.setText(f"Retry from {format_clock(problem.position)}" if problem.position else "Retry")
        self.retry.setVisible(problem.final and problem.kind in RETRYABLE)
        self.show()

    @Slot(str)
    def _on_state(self, state: str) -> None:
        buffering = state == PlayerState.PLAYING and self._player.buffering()
        self.state.setText("Buffering…" if buffering else _STATES.get(PlayerState(state), ""))
        if state in (PlayerState.PLAYING, PlayerState.STOPPED):
            self.hide()
