"""The desktop entry, AppStream metainfo and icons are valid, agree with each other, and install for the user."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest
from PySide6.QtGui import QImage

from earmark.gui.icons import APP_ICON_NAME
from helpers.desktop import desktop_env

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
ENTRY = PACKAGING / f"{APP_ICON_NAME}.desktop"
METAINFO = PACKAGING / f"{APP_ICON_NAME}.metainfo.xml"
ICONS = ROOT / "resources" / "icons"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian package {package}; packaging/install-system-deps installs it)")
    return path


def desktop_entry(path: Path = ENTRY) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_entry_passes_desktop_file_validate() -> None:
    result = subprocess.run([tool("desktop-file-validate", "desktop-file-utils"), str(ENTRY)], capture_output=True,
                            text=True, timeout=60)
    problems = [line for line in result.stdout.splitlines() if ": error:" in line or ": warning:" in line]
    assert result.returncode == 0 and not problems, result.stdout + result.stderr


def test_metainfo_passes_appstreamcli_validate() -> None:
    result = subprocess.run([tool("appstreamcli", "appstream"), "validate", "--no-net", "--explain", str(METAINFO)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not re.search(r"^[EW]:", result.stdout, re.MULTILINE), result.stdout


def test_the_entry_names_what_earmark_handles() -> None:
    entry = desktop_entry()
    assert entry["Categories"].split(";")[:4] == ["AudioVideo", "Audio", "Player", "News"]
    assert {"text/x-opml+xml", "x-scheme-handler/feed", "x-scheme-handler/itpc",
            "x-scheme-handler/podcast", "x-scheme-handler/earmark"} <= set(entry["MimeType"].split(";"))
    assert "podcast" in entry["Keywords"].split(";")
    assert entry["Icon"] == APP_ICON_NAME and entry["Exec"] == "earmark %U"


def test_metainfo_agrees_with_the_entry_and_its_screenshots_exist() -> None:
    root = ElementTree.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ICON_NAME
    assert root.findtext("launchable") == ENTRY.name
    images = [image.text or "" for image in root.iter("image")]
    assert images
    for url in images:
        assert (ROOT / "docs" / "screenshots" / url.rsplit("/", 1)[-1]).is_file(), url
    from earmark import __version__

    assert root.find("releases/release").get("version") == __version__  # type: ignore[union-attr]


@pytest.mark.parametrize("size", SIZES)
def test_every_icon_size_is_there(size: int) -> None:
    image = QImage(str(ICONS / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ICON_NAME}.png"))
    assert (image.width(), image.height()) == (size, size)
    assert image.hasAlphaChannel()


def test_the_scalable_icon_is_an_svg() -> None:
    root = ElementTree.parse(ICONS / "earmark.svg").getroot()
    assert root.tag.endswith("svg") and root.get("viewBox") == "0 0 128 128"


def fake_earmark(tmp_path: Path) -> Path:
    fake_bin = tmp_path / "my apps" / "earmark"
    fake_bin.parent.mkdir()
    fake_bin.write_text("#!/bin/sh\n")
    fake_bin.chmod(0o755)
    return fake_bin


def run_script(name: str, env: dict[str, str], *args: str) -> str:
    result = subprocess.run([str(PACKAGING / name), *args], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def default_app(env: dict[str, str], mime_type: str) -> str:
    result = subprocess.run([tool("xdg-mime", "xdg-utils"), "query", "default", mime_type], capture_output=True,
                            text=True, env=env, timeout=60)
    return result.stdout.strip()


def tree(folder: Path) -> dict[str, str]:
    """Every folder and file under ``folder`` with the file's text (folders: "")."""
    return {str(p.relative_to(folder)): p.read_text() if p.is_file() else "" for p in sorted(folder.rglob("*"))}


