"""The command line as a whole, through ``earmark.cli.main``: a file that is no library, and --version. (Each
command group's commands are tested in its own file: test_cli_GROUP.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark import __version__
from earmark.cli import main
from helpers.cli import assert_failure


@pytest.mark.parametrize("content", [b"<html><body>not a library</body></html>", b"\x00\xff" * 100])
def test_a_non_sqlite_library_exits_1_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                content: bytes) -> None:
    bad = tmp_path / "library.db"
    bad.write_bytes(content)
    code = main(["--library", str(bad), "list", "--json"])
    out, err = capsys.readouterr()
    assert_failure(code, out, err)
    assert "not an Earmark library" in err
    assert bad.read_bytes() == content


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.strip() == f"earmark {__version__}"
    assert __version__[0].isdigit()
