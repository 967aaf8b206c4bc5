"""Pages never publish the build machine's paths: a symlinked card file, a --jwks FILE given absolute."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from a2a_docgen.cli import main
from a2a_docgen.load import discover
from a2a_docgen.signing.keys import load_jwks, published_path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "cards"
ES256_JWK = {
    "kty": "EC",
    "crv": "P-256",
    "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
    "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    "kid": "k1",
}


def test_a_jwks_file_is_named_by_its_file_name_from_anywhere_and_however_spelt(
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
    spellings = [str(inside), "keys/jwks.json", "./keys/jwks.json", "keys/../keys/jwks.json"]
    assert {load_jwks(spelling)[0].source for spelling in spellings} == {"jwks.json"}
    monkeypatch.chdir(inside.parent)
    assert load_jwks("jwks.json")[0].source == "jwks.json", "the same from any working directory"
    assert published_path("../keys/jwks.json") == "jwks.json"


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


def _published(out: Path) -> dict[str, bytes]:
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in out.rglob("*") if path.is_file()}


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_build_publishes_the_same_site_from_an_absolute_or_a_relative_cards_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cards that load, and files that do not (a symbolic link out of the tree, broken JSON, a file in a
    subdirectory): nothing published names the directory as typed, the working directory or the link's target,
    and both spellings of the directory give the same bytes."""
    cards = tmp_path / "cards"
    (cards / "sub").mkdir(parents=True)
    for example in (EXAMPLES / "unit-converter.json", EXAMPLES / "support-desk-triage.json"):
        (cards / example.name).write_bytes(example.read_bytes())
    (cards / "broken.json").write_text("{", encoding="utf-8")
    (cards / "sub" / "nameless.json").write_text("{}", encoding="utf-8")
    outside = tmp_path / "outside.json"
    outside.write_text("{}", encoding="utf-8")
    try:
        (cards / "link.json").symlink_to(outside)
    except OSError:  # pragma: no cover
        pytest.skip("symbolic links cannot be made here")
    monkeypatch.chdir(tmp_path)
    sites: dict[str, dict[str, bytes]] = {}
    for spelling in (str(cards), "cards"):
        out = tmp_path / f"site-{len(sites)}"
        assert main(["build", spelling, "-o", str(out), "--no-history", "-q"]) == 0
        sites[spelling] = _published(out)
    absolute, relative = sites.values()
    assert absolute == relative
    excluded = absolute["excluded.md"].decode("utf-8")
    for name in ("broken.json", "sub/nameless.json", "link.json"):
        assert f"\n## {name}\n" in excluded
    assert "outside the scanned directory;" in excluded
    for path, data in absolute.items():
        assert str(tmp_path).encode() not in data, path
        assert tmp_path.name.encode() not in data, path
