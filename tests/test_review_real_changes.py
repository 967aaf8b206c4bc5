"""What real card changes showed of the review (round three): 35 consecutive versions of real cards from public
git histories (``../shared/cards/history-pairs``). Each shape has a reproducer written here; the pairs themselves
are judged at the end, with the judgement of each written down beside it.
"""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.cli import main
from a2a_docgen.history.read import read_history
from tests.support.history_repo import CardRepo

Card = dict[str, Any]

PAIRS = Path(__file__).resolve().parents[1].parent / "shared" / "cards" / "history-pairs"


@pytest.fixture(autouse=True)
def _no_github_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA", "GITHUB_WORKSPACE", "GITHUB_RUN_ID"):
        monkeypatch.delenv(name, raising=False)


def booking_card() -> Card:
    """A v0.3 card as the samples write them: streaming and push notifications, an extension with params."""
    return {
        "name": "Hotel Booking Agent",
        "description": "Books hotel rooms.",
        "url": "https://hotels.example.com/a2a",
        "protocolVersion": "0.3.0",
        "version": "1.0.0",
        "capabilities": {
            "streaming": True,
            "pushNotifications": True,
            "extensions": [
                {
                    "uri": "https://ext.example.com/commerce/v1",
                    "description": "Payments and receipts.",
                    "params": {"currency": "EUR", "receiptUrl": "https://hotels.example.com/r/{id}"},
                }
            ],
        },
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {
                "id": "book",
                "name": "Book a room",
                "description": "Books a room.",
                "tags": ["booking"],
            },
            {
                "id": "cancel",
                "name": "Cancel a booking",
                "description": "Cancels a booking.",
                "tags": ["booking"],
            },
        ],
    }


