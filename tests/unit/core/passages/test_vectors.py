"""Comparing a question's signs with every passage's: the columns' layout gives the same agreement as counting the
bits one by one."""

from __future__ import annotations

import numpy as np
import pytest

from earmark.core.passages.vectors import agreement, columns, to_bits


@pytest.mark.parametrize("dimensions", [384, 40])  # 48 bytes (six 64-bit words) and 5 (bytes)
def test_agreement_is_the_share_of_signs_that_agree(dimensions: int) -> None:
    rng = np.random.default_rng(7)
    rows, query = rng.standard_normal((500, dimensions)), rng.standard_normal(dimensions)
    near = agreement(query, columns(to_bits(rows)))
    expected = ((rows > 0) == (query > 0)).mean(axis=1)
    assert np.allclose(near, expected)
    assert int(np.argmax(near)) == int(np.argmax(expected))

