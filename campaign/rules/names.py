"""Readable default names for what players buy (issue 26, item 4): pilots get a person's
name ("Sgt. Mara Voss"), units their model and a nickname ("Golem 'Iron Wolf'").

Pure Python and deterministic. A name is drawn from a SHA-256 hash of the campaign id, a
kind ("unit" / "pilot") and a per-campaign counter the caller passes: it never touches the
campaign's seeded dice, so naming changes no roll, no replay, no case-book case and no
golden battle. Each tactical ruleset supplies its own lists through the ruleset seam
(`Ruleset.name_lists`, `campaign.rulesets.RulesetInfo.name_lists`); `DEFAULT_LISTS` serves
a ruleset that gives none and the data migration that named the rows bought before names
existed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

#: The longest name a player may give (after trimming).
MAX_LENGTH = 40


class NameError_(ValueError):
    """A name a player typed that cannot be kept; the message is a sentence."""


@dataclass(frozen=True)
class NameLists:
    """What a ruleset names its pilots and units from."""

    ranks: tuple[str, ...]
    first: tuple[str, ...]
    last: tuple[str, ...]
    nicknames: tuple[str, ...]

    def __post_init__(self) -> None:
        if not (self.first and self.last and self.nicknames):
            raise ValueError("a ruleset's name lists need first names, last names and "
                             "nicknames")


DEFAULT_LISTS = NameLists(
    ranks=("Pvt.", "Cpl.", "Sgt.", "Lt.", "Capt."),
    first=("Mara", "Jonas", "Ilse", "Tomas", "Rhea", "Dmitri", "Ada", "Kofi", "Nell",
           "Oren", "Suvi", "Pavel", "Lena", "Arlo", "Yara", "Bram"),
    last=("Voss", "Kade", "Lind", "Okafor", "Reyes", "Strand", "Hale", "Moreau", "Ibsen",
          "Tanaka", "Novak", "Quill", "Sato", "Bauer", "Ferro", "Wren"),
    nicknames=("Iron Wolf", "Red Comet", "Old Faithful", "Dust Devil", "Night Owl",
               "Black Hound", "Lucky Seven", "Stormcrow", "Grey Ghost", "Hammerhead",
               "Sundown", "Rust Bucket", "Widowmaker", "Blue Heron", "Jackal", "Thunder"),
)

#: How many counters past the first a name is drawn from before a duplicate is accepted
#: with a number ("... II").
_TRIES = 64


def _pick(scope: str, kind: str, counter: int, salt: str, options: Sequence[str]) -> str:
    digest = hashlib.sha256(f"{scope}:{kind}:{counter}:{salt}".encode()).digest()
    return options[int.from_bytes(digest[:8], "big") % len(options)]


class TakenNames(Collection[str]):
    """The names a player's units (or pilots) already bear, for naming many in a row (a
    factory's production): kept case-folded as they are added, so each draw costs the
    same however many came before, not a pass over all of them (a league's age must not
    slow its turns, issue 32). Names are only ever added, so the first free "... n" of a
    base is never below the last one found: the count resumes there."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._names: list[str] = []
        self.folded: set[str] = set()
        self.numbered: dict[str, int] = {}  # a base's last "... n" found free
        # Per kind of draw (what `candidate` answers): the candidates hashed so far (a
        # draw tries counter, counter + 1, ...: the next draw would hash most of them
        # again), and whether all of its space is taken (then it stays so).
        self.drawn: dict[Hashable, dict[int, str]] = {}
        self.full: set[Hashable] = set()
        # ... and all of its space, case-folded (checked against the names at each draw
        # until it is full: one subset test instead of formatting the space again).
        self.spaces: dict[Hashable, frozenset[str]] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        self._names.append(name)
        self.folded.add(name.casefold())

    def __len__(self) -> int:
        return len(self._names)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.casefold() in self.folded