def write(path: Path, card: Card | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(card if isinstance(card, str) else json.dumps(card, indent=2), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str]:
    code = main(["diff", *map(str, argv)])
    out, _ = capsys.readouterr()
    return code, out


def review(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, base: Card | None, head: Card | str, *argv: str
) -> tuple[int, list[dict[str, Any]]]:
    (tmp_path / "base").mkdir(exist_ok=True)
    if base is not None:
        write(tmp_path / "base" / "agent.json", base)
    write(tmp_path / "head" / "agent.json", head)
    code, out = run(
        capsys,
        tmp_path / "base",
        tmp_path / "head",
        "--format",
        "json",
        "--no-config",
        "--allow-empty-base",
        *argv,
    )
    changes: list[dict[str, Any]] = json.loads(out)["changes"]
    return code, changes


def found(changes: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(c["code"], c["severity"]) for c in changes if not c["policy"]}


def contract(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The changes without the version policy's findings."""
    return [c for c in changes if not c["policy"]]


# -- a value that becomes an error is the error, not a change of what the server does ------------------------


def test_a_boolean_become_a_string_is_the_error_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = booking_card()
    head["capabilities"]["streaming"] = "True"  # an SDK's bug: the server still streams
    _, changes = review(capsys, tmp_path, booking_card(), head)
    assert found(changes) == {("card-error-added", "breaking")}
    assert len(changes) == 1
    assert '"streaming" must be a boolean' in changes[0]["message"]


def test_the_error_fixed_is_card_error_fixed_not_a_new_capability(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = booking_card()
    base["capabilities"]["streaming"] = "True"
    base["capabilities"]["pushNotifications"] = "True"
    _, changes = review(capsys, tmp_path, base, booking_card())
    assert found(changes) == {("card-error-fixed", "non-breaking")}
    assert len(changes) == 2
    assert all(c["message"].startswith("card error fixed: ") for c in changes)
    assert not any("now supported" in c["message"] for c in changes)


def test_a_real_change_of_a_capability_is_still_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = booking_card()
    head["capabilities"]["streaming"] = False
    head["capabilities"]["pushNotifications"] = None  # null reads as absent: no error hides the change
    _, changes = review(capsys, tmp_path, booking_card(), head)
    assert found(changes) == {("capability-disabled", "breaking")}
    assert len(contract(changes)) == 2


@pytest.mark.skipif(
    subprocess.run(["git", "--version"], capture_output=True, check=False).returncode != 0,
    reason="git is not installed",
)
def test_the_history_says_card_error_fixed(tmp_path: Path) -> None:
    repo = CardRepo(tmp_path / "repo")
    card = booking_card()
    card["capabilities"]["streaming"] = "True"
    repo.write("hotels.json", card)
    repo.commit("Hotels")
    repo.write("hotels.json", booking_card())
    repo.commit("Write the booleans as booleans")
    card = copy.deepcopy(booking_card())
    card["capabilities"]["pushNotifications"] = "True"
    repo.write("hotels.json", card)
    repo.commit("Upgrade the SDK")
    read = read_history(["cards"], base=str(repo.root))
    assert read.history is not None, read.message
    agent = read.history.of("hotels.json")
    assert agent is not None
    broke, fixed = agent.entries[0], agent.entries[1]
    assert [(f.code, f.severity) for f in fixed.findings] == [("card-error-fixed", "non-breaking")]
    assert fixed.findings[0].message.startswith("card error fixed: ")
    assert [(f.code, f.severity) for f in broke.findings] == [("card-error-added", "breaking")]


# -- extension parameters are what clients that activate the extension read ----------------------------------


def _with_params(params: dict[str, Any] | None, description: str = "Payments and receipts.") -> Card:
    card = booking_card()
    extension = card["capabilities"]["extensions"][0]
    extension["description"] = description
    if params is None:
        del extension["params"]
    else:
        extension["params"] = params
    return card


_PARAMS = {"currency": "EUR", "receiptUrl": "https://hotels.example.com/r/{id}"}


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        pytest.param(
            _with_params({"currency": "EUR", "receiptUrlTemplate": "https://hotels.example.com/r/{id}"}),
            {("extension-params-changed", "breaking")},
            id="renamed",
        ),
        pytest.param(
            _with_params({"currency": "EUR"}), {("extension-params-changed", "breaking")}, id="removed"
        ),
        pytest.param(
            _with_params({**_PARAMS, "currency": "USD"}),
            {("extension-params-changed", "breaking")},
            id="value",
        ),
        pytest.param(
            _with_params({**_PARAMS, "refunds": True}),
            {("extension-params-added", "non-breaking")},
            id="added",
        ),
        pytest.param(
            _with_params(_PARAMS, "Payments, receipts and refunds."),
            {("extension-changed", "info")},
            id="described",
        ),
    ],
)
def test_extension_parameters(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, head: Card, expected: set[tuple[str, str]]
) -> None:
    _, changes = review(capsys, tmp_path, booking_card(), head)
    assert found(changes) == expected
    assert len(contract(changes)) == 1


def test_a_renamed_parameter_is_named_with_its_new_name_and_its_severity_is_configurable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = _with_params({"currency": "EUR", "receiptUrlTemplate": "https://hotels.example.com/r/{id}"})
    code, changes = review(capsys, tmp_path, booking_card(), head)
    assert code == 1
    assert '"receiptUrl" removed (new: "receiptUrlTemplate")' in changes[0]["message"]
    config = write(tmp_path / "review.toml", '[diff.severity]\n"extension-params-changed" = "info"\n')
    code, out = run(capsys, tmp_path / "base", tmp_path / "head", "--format", "json", "--config", config)
    assert code == 0
    assert found(json.loads(out)["changes"]) == {("extension-params-changed", "info")}


# -- a new agent has no clients to break --------------------------------------------------------------------


def test_the_errors_of_a_new_agent_are_errors_of_a_new_card(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = booking_card()
    for skill in head["skills"]:
        skill["examples"] = "Book a room in Lisbon"  # a string, not an array: one error per skill
    code, changes = review(capsys, tmp_path, None, head)
    assert code == 0
    assert found(changes) == {("agent-added", "non-breaking"), ("new-card-error", "non-breaking")}
    assert sum(c["code"] == "new-card-error" for c in changes) == 2
    assert not any(c["severity"] == "breaking" for c in changes)
    code, _ = review(capsys, tmp_path, None, head, "--fail-on", "non-breaking")
    assert code == 1  # where the team asks for it, the review still fails


# -- the pull-request comment --------------------------------------------------------------------------------


def test_the_comment_links_nothing_that_the_merge_removes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = booking_card()
    head["skills"].pop()  # "cancel" is gone
    head["skills"][0]["description"] = "Books a room, with breakfast."
    write(tmp_path / "base" / "agent.json", booking_card())
    write(
        tmp_path / "base" / "gone.json", {**booking_card(), "name": "Fax Agent", "url": "https://fax.example"}
    )
    write(tmp_path / "head" / "agent.json", head)
    site = "https://cards.example.com"
    _, out = run(
        capsys,
        tmp_path / "base",
        tmp_path / "head",
        "--format",
        "markdown",
        "--no-config",
        "--site-url",
        site,
    )
    rows = {line.split(" | ")[1]: line for line in out.splitlines() if line.startswith("| ")}
    assert rows["cancel"].startswith(
        "| [Hotel Booking Agent](https://cards.example.com/agents/"
    )  # the page stays
    assert rows["(agent)"].startswith("| Fax Agent |")  # its page goes with the merge
    assert "#skill-cancel" not in out
    assert f"[book]({site}/agents/hotel-booking-agent/#skill-book)" in out  # a kept skill keeps its link


def test_a_broken_head_file_is_not_said_to_be_outside_the_review(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    write(tmp_path / "base" / "agent.json", booking_card())
    write(tmp_path / "head" / "agent.json", '{"name": "Hotel Booking Agent",')
    _, out = run(capsys, tmp_path / "base", tmp_path / "head", "--format", "markdown", "--no-config")
    assert "card-unreadable" in out
    assert "not part of the review" not in out
    assert "Each is reviewed as `card-unreadable`" in out


# -- the real pairs, judged by the specification -------------------------------------------------------------

# Each pair's findings (code, severity), without the version policy, and why that is what the change means
# for a client by the specification (section numbers of the A2A specification's Agent Card).
JUDGEMENT: dict[str, tuple[set[tuple[str, str]], str]] = {
    "01-a2a-mcp-air-ticketing-1": (
        set(),
        'null authentication becomes the "public" scheme: still no credentials (the same errors on both sides)',
    ),
    "02-a2a-mcp-air-ticketing-2": (
        {("card-error-fixed", "non-breaking")},
        '"True" strings become booleans: the errors are fixed, nothing the server does changed',
    ),
    "03-a2a-mcp-air-ticketing-3": (set(), "null members removed: null reads as absent, nothing changes"),
    "04-a2a-mcp-car-rental-1": (set(), "as 01"),
    "05-a2a-mcp-car-rental-2": ({("card-error-fixed", "non-breaking")}, "as 02"),
    "06-a2a-mcp-car-rental-3": (set(), "as 03"),
    "07-a2a-mcp-orchestrator-1": (set(), "as 01"),
    "08-a2a-mcp-orchestrator-2": ({("card-error-fixed", "non-breaking")}, "as 02"),
    "09-a2a-mcp-orchestrator-3": (set(), "as 03"),
    "10-a2a-mcp-planner-1": (set(), "as 01"),
    "11-a2a-mcp-planner-2": ({("card-error-fixed", "non-breaking")}, "as 02"),
    "12-a2a-mcp-planner-3": (set(), "as 03"),
    "13-a2a-mcp-hotel-booking-1": (set(), "as 01"),
    "14-a2a-mcp-hotel-booking-2": ({("card-error-fixed", "non-breaking")}, "as 02"),
    "15-a2a-mcp-hotel-booking-3": (set(), "as 03"),
    "16-a2a-mcp-hotel-booking-4": (
        {("card-error-added", "breaking"), ("skill-id-changed", "breaking"), ("tags-changed", "info")},
        'booleans become "True" strings (two new errors, the server unchanged) and a skill id is corrected: '
        "clients call skills by id, so the old id fails",
    ),
    "17-a2a-mcp-hotel-booking-5": ({("card-error-fixed", "non-breaking")}, "as 02"),
    "18-adk-facts-1": (set(), "reformatted only"),
    "19-adk-skills-1": (
        {("interface-added", "non-breaking")},
        "a second interface (JSONRPC, 0.3) is served besides the first: new clients can use it",
    ),
    "20-commerce-profile-1": (
        {("extension-params-changed", "breaking")},
        "an extension parameter renamed: clients that activate the extension read the old name",
    ),
    "21-registry-research-agent-1": (
        {("documentation-url-changed", "info"), ("provider-changed", "info")},
        "links to documentation and the provider moved: nothing a client sends changes",
    ),
    "22-registry-research-agent-2": (set(), "a registry-only member (wellKnownURI) changed: no A2A member"),
    "23-registry-research-agent-3": (
        {("protocol-binding-dropped", "breaking")},
        'preferredTransport "REST" (HTTP+JSON) becomes JSONRPC at the same URL: REST clients fail',
    ),
    "24-registry-planning-agent-1": (
        {("documentation-url-changed", "info"), ("provider-changed", "info")},
        "as 21",
    ),
    "25-registry-planning-agent-2": (set(), "as 22"),
    "26-registry-planning-agent-3": ({("protocol-binding-dropped", "breaking")}, "as 23"),
    "27-registry-data-agent-1": (
        {("documentation-url-changed", "info"), ("provider-changed", "info")},
        "as 21",
    ),
    "28-registry-data-agent-2": (set(), "as 22"),
    "29-registry-data-agent-3": ({("protocol-binding-dropped", "breaking")}, "as 23"),
    "30-registry-code-agent-1": (
        {("documentation-url-changed", "info"), ("provider-changed", "info")},
        "as 21",
    ),
    "31-registry-code-agent-2": (set(), "as 22"),
    "32-registry-code-agent-3": ({("protocol-binding-dropped", "breaking")}, "as 23"),
    "33-registry-hello-world-agent-1": (set(), "registry-only members added (repository, pricing, contact)"),
    "34-registry-hello-world-agent-2": (
        {("interface-url-changed", "breaking")},
        "the endpoint moved from /a2a to /: clients that call the old URL fail",
    ),
    "35-registry-example-weather-bot-1": (
        {
            ("card-error-fixed", "non-breaking"),
            ("interface-added", "non-breaking"),
            ("input-mode-added", "non-breaking"),
            ("output-mode-added", "non-breaking"),
            ("documentation-url-changed", "info"),
            ("era-changed", "info"),
            ("examples-changed", "info"),
            ("icon-url-changed", "info"),
            ("provider-changed", "info"),
        },
        "a pre-spec entry (no url, no modes) rewritten as v0.3: its errors are fixed and it now states an "
        "interface and modes (absent, they were errors: no client could rely on them); nothing is taken away",
    ),
}


def _pairs() -> list[str]:
    return sorted(p.name for p in PAIRS.iterdir() if p.is_dir()) if PAIRS.is_dir() else []


@pytest.mark.skipif(not _pairs(), reason="../shared/cards/history-pairs is not present in this checkout")
def test_every_pair_is_judged() -> None:
    assert set(_pairs()) == set(JUDGEMENT)


@pytest.mark.parametrize("name", _pairs() or [pytest.param("none", marks=pytest.mark.skip("no pairs"))])
def test_real_pair_matches_the_judgement(capsys: pytest.CaptureFixture[str], name: str) -> None:
    folder = PAIRS / name
    _, out = run(capsys, folder / "base.json", folder / "head.json", "--format", "json", "--no-config")
    expected, _why = JUDGEMENT[name]
    assert found(json.loads(out)["changes"]) == expected