def test_install_keeps_the_users_default_app_and_uninstall_gives_the_desktop_back(tmp_path: Path) -> None:
    env = desktop_env(tmp_path)
    home, apps = Path(env["HOME"]), Path(env["XDG_DATA_HOME"]) / "applications"
    apps.mkdir(parents=True)
    (apps / "my-reader.desktop").write_text("[Desktop Entry]\nType=Application\nName=My Reader\nExec=true %f\n"
                                            "MimeType=text/x-opml+xml;\n")
    subprocess.run([tool("xdg-mime", "xdg-utils"), "default", "my-reader.desktop", "text/x-opml+xml"], env=env,
                   check=True, timeout=60)
    with (Path(env["XDG_CONFIG_HOME"]) / "mimeapps.list").open("a") as mimeapps:
        mimeapps.write("# my own line\n[Added Associations]\ntext/plain=my-reader.desktop;\n")
    before = tree(home)

    said = run_script("install", env, str(fake_earmark(tmp_path)))
    assert default_app(env, "text/x-opml+xml") == "my-reader.desktop"
    assert "default app for text/x-opml+xml (my-reader.desktop) stays" in said
    assert default_app(env, "x-scheme-handler/podcast") == ENTRY.name  # nobody had podcast: links
    assert default_app(env, "x-scheme-handler/feed") == ENTRY.name

    run_script("uninstall", env)
    assert default_app(env, "text/x-opml+xml") == "my-reader.desktop"
    assert default_app(env, "x-scheme-handler/podcast") == ""
    assert tree(home) == before  # the same folders and files, mimeapps.list line for line


def test_uninstall_after_install_on_a_new_account_leaves_nothing(tmp_path: Path) -> None:
    env = desktop_env(tmp_path)
    home = Path(env["HOME"])
    home.mkdir()
    earmark = str(fake_earmark(tmp_path))
    run_script("install", env, earmark)
    assert default_app(env, "text/x-opml+xml") == ENTRY.name  # there was no default: Earmark becomes it
    assert "[Default Applications]" in (Path(env["XDG_CONFIG_HOME"]) / "mimeapps.list").read_text()
    run_script("install", env, earmark)  # again (an update): the first install's folders are still undone
    run_script("uninstall", env)
    assert tree(home) == {}  # no empty folders, no mimeapps.list with empty sections


def test_uninstall_keeps_the_users_folders_and_other_defaults(tmp_path: Path) -> None:
    env = desktop_env(tmp_path)
    home = Path(env["HOME"])
    icons = Path(env["XDG_DATA_HOME"]) / "icons" / "hicolor" / "48x48" / "apps"
    icons.mkdir(parents=True)
    (icons / "someone-else.png").write_bytes(b"png")
    config = Path(env["XDG_CONFIG_HOME"])
    config.mkdir(parents=True)
    (config / "mimeapps.list").write_text("[Default Applications]\nx-scheme-handler/feed=feeds.desktop\n")
    before = tree(home)
    run_script("install", env, str(fake_earmark(tmp_path)))
    mimeapps = (config / "mimeapps.list").read_text()
    assert "x-scheme-handler/feed=feeds.desktop" in mimeapps and f"x-scheme-handler/podcast={ENTRY.name}" in mimeapps
    run_script("uninstall", env)
    assert tree(home) == before


def test_install_and_uninstall_for_the_current_user(tmp_path: Path) -> None:
    env = desktop_env(tmp_path)
    home = Path(env["HOME"])
    fake_bin = fake_earmark(tmp_path)
    result = subprocess.run([str(PACKAGING / "install"), str(fake_bin)], capture_output=True, text=True, env=env,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    data = home / "data"
    installed = data / "applications" / ENTRY.name
    entry = desktop_entry(installed)
    assert entry["Exec"] == f'"{fake_bin}" %U' and entry["TryExec"] == str(fake_bin)
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ICON_NAME}.svg").is_file()
    assert all((data / "icons" / "hicolor" / f"{s}x{s}" / "apps" / f"{APP_ICON_NAME}.png").is_file() for s in SIZES)
    assert (data / "metainfo" / METAINFO.name).is_file()
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(installed)], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout
    mimeapps = home / "config" / "mimeapps.list"
    if shutil.which("xdg-mime"):
        assert f"x-scheme-handler/podcast={ENTRY.name}" in mimeapps.read_text()
        assert f"x-scheme-handler/earmark={ENTRY.name}" in mimeapps.read_text()  # the exported notes' links

    result = subprocess.run([str(PACKAGING / "uninstall")], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    left = [p for p in data.rglob("*") if p.is_file() and APP_ICON_NAME in p.name]
    assert left == []
    if mimeapps.exists():
        assert ENTRY.name not in mimeapps.read_text()


def test_install_refuses_without_an_earmark(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    result = subprocess.run([str(PACKAGING / "install"), str(tmp_path / "nothing")], capture_output=True,
                            text=True, env=env, timeout=60)
    assert result.returncode == 1 and "no earmark executable" in result.stderr
    assert not (tmp_path / "data").exists()
