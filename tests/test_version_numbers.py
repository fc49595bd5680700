"""`vcfg.catalog.versions.parse_version` reads a bundled release's number without
compiling the PEP 440 pattern, and gives what the pattern gives."""

from __future__ import annotations

import pytest

from vcfg.catalog.releases import BUNDLED_RELEASES


def test_a_bundled_release_number_reads_the_same_without_the_version_pattern() -> None:
    """`parse_version` reads plain and ``.postN`` releases without compiling the PEP 440
    pattern (a cold lint dates removals against every bundled release): the same
    `Version` the pattern gives."""
    from vcfg.catalog import versions

    texts = [*BUNDLED_RELEASES, "0.8.5.post1", "1.post0", "0.10.1.1", "0.33.0"]
    assert any(".post" in t for t in BUNDLED_RELEASES)
    for t in texts:
        fast, full = versions.parse_version(t), versions._pep440(t)
        assert (fast, fast.release, fast.pre, fast.post, fast.dev, fast.text) == (
            full,
            full.release,
            full.pre,
            full.post,
            full.dev,
            full.text,
        ), t
    for odd in ("0.8.5.post", "0.8.5.postx", "post1", "0.8.5.dev1", "0.8.5rc1", "0.8.5.post1.post2"):
        try:
            full = versions._pep440(odd)
        except Exception as e:  # noqa: BLE001 - both refuse it alike
            with pytest.raises(type(e)):
                versions.parse_version(odd)
        else:
            assert versions.parse_version(odd) == full, odd