def _draw(counter: int, taken: Collection[str], candidate: Callable[[int], str],
          space: Callable[[], Collection[str]] | None = None, kind: Hashable = None) -> str:
    """The first candidate (counter, counter + 1, ...) not in `taken` (case ignored); after
    `_TRIES` duplicates, the first candidate with a number ("... 2"). `space`, when given,
    answers every name `candidate` can answer: once all of it is taken, no draw can
    succeed, so the tries are skipped (the same answer, without 64 hashes: a factory
    building a big force names each unit in constant time). `kind` names what
    `candidate` answers, for `TakenNames` to keep its answers between draws."""
    seen = taken.folded if isinstance(taken, TakenNames) else {t.casefold() for t in taken}
    book = taken if isinstance(taken, TakenNames) and kind is not None else None
    # The candidates' answers: kept by the book between draws (a factory names thousands
    # of units a turn: issue 32), else for this draw only.
    answers: dict[int, str] = book.drawn.setdefault(kind, {}) if book is not None else {}
    if book is not None and kind in book.full:
        exhausted = True
    elif book is not None and space is not None:
        folded = book.spaces.get(kind)
        if folded is None:
            folded = book.spaces[kind] = frozenset(name.casefold() for name in space())
        exhausted = folded <= seen
        if exhausted:
            book.full.add(kind)
    else:
        exhausted = space is not None and all(name.casefold() in seen for name in space())
    for n in range(counter, counter + (0 if exhausted else _TRIES)):
        name = answers.get(n)
        if name is None:
            name = answers[n] = candidate(n)
        if name.casefold() not in seen:
            return name
    base = answers.get(counter)
    if base is None:
        base = answers[counter] = candidate(counter)
    n = taken.numbered.get(base, 2) if isinstance(taken, TakenNames) else 2
    while f"{base} {n}".casefold() in seen:
        n += 1
    if isinstance(taken, TakenNames):
        taken.numbered[base] = n
    return f"{base} {n}"


def _scope(campaign_id: int, player_id: int) -> str:
    return f"{campaign_id}:{player_id}"


def pilot_name(lists: NameLists, *, campaign_id: int, player_id: int, counter: int,
               taken: Collection[str] = ()) -> str:
    """A person's name ("Sgt. Mara Voss") for a player's `counter`-th pilot in a campaign,
    not one of `taken` (the player's other pilots) when the lists allow it.

    The counter is the player's own (how many pilots they had): a campaign-wide one would
    let a player who hashes their pilots' names count what the others hired (R-SEC-1)."""
    scope = _scope(campaign_id, player_id)

    def candidate(n: int) -> str:
        parts = [_pick(scope, "pilot", n, "first", lists.first),
                 _pick(scope, "pilot", n, "last", lists.last)]
        if lists.ranks:
            parts.insert(0, _pick(scope, "pilot", n, "rank", lists.ranks))
        return " ".join(parts)
    return _draw(counter, taken, candidate)


def unit_name(lists: NameLists, model: str, *, campaign_id: int, player_id: int,
              counter: int, taken: Collection[str] = ()) -> str:
    """A model and a nickname ("Golem 'Iron Wolf'") for a player's `counter`-th unit in a
    campaign, not one of `taken` (the player's other units) when the lists allow it."""
    return unit_namer(lists, model, campaign_id=campaign_id, player_id=player_id)(
        counter, taken)


def unit_namer(lists: NameLists, model: str, *, campaign_id: int, player_id: int
               ) -> Callable[[int, Collection[str]], str]:
    """`unit_name` of one model for one player, as a function of (counter, taken) made
    once for many units in a row (a factory's production: issue 32)."""
    scope = _scope(campaign_id, player_id)

    def named(nickname: str) -> str:
        return f"{model} '{nickname}'"[:MAX_LENGTH]

    def candidate(n: int) -> str:
        return named(_pick(scope, "unit", n, "nickname", lists.nicknames))

    def space() -> set[str]:
        return {named(n) for n in lists.nicknames}

    kind = ("unit", scope, model, lists.nicknames)

    def name(counter: int, taken: Collection[str]) -> str:
        return _draw(counter, taken, candidate, space=space, kind=kind)
    return name


def lists_from(raw: Mapping[str, Sequence[str]] | None) -> NameLists:
    """A ruleset's `name_lists()` answer as `NameLists` (None or empty: the defaults)."""
    if not raw:
        return DEFAULT_LISTS
    return NameLists(ranks=tuple(raw.get("ranks") or ()),
                     first=tuple(raw.get("first") or DEFAULT_LISTS.first),
                     last=tuple(raw.get("last") or DEFAULT_LISTS.last),
                     nicknames=tuple(raw.get("nicknames") or DEFAULT_LISTS.nicknames))


def clean_name(value: object) -> str:
    """A name a player typed, trimmed: 1 to 40 characters, no control characters
    (NameError_ with a sentence otherwise). HTML is escaped where it is shown, not here."""
    if not isinstance(value, str):
        raise NameError_("A name is a text of 1 to 40 characters.")
    name = " ".join(value.split()) if not any(_control(c) for c in value) else None
    if name is None:
        raise NameError_("A name cannot contain control characters (line breaks, tabs).")
    if not name:
        raise NameError_("A name cannot be empty.")
    if len(name) > MAX_LENGTH:
        raise NameError_(f"A name has at most {MAX_LENGTH} characters; this one has "
                         f"{len(name)}.")
    return name


def _control(char: str) -> bool:
    code = ord(char)
    return code < 32 or 127 <= code < 160 or char in "\u2028\u2029"
