"""Earmark's data and cache folders are where platformdirs puts them, without importing it at every start."""

from __future__ import annotations

import sys

import platformdirs
import pytest

from earmark.core.user_folders import user_folder


@pytest.mark.skipif(sys.platform in ("win32", "cygwin", "darwin"), reason="the XDG folders are Linux's and the BSDs'")
@pytest.mark.parametrize("data, cache", [(None, None), ("/srv/me/data", "/srv/me/cache"), ("  ", ""),
                                         ("relative/data", "~/odd")])
def test_the_folders_are_platformdirs_own(monkeypatch: pytest.MonkeyPatch, data: str | None,
                                          cache: str | None) -> None:
    for variable, value in (("XDG_DATA_HOME", data), ("XDG_CACHE_HOME", cache)):
        if value is None:
            monkeypatch.delenv(variable, raising=False)
        else:
            monkeypatch.setenv(variable, value)
    assert str(user_folder("data")) == platformdirs.user_data_dir("earmark", appauthor=False)
    assert str(user_folder("cache")) == platformdirs.user_cache_dir("earmark", appauthor=False)
