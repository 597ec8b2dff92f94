"""Every file of the shared corpora, as it is and with deterministic random mutations, through every parser that
reads its kind of data: a result that passes the parser's checks or its own clear error, in bounded time."""

from __future__ import annotations

import pytest

from helpers.fuzz import SCALE, honour, mutate, seeded_rng
from helpers.parsers import PARSERS

MUTATIONS_PER_FILE = 4  # times EARMARK_FUZZ_SCALE
WITH_CORPORA = [name for name, parser in PARSERS.items() if parser.corpora]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", WITH_CORPORA)
def test_every_corpus_file_and_its_mutations_honour_the_contract(name: str) -> None:
    parser = PARSERS[name]
    files = parser.seed_files()
    if not files:
        pytest.skip("the shared fixtures are missing")
    seeds = parser.seed_data()
    tried = 0
    for path, seed in zip(files, seeds, strict=False):
        rng = seeded_rng(name, path.name)
        for data in [seed] + [mutate(seed, rng, seeds) for _ in range(MUTATIONS_PER_FILE * SCALE)]:
            honour(parser, data)
            tried += 1
    assert tried == len(files) * (1 + MUTATIONS_PER_FILE * SCALE)
