"""The rules a change is judged by are not the change's to set: what the head's configuration would change.

With ``--base-ref`` the review's configuration is the base revision's (``review.config_sources``), so a pull
request cannot turn off, lower or accept what it breaks by editing ``.a2a-docgen.toml``. What the head's
file would change is reported instead, each rule at its line of that file:

- ``config-loosened``: a code turned off or lowered, the version policy turned off, an acceptance added or
  made to last longer. Breaking when it would hide, lower or accept a finding of this very review (the
  change would have judged itself), else non-breaking: shown, and in force once merged.
- ``config-tightened`` (info): a code raised or turned back on, the version policy turned on, an acceptance
  removed or shortened.
- ``config-invalid`` (breaking): the head's file cannot be used, so once merged every review stops (exit 2).

Values are compared as they take effect (a code's severity, its default unless set), so rewriting the file
with the same rules reports nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date

from a2a_docgen.load.source import join_pointer
from a2a_docgen.model import JSONValue
from a2a_docgen.review.codes import (
    CODES,
    CONFIG_INVALID,
    CONFIG_LOOSENED,
    CONFIG_TIGHTENED,
    SEVERITIES,
    VERSION_NOT_BUMPED,
    VERSION_NOT_SEMVER,
    ChangeSeverity,
    severity_rank,
)
from a2a_docgen.review.compare.base import Draft, Side
from a2a_docgen.review.config import Acceptance, ConfigError, ReviewConfig
from a2a_docgen.text.plural import plural

__all__ = ["HeadConfig", "RuleChange", "Weakened", "rule_changes"]

_POLICY_KEY = ("diff", "version-policy")
_SEVERITY_KEY = ("diff", "severity")
_ACCEPT_KEY = ("diff", "accept")
_POLICY_CODES = frozenset({VERSION_NOT_BUMPED.name, VERSION_NOT_SEMVER.name})


@dataclass(frozen=True, slots=True, kw_only=True)
class HeadConfig:
    """The configuration file the change leaves: what later changes are judged by once it is merged."""

    path: str | None
    """As shown in messages; ``None`` when the head has no configuration file."""
    config: ReviewConfig | None = None
    """``None`` when there is no file, or it cannot be used (``error``)."""
    error: ConfigError | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Weakened:
    """The findings of this review (under the base's rules) that the head's rules would hide, lower or accept."""

    codes: Mapping[str, int] = field(default_factory=dict)
    """Code -> how many of its findings the head's rules hide or lower."""
    acceptances: Mapping[Acceptance, int] = field(default_factory=dict)
    """An acceptance of the head's file -> how many findings it accepts that the base's rules do not."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleChange:
    """One difference of the head's configuration from the base's, located in the file that has it.

    The draft has no agent, its pointer names the TOML key (``/diff/severity/skill-removed``), its side is
    ``head``, or ``base`` when the head has no configuration file (the base's shows where the rule was), and
    a loosening no finding of this review is concerned by is capped at ``non-breaking``.
    """

    draft: Draft
    file: str
    line: int
    column: int


@dataclass(frozen=True, slots=True, kw_only=True)
class _Difference:
    loosens: bool
    key: tuple[str | int, ...]
    what: str
    before: JSONValue
    after: JSONValue
    verb: str = "hide"
    """What the loosening does to the findings it concerns."""
    codes: frozenset[str] = frozenset()
    acceptance: Acceptance | None = None

    def concerned(self, weakened: Weakened) -> int:
        count = sum(weakened.codes.get(code, 0) for code in self.codes)
        return count + (weakened.acceptances.get(self.acceptance, 0) if self.acceptance is not None else 0)


def rule_changes(
    base: ReviewConfig | None, head: HeadConfig, weakened: Callable[[], Weakened]
) -> list[RuleChange]:
    """What ``head`` changes from ``base`` (``None``: no file, the defaults), in file order.

    ``weakened`` reviews the change again under the head's rules; it is called only when the head loosens.
    """
    base_config = base if base is not None else ReviewConfig()
    if head.error is not None:
        error = head.error
        draft = Draft(
            agent="",
            skill=None,
            code=CONFIG_INVALID,
            message=f"the configuration cannot be used, so once merged every review stops (exit 2): {error}",
            pointer="",
            after=str(error),
        )
        return [RuleChange(draft=draft, file=head.path or "", line=error.line or 1, column=error.column or 1)]
    if head.path is None and base is None:
        return []
    head_config = head.config if head.config is not None else ReviewConfig()
    differences = [
        *_severities(base_config, head_config),
        *_version_policy(base_config, head_config),
        *_acceptances(base_config, head_config),
    ]
    # Where the head has no file, what its removal changes is shown where the base's file had the rule.
    side: Side = "head" if head.path is not None else "base"
    located = head_config if side == "head" else base_config
    file = head.path if head.path is not None else base_config.path or ""
    found = weakened() if any(d.loosens for d in differences) else Weakened()
    changes = []
    for difference in differences:
        message = difference.what
        cap_to: ChangeSeverity | None = None
        if difference.loosens:
            count = difference.concerned(found)
            if count:
                message += f": it would {difference.verb} {plural(count, 'finding')} of this review"
            else:
                message += ": no finding of this review is concerned; it applies once merged"
                cap_to = "non-breaking"
        if side == "base":
            message += f" (the change deletes {file})"
        draft = Draft(
            agent="",
            skill=None,
            code=CONFIG_LOOSENED if difference.loosens else CONFIG_TIGHTENED,
            message=message,
            pointer=join_pointer("", *difference.key),
            side=side,
            before=difference.before,
            after=difference.after,
            cap=cap_to,
        )
        line, column = located.place(difference.key)
        changes.append(RuleChange(draft=draft, file=file, line=line, column=column))
    return sorted(changes, key=lambda c: (c.line, c.column, c.draft.pointer))


def _severity_name(severity: ChangeSeverity | None) -> str:
    return severity if severity is not None else "off"


def _rank(severity: ChangeSeverity | None) -> int:
    return severity_rank(severity) if severity is not None else len(SEVERITIES)  # off: below info


def _value(key: tuple[str | int, ...], value: JSONValue) -> JSONValue:
    """``{"diff.severity.skill-removed": "off"}``: the rule and its value, in ``before`` and ``after``."""
    return {".".join(str(part) for part in key): value}


def _severities(base: ReviewConfig, head: ReviewConfig) -> Iterator[_Difference]:
    for code in CODES:
        before, after = base.severity(code), head.severity(code)
        if before == after:
            continue
        key: tuple[str | int, ...] = (*_SEVERITY_KEY, code)
        # A severity given as version-policy = "<severity>" is written there.
        located = head if head.lines is not None else base
        if code == VERSION_NOT_BUMPED.name and not located.written(key) and located.written(_POLICY_KEY):
            key = _POLICY_KEY
        was, now = _severity_name(before), _severity_name(after)
        if after is None:
            what, verb = f"turns {code} off ({was} at the base)", "hide"
        elif before is None:
            what, verb = f"turns {code} on as {now} (off at the base)", ""
        else:
            direction = "lowers" if _rank(after) > _rank(before) else "raises"
            what, verb = f"{direction} {code} from {was} to {now}", "lower"
        yield _Difference(
            loosens=_rank(after) > _rank(before),
            key=key,
            what=what,
            before=_value(key, was),
            after=_value(key, now),
            verb=verb,
            codes=frozenset({code}),
        )


def _version_policy(base: ReviewConfig, head: ReviewConfig) -> Iterator[_Difference]:
    if base.version_policy == head.version_policy:
        return
    state = "on" if head.version_policy else "off"
    yield _Difference(
        loosens=not head.version_policy,
        key=_POLICY_KEY,
        what=f"turns the version policy {state}",
        before=_value(_POLICY_KEY, base.version_policy),
        after=_value(_POLICY_KEY, head.version_policy),
        codes=_POLICY_CODES,
    )


_Identity = tuple[str | None, str | None, bool, str | None, str | None, str | None]


def _identity(entry: Acceptance) -> _Identity:
    """What an acceptance matches (its reason and expiry aside)."""
    return (entry.agent, entry.skill, entry.skill_given, entry.code, entry.pointer, entry.fingerprint)


def _shown(entry: Acceptance) -> JSONValue:
    return {
        "agent": entry.agent,
        "skill": entry.skill,
        "code": entry.code,
        "pointer": entry.pointer,
        "fingerprint": entry.fingerprint,
        "expires": entry.expires.isoformat() if entry.expires is not None else None,
    }


def _lasts_longer(entry: date | None, than: date | None) -> bool:
    return than is not None and (entry is None or entry > than)


def _until(expires: date | None) -> str:
    return f"until {expires.isoformat()}" if expires is not None else "for good"


def _acceptances(base: ReviewConfig, head: ReviewConfig) -> Iterator[_Difference]:
    kept: dict[_Identity, Acceptance] = {}
    for entry in base.accept:
        earlier = kept.get(_identity(entry))
        if earlier is None or _lasts_longer(entry.expires, earlier.expires):
            kept[_identity(entry)] = entry
    for index, entry in enumerate(head.accept):
        key: tuple[str | int, ...] = (*_ACCEPT_KEY, index)
        old = kept.get(_identity(entry))
        if old is None:
            what = f"adds {entry.describe()} ({_until(entry.expires)})"
        elif old.expires == entry.expires:
            continue
        else:
            what = (
                f"makes {entry.describe()} last {_until(entry.expires)} ({_until(old.expires)} at the base)"
            )
        yield _Difference(
            loosens=old is None or _lasts_longer(entry.expires, old.expires),
            key=key,
            what=what,
            before=_value(key, _shown(old) if old is not None else None),
            after=_value(key, _shown(entry)),
            verb="accept",
            acceptance=entry,
        )
    remaining = {_identity(entry) for entry in head.accept}
    for index, entry in enumerate(base.accept):
        if _identity(entry) not in remaining and kept.get(_identity(entry)) is entry:
            key = (*_ACCEPT_KEY, index) if head.lines is None else _ACCEPT_KEY
            yield _Difference(
                loosens=False,
                key=key,
                what=f"removes {entry.describe()}",
                before=_value(key, _shown(entry)),
                after=_value(key, None),
            )
