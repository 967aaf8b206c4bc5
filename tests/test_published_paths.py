"""Pages never publish the build machine's paths: a symlinked card file, a --jwks FILE given absolute."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from a2a_docgen.load import discover
from a2a_docgen.signing.keys import load_jwks, published_path

ES256_JWK = {
    "kty": "EC",
    "crv": "P-256",
    "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
    "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    "kid": "k1",
}


def test_a_jwks_file_outside_the_project_is_named_by_its_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = tmp_path / "secret-home" / "jwks.json"
    keys.parent.mkdir()
    keys.write_text(json.dumps({"keys": [ES256_JWK]}), encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    (key,) = load_jwks(str(keys))
    assert key.source == "jwks.json"
    assert str(tmp_path) not in key.source
    inside = project / "keys" / "jwks.json"
    inside.parent.mkdir()
    inside.write_text(keys.read_text(encoding="utf-8"), encoding="utf-8")
    assert load_jwks(str(inside))[0].source == "keys/jwks.json"
    assert published_path("keys/jwks.json") == "keys/jwks.json"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_symlinked_card_outside_the_tree_does_not_name_its_target(tmp_path: Path) -> None:
    outside = tmp_path / "machine" / "private.json"
    outside.parent.mkdir()
    outside.write_text("{}", encoding="utf-8")
    cards = tmp_path / "cards"
    cards.mkdir()
    try:
        (cards / "link.json").symlink_to(outside)
    except OSError:  # pragma: no cover
        pytest.skip("symbolic links cannot be made here")
    (found,) = discover([str(cards)])
    assert found.problem is not None
    assert "symbolic link" in found.problem
    assert str(outside.parent) not in found.problem
