"""Downloads against podcast hosting as it really fails (tests/helpers/fault_server.py): tracking redirects,
error pages, redirect loops and non-web redirects, 4xx that retrying cannot fix, stalls that must keep every
byte that arrived, servers that ignore Range."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.downloads.transfer import Expected, download, part_path
from earmark.core.errors import UnreachableError
from helpers.audio import write_tone
from helpers.fault_server import PodcastHost

NO_WAIT = (0.0,)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[PodcastHost]:
    with PodcastHost(tmp_path) as running:
        yield running


@pytest.fixture(scope="module")
def audio(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """Ten seconds of WAV (160 KB)."""
    return write_tone(tmp_path_factory.mktemp("audio") / "ep.wav", 10.0).read_bytes()


def test_a_tracking_redirect_chain_downloads(host: PodcastHost, audio: bytes, tmp_path: Path) -> None:
    host.episode("/cdn/ep.wav", audio)
    url = host.tracking_chain("/track/ep.wav", "/cdn/ep.wav")
    result = download(url, tmp_path / "ep.wav", retries=0)
    assert result.path.read_bytes() == audio
    assert len(host.requests_for("/track/ep.wav")) == 1 and len(host.requests_for("/cdn/ep.wav")) == 1


def test_an_error_page_is_not_saved_as_the_episode(host: PodcastHost, tmp_path: Path) -> None:
    url = host.error_page("/ep.mp3")
    target = tmp_path / "Ep html.mp3"
    with pytest.raises(UnreachableError) as failed:
        download(url, target, retries=3, delays=NO_WAIT, name="Ep html")
    assert str(failed.value) == "“Ep html” could not be downloaded: the server sent a web page instead of the audio."
    assert not target.exists() and not part_path(target).exists()
    assert len(host.requests_for("/ep.mp3")) == 1  # a page in place of the audio does not go away by asking again


def test_a_text_answer_labelled_audio_is_refused_too(host: PodcastHost, tmp_path: Path) -> None:
    url = host.episode("/ep.mp3", b"<html><body>Bandwidth limit exceeded</body></html>", content_type="audio/mpeg")
    with pytest.raises(UnreachableError, match="sent a web page instead of the audio"):
        download(url, tmp_path / "ep.mp3", retries=0)


def test_audio_with_a_generic_type_is_accepted(host: PodcastHost, audio: bytes, tmp_path: Path) -> None:
    url = host.episode("/ep.wav", audio, content_type="application/octet-stream")
    assert download(url, tmp_path / "ep.wav", retries=0).path.read_bytes() == audio


def test_a_redirect_loop_stops_at_once_without_retrying(host: PodcastHost, tmp_path: Path) -> None:
    url = host.redirect_loop("/loop.mp3")
    started = time.monotonic()
    with pytest.raises(UnreachableError) as failed:
        download(url, tmp_path / "loop.mp3", retries=3, name="Loop")
    assert str(failed.value) == "“Loop” could not be downloaded: the server's redirects go round in a loop."
    requests = len(host.requests_for("/loop.mp3")) + len(host.requests_for("/loop.mp3/again"))
    assert requests <= 3 and time.monotonic() - started < 5.0


def test_more_than_ten_redirects_are_not_followed(host: PodcastHost, audio: bytes, tmp_path: Path) -> None:
    host.episode("/end.wav", audio)
    url = host.tracking_chain("/long", "/end.wav", [302] * 12)
    with pytest.raises(UnreachableError, match="redirected it more than 10 times"):
        download(url, tmp_path / "x.wav", retries=2, delays=NO_WAIT)
    assert host.requests_for("/end.wav") == [] and len(host.requests_for("/long")) == 1


@pytest.mark.parametrize(("status", "words"), [(404, "the server has no such file (404"),
                                               (410, "the server has no such file (410"),
                                               (403, "the server refused access (403"),
                                               (401, "the server refused access (401")])
def test_a_client_error_is_not_retried(host: PodcastHost, tmp_path: Path, status: int, words: str) -> None:
    url = host.status("/ep.mp3", status)
    started = time.monotonic()
    with pytest.raises(UnreachableError, match=words.replace("(", r"\(")):
        download(url, tmp_path / "ep.mp3", retries=3)  # the real delays: a retry would take a second or more
    assert len(host.requests_for("/ep.mp3")) == 1 and time.monotonic() - started < 1.0


@pytest.mark.parametrize("status", [408, 429, 500, 503])
def test_timeouts_rate_limits_and_server_errors_are_retried(host: PodcastHost, audio: bytes, tmp_path: Path,
                                                            status: int) -> None:
    url = host.episode("/ep.wav", audio, fail_first=(status, status))
    assert download(url, tmp_path / "ep.wav", retries=3, delays=NO_WAIT).path.read_bytes() == audio
    assert len(host.requests_for("/ep.wav")) == 3


def test_a_server_error_that_lasts_is_a_sentence_after_the_retries(host: PodcastHost, tmp_path: Path) -> None:
    url = host.status("/ep.mp3", 500)
    with pytest.raises(UnreachableError) as failed:
        download(url, tmp_path / "ep.mp3", retries=2, delays=NO_WAIT, name="Ep")
    assert str(failed.value) == ("“Ep” could not be downloaded: the server had an error (500 Internal Server Error) "
                                 "3 times; try again later.")


def test_a_stall_keeps_every_byte_that_arrived_and_resumes_there(host: PodcastHost, audio: bytes,
                                                                 tmp_path: Path) -> None:
    url = host.episode("/ep.wav", audio, stall_at=48_044, cut_times=None)
    target = tmp_path / "ep.wav"
    with pytest.raises(UnreachableError, match="nothing arrived for 0.5 s"):
        download(url, target, retries=0, timeout=0.5)
    assert part_path(target).read_bytes() == audio[:48_044]  # not a multiple of any block size
    host.episode("/ep.wav", audio)  # the server recovers
    assert download(url, target, retries=0).path.read_bytes() == audio
    assert host.requests_for("/ep.wav")[-1].header("Range") == "bytes=48044-"


def test_a_server_without_range_support_never_shrinks_the_partial_file(host: PodcastHost, audio: bytes,
                                                                       tmp_path: Path) -> None:
    url = host.episode("/ep.wav", audio, ranges=False, stall_at=60_000)
    target = tmp_path / "ep.wav"
    sizes: list[int] = []
    with pytest.raises(UnreachableError):
        download(url, target, retries=2, delays=NO_WAIT, timeout=0.5,
                 progress=lambda _received, _total: sizes.append(part_path(target).stat().st_size))
    assert part_path(target).read_bytes() == audio[:60_000]
    assert sizes == sorted(sizes)  # the whole file sent again from byte 0 was skipped, not rewritten
    host.episode("/ep.wav", audio, ranges=False)
    assert download(url, target, retries=0).path.read_bytes() == audio


def test_a_cut_connection_resumes_with_range(host: PodcastHost, audio: bytes, tmp_path: Path) -> None:
    url = host.episode("/ep.wav", audio, cut_at=96_088, cut_times=1)
    assert download(url, tmp_path / "ep.wav", retries=1, delays=NO_WAIT).path.read_bytes() == audio
    assert [r.header("Range") for r in host.requests_for("/ep.wav")] == [None, "bytes=96088-"]


def test_a_refused_connection_is_a_sentence(host: PodcastHost, tmp_path: Path) -> None:
    with pytest.raises(UnreachableError) as failed:
        download(host.refused(), tmp_path / "ep.wav", retries=1, delays=NO_WAIT, name="Ep")
    assert str(failed.value) == "“Ep” could not be downloaded: the server could not be reached (connection refused)."


@pytest.fixture
def ftp_listener() -> Iterator[tuple[int, list[bool]]]:
    """A TCP port standing in for an FTP server: records whether anything connected to it."""
    connected: list[bool] = []
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.1)
        stop = threading.Event()

        def accept() -> None:
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    continue
                connected.append(True)
                conn.close()

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        yield listener.getsockname()[1], connected
        stop.set()
        thread.join()


def test_redirects_follow_http_and_https_only(host: PodcastHost, tmp_path: Path,
                                              ftp_listener: tuple[int, list[bool]]) -> None:
    port, connected = ftp_listener
    url = host.redirect("/ep.mp3", f"ftp://127.0.0.1:{port}/ep.mp3")
    with pytest.raises(UnreachableError) as failed:
        download(url, tmp_path / "ep.mp3", retries=2, delays=NO_WAIT, name="Ep")
    assert str(failed.value) == (f"“Ep” could not be downloaded: the server redirects it to ftp://127.0.0.1:{port}/"
                                 "ep.mp3, which is not a web address (Earmark follows http and https only).")
    assert connected == [] and len(host.requests_for("/ep.mp3")) == 1


def test_a_body_far_smaller_than_the_feeds_length_is_refused(host: PodcastHost, audio: bytes, tmp_path: Path) -> None:
    url = host.episode("/stub.wav", audio[:16_000])  # a complete answer (its Content-Length says so): a stub
    target = tmp_path / "Stub.wav"
    with pytest.raises(UnreachableError) as failed:
        download(url, target, retries=3, delays=NO_WAIT, name="Stub", expected=Expected("audio/wav", len(audio) * 20))
    assert str(failed.value) == ("“Stub” could not be downloaded: the server sent 16 KB, far less than the 3.2 MB "
                                 "the feed announces (a cut-off file or a stand-in, not the episode).")
    assert not target.exists() and not part_path(target).exists()  # a later try starts over
    assert len(host.requests_for("/stub.wav")) == 1


@pytest.mark.parametrize("announced", [None, 1, 0, 10 * 160_044, 160_044 // 2])
def test_a_body_near_the_feeds_length_or_without_one_is_kept(host: PodcastHost, audio: bytes, tmp_path: Path,
                                                            announced: int | None) -> None:
    # Lengths in feeds are approximate (another bitrate, inserted ads) or placeholders: only "far smaller" counts.
    url = host.episode("/ep.wav", audio)
    assert len(audio) == 160_044
    expected = Expected("audio/wav", announced)
    assert download(url, tmp_path / "ep.wav", retries=0, expected=expected).path.read_bytes() == audio
