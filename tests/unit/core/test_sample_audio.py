"""Every clip of the shipped sample library decodes in libVLC with a plausible length."""

from __future__ import annotations

import vlc

from earmark.core.sample import read_sample


def test_every_sample_episode_has_a_clip_that_vlc_can_decode() -> None:
    sample = read_sample()
    instance = vlc.Instance(["--aout=dummy", "--no-video", "--quiet"])
    try:
        lengths = {}
        for entry in sample.feed.entries:
            assert entry.enclosure_url is not None, entry.title
            media = instance.media_new(entry.enclosure_url)
            media.parse()  # synchronous
            lengths[entry.title] = media.get_duration() / 1000
            media.release()
    finally:
        instance.release()
    assert len(lengths) == 51
    too_short = {title: seconds for title, seconds in lengths.items() if not 3 <= seconds <= 30}
    assert not too_short
