"""Mutation fuzzing with hypothesis for every parser of outside data: seeds from the corpora (or generated),
edited by flips, truncations, deletions, duplications, hostile tokens and splices; failures shrink."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.fuzz import honour, mutated, scaled
from helpers.parsers import PARSERS


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", list(PARSERS))
def test_mutated_inputs_honour_the_contract(name: str) -> None:
    parser = PARSERS[name]
    seeds = parser.seed_data()
    if not seeds:
        pytest.skip("the shared fixtures are missing")

    @settings(max_examples=scaled(parser.examples))
    @given(mutated(seeds))
    def run(data: bytes) -> None:
        honour(parser, data)

    run()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", list(PARSERS))
def test_arbitrary_bytes_honour_the_contract(name: str) -> None:
    parser = PARSERS[name]

    @settings(max_examples=scaled(max(20, parser.examples // 3)))
    @given(st.binary(max_size=2048))
    def run(data: bytes) -> None:
        honour(parser, data)

    run()
