"""A second local user for privacy tests (as the security probe had): made with useradd when the tests run as
root, as CI does; elsewhere the tests that need one skip with the reason. Programs run as that user through
setpriv, with the system's Python (the user cannot enter the developer's home, where the venv may be)."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

NAME = "earmark-probe"
SYSTEM_PYTHON = "/usr/bin/python3"


@dataclass(frozen=True, slots=True)
class OtherUser:
    """Another account on this machine."""

    uid: int
    gid: int

    def run(self, *command: str, timeout: float = 30, **kwargs: object) -> subprocess.CompletedProcess[str]:
        """Run ``command`` as this user."""
        return subprocess.run(["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups",
                               "--reset-env", *command], capture_output=True, text=True, timeout=timeout,
                              **kwargs)  # type: ignore[call-overload]

    def popen(self, *command: str) -> subprocess.Popen[str]:
        """Start ``command`` as this user."""
        return subprocess.Popen(["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups",
                                 "--reset-env", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def can_read(self, path: Path) -> bool:
        """Whether this user can read the file (or list the folder) at ``path``."""
        if path.is_dir():
            return self.run("ls", str(path)).returncode == 0
        return self.run("sh", "-c", 'cat -- "$1" > /dev/null', "sh", str(path)).returncode == 0


def other_user() -> OtherUser:
    """The second user, made when missing; skips the test without root or the tools."""
    if os.getuid() != 0:
        pytest.skip("a second local user is needed: only root can make one (useradd); CI runs as root")
    for tool in ("useradd", "setpriv"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    if not Path(SYSTEM_PYTHON).exists():
        pytest.skip(f"{SYSTEM_PYTHON} is needed to run programs as the second user")
    try:
        entry = pwd.getpwnam(NAME)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", NAME],
                       check=True, capture_output=True)
        entry = pwd.getpwnam(NAME)
    return OtherUser(entry.pw_uid, entry.pw_gid)


@contextmanager
def shared_folder() -> Iterator[Path]:
    """A folder every user can pass through (0755, in /tmp), as a home folder usually is: what lies inside is
    protected by its own mode only."""
    folder = Path(tempfile.mkdtemp(prefix="earmark-privacy-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
