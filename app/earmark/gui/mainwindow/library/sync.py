"""The window's sync: on start, after each refresh, every ``sync.interval`` minutes and on demand (Sync Now), in
a child process so the window never waits; the result and any problem in a sentence; after a failure the
automatic syncs back off (1, 2, 4… minutes, up to an hour). Setting up (the login dialog) goes through the
command line's own ``sync login``, the password handed over on its standard input."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QProcess, QTimer, Signal
from PySide6.QtWidgets import QMainWindow

from earmark.core.db.database import Database
from earmark.core.models import Changes
from earmark.core.settings import get_setting
from earmark.core.sync.account import SyncAccount, get_account
from earmark.gui.child_process import run_command
from earmark.gui.keyring_choice import KeyringChoice
from earmark.gui.preferences import Preferences
from earmark.gui.sync_process import SyncOutcome, SyncProcess
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.sync_login import SyncLogin, SyncLoginDialog

START_DELAY_MS = 5000  # after the window settled (and the on-start refresh began)
BACKOFF_CAP_MINUTES = 60
NOT_KEPT = ("Sync needs its password kept: no system keyring is running, and passwords are not kept in the library "
            "file. Log In asks again (or Settings ▸ Passwords).")


class SyncController(QObject):
    """Runs the syncs of ``window``. ``on_library_changed`` gets the changes a sync brought (the lists reload);
    ``say`` shows a sentence in the status bar; ``keyring`` asks once per session what to do without a keyring;
    a change of ``sync.interval`` in ``preferences`` applies at once. Without ``automatic`` (a read-only
    library) it never syncs by itself. Signal: ``synced(SyncOutcome)`` after each sync."""

    synced = Signal(object)

    def __init__(self, window: QMainWindow, runner: TaskRunner, db: Database,
                 on_library_changed: Callable[[Changes], None], say: Callable[[str], None],
                 keyring: KeyringChoice, preferences: Preferences, automatic: bool = True) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._on_library_changed = on_library_changed
        self._say = say
        self._automatic = automatic
        self.account: SyncAccount | None = get_account(db)
        self.failures = 0
        self.dialog: SyncLoginDialog | None = None
        self.keyring = keyring  # the window's: it asks once per session, whatever needs a password
        self.process = SyncProcess(runner.library_path, self)
        self.process.finished.connect(self._on_finished)
        self._login: QProcess | None = None
        self.timer = QTimer(self)  # the next automatic sync
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._automatic_sync)
        preferences.changed.connect(lambda key: self.interval_changed() if key == "sync.interval" else None)
        if automatic and self.account is not None:
            self.timer.start(START_DELAY_MS)

    # When --------------------------------------------------------------------------------------------

    def sync_now(self) -> None:
        """Sync at once (Feeds ▸ Sync Now), also while backing off; set up sync first when it is not."""
        if self.account is None or self._needs_login:
            self.show_login()
            return
        self._start()

    def after_refresh(self) -> None:
        """A refresh ended: new episodes may match positions that waited for them (not while backing off)."""
        if self._automatic and self.account is not None and self.failures == 0:
            self._start()

    def _automatic_sync(self) -> None:
        if self._automatic and self.account is not None:
            self._start()

    def _start(self) -> None:
        if self.process.start():
            self._say(f"Syncing with {self.account.server if self.account else 'the server'}…")

    def _on_finished(self, outcome: SyncOutcome) -> None:
        self.failures = self.failures + 1 if outcome.errors else 0
        self._say(outcome.sentence)
        for warning in outcome.warnings:
            self._say(warning)
        brought = (outcome.counts.get("subscriptions_added", 0) + outcome.counts.get("subscriptions_removed", 0)
                   + outcome.counts.get("positions_applied", 0))
        if brought:
            self._on_library_changed(Changes(structure=True))  # the sentence above stays (15 s)
        self.account = get_account(self._db)
        self._plan_next()
        self.synced.emit(outcome)

    def _plan_next(self) -> None:
        if not self._automatic or self.account is None:
            return
        minutes = int(get_setting(self._db, "sync.interval"))  # type: ignore[call-overload]
        if self.failures:
            minutes = min(2 ** (self.failures - 1), BACKOFF_CAP_MINUTES, minutes or BACKOFF_CAP_MINUTES)
        if minutes:
            self.timer.start(minutes * 60_000)

    def interval_changed(self) -> None:
        """The ``sync.interval`` setting changed: the next automatic sync follows it."""
        self.timer.stop()
        self._plan_next()

    @property
    def _needs_login(self) -> bool:
        error = self.account.last_error if self.account is not None else None
        return bool(error) and ("log in again" in str(error) or "no password for" in str(error))

    # Setting up ------------------------------------------------------------------------------------------

    def show_login(self) -> None:
        """The sync dialog: log in (or again, or out)."""
        account = self.account
        dialog = SyncLoginDialog(account.server if account else "", account.user if account else "",
                                 account.device if account else "", account.kind if account else "gpodder",
                                 logged_in=account is not None, parent=self._window)
        dialog.submitted.connect(self._log_in)
        dialog.logout_requested.connect(self._log_out)
        dialog.finished.connect(lambda _result: setattr(self, "dialog", None))
        self.dialog = dialog
        dialog.open()

    def _log_in(self, login: SyncLogin) -> None:
        def go(kept: bool) -> None:
            if not kept:
                self._login_done(-1, [NOT_KEPT])
                return
            args = ["sync", "login", login.server, login.user, "--kind", login.kind]
            if login.device:
                args += ["--device", login.device]
            self._login = run_command(self, self._runner.library_path, args, login.password + "\n",
                                      lambda code, _out, said: self._login_done(code, said))

        self.keyring.ensure(go, ask_again=True)

    def _login_done(self, code: int, said: list[str]) -> None:
        self._login = None
        error = None if code == 0 else (said[-1] if said else f"The login stopped (exit code {code}).")
        if self.dialog is not None:
            self.dialog.done_logging_in(error)
        if error is None:
            self.account = get_account(self._db)
            self.failures = 0
            self._start()

    def _log_out(self) -> None:
        def done(code: int, said: list[str]) -> None:
            self._say(said[-1] if code and said else "Logged out of sync: the password is forgotten; the library "
                      "and the changes not sent yet stay.")
            self.timer.stop()
            if self.dialog is not None:
                self.dialog.reject()

        run_command(self, self._runner.library_path, ["sync", "logout"], "", lambda code, _o, said: done(code, said))

    def shutdown(self) -> None:
        """Stop timers and a running sync before the window closes (what it committed stays)."""
        self.timer.stop()
        self.process.blockSignals(True)
        self.process.shutdown()
        if self._login is not None:
            self._login.kill()
            self._login.waitForFinished(1000)
