"""The ruleset seam: what every tactical game gives the campaign, and what it gets back.

Pure Python: no Django, no other ruleset (import-linter contracts keep it so). The
strategic layer (map, territories, buildings, energy, resources, credits, trades,
orders, clock) is Unlimit3d 8's for every campaign; a `Ruleset` decides what players buy
and field (`catalogue`), how a battlefield's campaign forces become its own battle input
(`forces`), how a battle is fought (`resolve`, with the campaign's dice seam and a
deterministic default policy), how a unit gains experience (`veterancy`), odds, the
tabletop report a person fills in, and the replay.

Modelled on godip's `Variant` (a registered value per game) and python-chess's
`VARIANTS`/`find_variant`: a new ruleset is a package under `battles/rulesets/` plus one
line in `battles/rulesets/registry.py`.

Identifiers at the seam are campaign ids (ints): players, units, crew (pilots), buildings.
Everything crossing it is JSON-ready (dicts, lists, str, int, float, bool, None) so a
battle's input and outcome are stored as they were and replay forever with the
ruleset version named on the battle.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal, Protocol, cast, runtime_checkable

from jsonschema import Draft202012Validator

from campaign.rules.dice import Dice

Json = dict[str, Any]

#: What happened to a unit, in campaign terms.
Fate = Literal["intact", "damaged", "destroyed", "retreated", "captured"]
FATES: tuple[str, ...] = ("intact", "damaged", "destroyed", "retreated", "captured")


class RulesetError(ValueError):
    """A ruleset refused its input (an unknown key, an illegal catalogue entry, a report
    that does not fit the battle). The message is a sentence a person understands;
    `code` and `fields` (optional) are what the campaign's 400 carries."""

    def __init__(self, message: str, *, code: str | None = None,
                 fields: Mapping[str, list[str]] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.fields = dict(fields) if fields is not None else None


@dataclass(frozen=True)
class RulesetOption:
    """One campaign setting a ruleset declares, once: its name and default (what
    `tables()["options"]` serves), the words the umpire's settings form shows, and the
    bounds or choices a value must keep (checked for the API and the form alike)."""

    key: str
    default: Any
    label: str
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    ruling: str | None = None


def option_defaults(options: Iterable[RulesetOption]) -> dict[str, object]:
    """name -> default, the shape `tables()["options"]` and the API serve."""
    return {o.key: o.default for o in options}


@dataclass(frozen=True)
class CatalogueEntry:
    """One thing a player can buy in a campaign of this ruleset.

    `profile` is what the engine needs to field it (stats, weapons, figures, sections)
    and is copied onto the campaign unit when bought, so later catalogue changes do not
    change units already in play. `crewed` says the unit comes with its crew (ready to be
    ordered at once); Unlimit3d 8 vehicles do not (pilots are hired separately).
    """

    key: str
    name: str
    kind: str
    price: int
    profile: Json = field(default_factory=dict)
    faction: str | None = None
    crewed: bool = True
    ruling: str | None = None

    def to_dict(self) -> Json:
        return asdict(self)


@dataclass(frozen=True)
class FieldUnit:
    """A campaign unit on a battlefield, as the campaign knows it.

    `key` is its catalogue key (Unlimit3d 8: the vehicle model); `state` its campaign
    state in this ruleset's terms (damage, figures left, sections lost, veterancy...);
    `profile` the catalogue profile it was bought with; `crew` its pilot or crew record
    where the ruleset has one (Unlimit3d 8: pilot id, class, level, xp).
    """

    id: int
    player: int
    key: str
    name: str
    profile: Json = field(default_factory=dict)
    state: Json = field(default_factory=dict)
    crew: Json | None = None
    reinforcement: bool = False


STANCES: tuple[str, ...] = ("attack", "hold", "withdraw")
FOCI: tuple[str, ...] = ("nearest", "weakest", "strongest")


@dataclass(frozen=True)
class Plan:
    """A side's sealed battle plan (issue 29), the same for every ruleset: its `stance`
    (attack: close in and fight; hold: keep its ground and fight what comes in reach;
    withdraw: leave by the ruleset's retreat rules at once), `retreat_at` (the share of the
    side's starting strength, as the ruleset counts it, whose loss makes it withdraw; 100
    fights to the end) and `focus` (which enemy it shoots first). Each ruleset's rulings
    say what these mean in its rules; a side without a plan fights as its default policy
    does."""

    stance: str = "attack"
    retreat_at: int = 100
    focus: str = "nearest"

    def __post_init__(self) -> None:
        if self.stance not in STANCES:
            raise RulesetError(f"unknown stance {self.stance!r} (one of {', '.join(STANCES)})")
        if self.focus not in FOCI:
            raise RulesetError(f"unknown focus {self.focus!r} (one of {', '.join(FOCI)})")
        if not 0 <= self.retreat_at <= 100:
            raise RulesetError("retreat_at is a share of the starting strength, 0 to 100")

    def to_dict(self) -> Json:
        return {"stance": self.stance, "retreat_at": self.retreat_at, "focus": self.focus}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Plan:
        return cls(stance=str(data.get("stance", "attack")),
                   retreat_at=int(data.get("retreat_at", 100)),
                   focus=str(data.get("focus", "nearest")))


def plans_of(battle_input: Mapping[str, Any]) -> dict[str, Plan]:
    """The plans a battle input carries (`"plans": {side: plan}`), by side key."""
    return {str(side): Plan.from_dict(plan)
            for side, plan in (battle_input.get("plans") or {}).items()}


@dataclass(frozen=True)
class Battlefield:
    """Everything the campaign hands a ruleset to build one battle's input."""

    territory: int
    defender: int | None
    sides: Mapping[int, Sequence[FieldUnit]]
    buildings: Sequence[Json] = ()
    seed: int = 0
    options: Json = field(default_factory=dict)
    extras: Json = field(default_factory=dict)
    #: The sides' sealed plans (player id -> Plan); a side without one fights as the
    #: ruleset's default policy does. Every ruleset copies them into its input as
    #: `"plans": {side key: plan.to_dict()}` (`with_plans`).
    plans: Mapping[int, Plan] = field(default_factory=dict)


@dataclass(frozen=True)
class UnitFate:
    """One unit's fate. `state` is its new campaign state (merged over the old one);
    `captured_by` the player who takes it when the fate is `captured`."""

    unit: int
    player: int
    fate: str
    state: Json = field(default_factory=dict)
    captured_by: int | None = None
    #: What the battle report shows beyond the state (hit points left, figures lost...);
    #: never written to the unit.
    detail: Json = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.fate not in FATES:
            raise RulesetError(f"unknown fate {self.fate!r} (one of {', '.join(FATES)})")


@dataclass(frozen=True)
class XpAward:
    """Experience in campaign terms: `kind` names the ruleset's reason (Unlimit3d 8's XP
    kinds, or "battle_survived" for a training ladder); `crew` the pilot when it is the
    crew, not the unit, that learns."""

    unit: int
    kind: str
    amount: int = 1
    crew: int | None = None


@dataclass(frozen=True)
class Effect:
    """A ruleset-specific consequence the ruleset declares in `Ruleset.effects` and the
    campaign applies through a handler registered for `kind` (Unlimit3d 8: silo missiles
    spent, cargo carried off, laboratory piracy)."""

    kind: str
    data: Json = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """A ruleset-neutral battle result: what the campaign records.

    `winner` is a player id or None (nobody holds the field). `result` is the ruleset's
    own result document (stored on the battle for its replay and report), `log` its
    action and dice log.
    """

    winner: int | None
    units: tuple[UnitFate, ...]
    xp: tuple[XpAward, ...] = ()
    buildings_destroyed: tuple[int, ...] = ()
    building_hit_points: Mapping[int, int] = field(default_factory=dict)
    effects: tuple[Effect, ...] = ()
    rounds: int = 0
    end_reason: str = ""
    result: Json = field(default_factory=dict)
    log: tuple[Json, ...] = ()


#: The side names of an odds request's battle, whatever the ruleset calls its sides.
OWN, ENEMY = "you", "enemy"


@dataclass(frozen=True)
class OddsQuestion:
    """What a player may know when asking the odds of a battle (R-BJ-8): their own units
    (`battlefield.sides[player]`, with the territory's buildings only when they own it;
    `battlefield.defender` is `player` then, else `enemy_player`); the enemy they describe
    (`described`: the request's list, unchecked); and the public record of the last
    battle on the territory that another player won (`last`: its stored `input`,
    `result` and `sides`), or None."""

    battlefield: Battlefield
    player: int
    enemy_player: int
    described: Sequence[Any] | None = None
    last: Json | None = None


class ActionRefused(RulesetError):
    """A choice the rules refuse (a player's, or a policy's): `code` names the prohibition
    in snake case (`moved_twice`, `not_your_turn`, `out_of_range`), the message is a
    sentence a person understands, and `rule` quotes the seed's sentence that forbids it.
    Whoever raises it has changed nothing."""

    def __init__(self, code: str, message: str, rule: str = "") -> None:
        super().__init__(f'{message} (the rules: "{rule}")' if rule else message)
        self.code = code
        self.rule = rule


def with_plans(battle_input: Json, battlefield: Battlefield,
               side_key: Callable[[int], Any] = str) -> Json:
    """`battle_input` with the battlefield's plans under `"plans"` (keyed as the ruleset
    keys its sides); unchanged when no side has a plan, so a battle without plans stores
    and replays exactly as before."""
    if battlefield.plans:
        battle_input["plans"] = {str(side_key(pid)): plan.to_dict()
                                 for pid, plan in sorted(battlefield.plans.items())}
    return battle_input


@runtime_checkable
class ActionLayer(Protocol):
    """A battle of this ruleset as a sequence of choices, refereed.

    The state is the ruleset's own (mutable) battle state. `legal` lists choices the side
    to act may take now (a finite list the default policy chooses from; where a rule allows
    a continuum, e.g. any point within a move, the policy's candidates); `apply` is the
    referee: it plays one action or raises `ActionRefused` and leaves the state as it was.
    The default policy of `Ruleset.resolve` chooses through this same layer, so it can
    never do what a player may not. Actions are JSON mappings: `{"side": player, "do":
    "move", "unit": id, ...}` (each ruleset documents its `do` verbs in its rulings).
    """

    def start(self, battle_input: Json, dice: Dice, setup: Json | None = None) -> Any:
        """The battle state after deployment; `setup` adjusts it (positions, phase, points,
        damage: the ruleset's own keys) so a case can set up a situation."""
        ...

    def actor(self, state: Any) -> int | str | None:
        """The side (player id) whose choice it is now; None once the battle is over."""
        ...

    def legal(self, state: Any) -> list[Json]:
        """The actions the side to act may take now."""
        ...

    def apply(self, state: Any, action: Json) -> None:
        """Play one action (`action["side"]` chose it) or raise `ActionRefused`."""
        ...

    def choose(self, state: Any, policy: str | None = None) -> Json:
        """The action the named policy (None: the default) takes now: always one that
        `apply` accepts, chosen among `legal(state)`."""
        ...

    def view(self, state: Any) -> Json:
        """The state as JSON (units and their positions, phase, points, whose turn)."""
        ...


@runtime_checkable
class Ruleset(Protocol):
    """One tactical game behind the seam. Implementations are plain classes (or module
    singletons) registered once in `battles.rulesets.registry`."""

    name: str
    version: str
    title: str
    seed_file: str
    dice: tuple[str, ...]
    factions: tuple[str, ...]
    effects: tuple[str, ...]
    #: Units fight only with a hired pilot aboard (Unlimit3d 8); other rulesets' units
    #: come with their crew.
    pilots: bool
    #: The item kinds (besides buildings) a player buys to raise a force: Unlimit3d 8's
    #: parts (vehicle, weapon, equipment, operative) or ("unit",): a whole unit from
    #: `catalogue`, crew included.
    purchase_kinds: tuple[str, ...]
    #: Whether a damaged unit is restored by paying credits (`repair`); Unlimit3d 8's
    #: damage stays on the unit card.
    repairs: bool
    #: The campaign's own battle settings this ruleset's engine reads (engine option ->
    #: campaign setting); a ruleset that declares none is fought with the campaign's
    #: `ruleset_options`.
    battle_settings: Mapping[str, str]
    #: Its own campaign settings (`ruleset_options`), declared once.
    option_specs: tuple[RulesetOption, ...]

    def tables(self) -> Json:
        """The ruleset's rule tables, as served by `GET /api/rules/?ruleset=NAME`."""
        ...

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Check its `ruleset_options` beyond their declared bounds (ValueError)."""
        ...

    def initial_state(self, key: str) -> Json:
        """The campaign state of a unit just bought (its catalogue key)."""
        ...

    def repair(self, profile: Json, state: Json) -> tuple[int, Json]:
        """What restoring a damaged unit costs (SC) and the state it is restored to."""
        ...

    def name_lists(self) -> dict[str, tuple[str, ...]]:
        """What its pilots and units are named from (empty: the campaign's defaults)."""
        ...

    def catalogue(self, *, faction: str | None = None,
                  options: Mapping[str, Any] | None = None) -> list[CatalogueEntry]:
        """What a player may buy, cheapest first (prices in SC)."""
        ...

    def veterancy(self, state: Json, awards: Sequence[XpAward],
                  options: Mapping[str, Any] | None = None) -> Json:
        """A unit's new campaign state after the XP awards of one battle."""
        ...

    def forces(self, battlefield: Battlefield) -> Json:
        """The ruleset's own battle input (JSON), built from the campaign's forces."""
        ...

    def resolve(self, battle_input: Json, dice: Dice, policy: str | None = None) -> Outcome:
        """Fight the battle with `dice` (every die through the seam) and a named policy
        (None: the deterministic default)."""
        ...

    def resolve_by(self, battle_input: Json,
                   resolver: Callable[[Any], Any]) -> Outcome | Json:
        """Fight the battle with an engine-level `resolver` (tests, the case book): it
        receives the ruleset's own typed input and returns its own typed result; the
        outcome or the result document the campaign records."""
        ...

    def document(self, outcome: Outcome) -> Json:
        """The JSON result document the campaign stores on the battle for `outcome`."""
        ...

    def outcome(self, result: Json) -> Outcome:
        """The outcome a stored result document (`document`'s, as kept on the battle, or
        a tabletop result in the same form) stands for."""
        ...

    def odds(self, battle_input: Json, *, simulations: int, seed: int) -> Json:
        """Seeded Monte Carlo estimate: `{"simulations", "wins": {side: n}, ...}`."""
        ...

    def odds_input(self, question: OddsQuestion) -> Json:
        """The input an odds request stores: the battle the player could fight against
        the enemy they may know of (RulesetError, code "invalid_enemy" or
        "no_known_enemy", when there is none or a described one is not a unit)."""
        ...

    def odds_estimate(self, request: Json, *, simulations: int, seed: int,
                      workers: int = 1) -> Json:
        """The estimate for a stored `odds_input`, its sides named `OWN` and `ENEMY`."""
        ...

    def odds_chunks(self, request: Json, simulations: int) -> list[tuple[int, int]]:
        """(start, count) parts an estimate may be split into, each a job of its own
        ([]: one job)."""
        ...

    def odds_chunk(self, request: Json, seed: int, chunk: tuple[int, int]) -> Json:
        """The counts of one part of `odds_chunks`."""
        ...

    def odds_merge(self, request: Json, simulations: int, seed: int,
                   counts: Iterable[Json]) -> Json:
        """Every part's counts merged: the same estimate as `odds_estimate`."""
        ...

    def tabletop_schema(self) -> Json:
        """JSON Schema of the report a person enters after playing the battle on a table."""
        ...

    def outcome_from_report(self, battle_input: Json, report: Json) -> Outcome:
        """The outcome a validated tabletop report describes (RulesetError if it does not
        fit the battle)."""
        ...

    def tabletop_result(self, battle_input: Json, report: Json, *, seed: int) -> Json:
        """The result document the campaign records for a tabletop report (RulesetError
        with a `code` when the report does not fit the schema or the battle)."""
        ...

    def replay(self, battle_input: Json, outcome: Json,
               log: Sequence[Json]) -> list[Json] | None:
        """Steps for the replay page: each `{"text", "actor", "target", ...}`; None: the
        page narrates the stored log itself, with the campaign's names for units and
        buildings."""
        ...

    def narrate(self, entry: Json, names: Mapping[str, Mapping[str, str]]) -> Json:
        """One log entry (or `replay` step) as a person reads it: `{"text", "dice"}`."""
        ...

    def actions(self) -> ActionLayer:
        """The action layer: the battle as refereed choices (`ActionLayer`)."""
        ...

    def board(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> Board | None:
        """The board replay: the battlefield's shape and one frame per step of the battle
        (the positions of every unit), folded from the stored input and log (never by
        playing the battle again). None: this ruleset has no board to show."""
        ...

    def probe(self, rule: str, args: Json, dice: Dice) -> Json:
        """One rule evaluated in isolation with scripted dice (the case book's probes)."""
        ...

    def probes(self) -> tuple[str, ...]:
        """The names `probe` accepts."""
        ...


_PLURAL = re.compile(r"\b(\d+) (\w+)\((e?s)\)")
_COLON_NUMBER = re.compile(r"(\w): (?=-?\d)")


def prose(text: str) -> str:
    """A log line as a sentence: "1 hit(s)" -> "1 hit", "3 hex(es)" -> "3 hexes", and a
    count after a colon set off by a comma ("bare hands: 1 hit" -> "bare hands, 1 hit"),
    so it never reads as a `key: value` pair."""
    text = _PLURAL.sub(lambda m: f"{m.group(1)} {m.group(2)}"
                       + ("" if m.group(1) == "1" else m.group(3)), text)
    return _COLON_NUMBER.sub(r"\1, ", text)


_SIDE = re.compile(r"\b[Ss]ide (\d+)\b")
_SIDE_ROLL = re.compile(r"\b(\d+): (\d+)\b")


class RulesetBase:
    """Defaults for the optional parts of the seam; rulesets may inherit it.

    `probe(rule, args, dice)` evaluates one rule of the ruleset in isolation (a to-hit roll,
    a save, a movement allowance) so the case book can check a single rule with scripted
    dice; `sections()` lists the seed's sections for the compliance page; `sample_battle()`
    is a typical battle input (benchmarks, odds tests, the demo).
    """

    factions: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()
    pilots = False
    purchase_kinds: tuple[str, ...] = ("unit",)
    repairs = True
    battle_settings: Mapping[str, str] = MappingProxyType({})
    option_specs: tuple[RulesetOption, ...] = ()

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Default: the declared bounds (`option_specs`) are all there is to check."""

    def initial_state(self, key: str) -> Json:
        """The campaign state of a unit just bought (its catalogue key)."""
        return {}

    def repair(self, profile: Json, state: Json) -> tuple[int, Json]:
        """What restoring a damaged unit costs (SC) and the state it is restored to."""
        return 0, dict(state)

    def document(self, outcome: Outcome) -> Json:
        """The result document the campaign stores for an outcome (default: the neutral
        fields plus the ruleset's own, `outcome_document`); `outcome` reads it back."""
        return outcome_document(outcome)

    def outcome(self, result: Json) -> Outcome:
        """Default: the result document holds the neutral fields (`outcome_document`)."""
        return outcome_from_document(result)

    def resolve_by(self, battle_input: Json,
                   resolver: Callable[[Any], Any]) -> Outcome | Json:
        """Default: the input is the ruleset's own document; the resolver returns an
        outcome (or a result document)."""
        answer: Outcome | Json = resolver(battle_input)
        return answer

    def probe(self, rule: str, args: Json, dice: Dice) -> Json:
        raise RulesetError(f"{type(self).__name__} has no rule probe {rule!r}.")

    def probes(self) -> tuple[str, ...]:
        """The names `probe` accepts."""
        return ()

    def sections(self) -> list[Json]:
        """The seed's sections: `[{"section": title, "reason": None or why no case}]`."""
        return []

    def sample_battle(self, seed: int = 0) -> Json:
        """A typical battle input (two sides of a few units)."""
        raise RulesetError(f"{type(self).__name__} has no sample battle.")

    def name_lists(self) -> dict[str, tuple[str, ...]]:
        """What the campaign names this ruleset's pilots and units from (issue 26):
        `{"ranks", "first", "last", "nicknames"}`; empty: `campaign.rules.names`'s
        defaults. Names are drawn from a hash, never from the battle dice."""
        return {}

    def narrate(self, entry: Json, names: Mapping[str, Mapping[str, str]]) -> Json:
        """One log entry (or `replay` step) as a person reads it: `{"text": a sentence
        with the names players know, "dice": the raw dice for a reader who unfolds them
        ("" when none)}`. `names` maps "unit", "side" and "building" to {log id as a
        string: name}. Default: the step's own text with its sides named ("side 6" ->
        "bob", "(10: 1, 6: 3)" -> "(alice 1, bob 3)"), its rolls apart."""
        rolls = entry.get("rolls") or []
        text = str(entry.get("text") or str(entry.get("event", "")).replace("_", " "))
        sides = names.get("side") or {}
        text = _SIDE.sub(lambda m: sides.get(m.group(1)) or m.group(0), text)
        text = _SIDE_ROLL.sub(lambda m: f"{sides[m.group(1)]} {m.group(2)}"
                              if m.group(1) in sides else m.group(0), text)
        return {"text": prose(text),
                "dice": f"Dice rolled {', '.join(str(r) for r in rolls)}." if rolls else ""}

    def board(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> Board | None:
        """Default: no board replay (the page shows the ruleset's own log steps)."""
        return None

    def tabletop_result(self, battle_input: Json, report: Json, *, seed: int) -> Json:
        """Default: the report checked against `tabletop_schema` (the first problems
        named), then by `outcome_from_report` against the battle; its `document`, the
        report kept as the log."""
        me = cast("Ruleset", self)
        validator = Draft202012Validator(me.tabletop_schema())
        problems = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
        if problems:
            where = "/".join(str(p) for p in problems[0].absolute_path) or "the report"
            raise RulesetError(f"{where}: {problems[0].message}", code="invalid_report",
                               fields={where: [e.message for e in problems[:5]]})
        try:
            outcome = me.outcome_from_report(battle_input, report)
        except RulesetError as exc:
            raise RulesetError(str(exc), code=exc.code or "invalid_report",
                               fields=exc.fields) from exc
        document = me.document(outcome)
        document["log"] = [{"event": "tabletop", "entered": report}]
        return document

    def odds_input(self, question: OddsQuestion) -> Json:
        """Default (R-BJ-8 for a ruleset that sells whole units): the player's units
        against the winner's surviving units of the last battle on the territory, as its
        public result recorded them, and the enemy described as `{"key", "state"}` from
        the catalogue; built by `forces`, stored with the ruleset's name and the side
        that is the player's."""
        me = cast("Ruleset", self)
        options = dict(question.battlefield.options)
        enemies = _revealed_field_units(me, question, options)
        described = question.described
        if described is not None:
            if not isinstance(described, list):
                raise RulesetError("enemy must be a list of units.", code="invalid_enemy")
            for i, e in enumerate(described):
                if not isinstance(e, dict):
                    raise RulesetError("Each enemy is an object with a catalogue 'key'.",
                                       code="invalid_enemy")
                enemies.append(_catalogue_unit(me, question.enemy_player, i, e.get("key"),
                                               e.get("state"), options=options))
        if not enemies:
            raise RulesetError("No enemy is known on that territory; describe one with "
                               "\"enemy\".", code="no_known_enemy")
        field_ = question.battlefield
        field_ = replace(field_, sides={**field_.sides, question.enemy_player: tuple(enemies)})
        return {"ruleset": me.name, "you": str(question.player), "battle": me.forces(field_)}

    def simulation(self, battle_input: Json) -> Simulation | None:
        """One simulated battle of `battle_input` for the Monte Carlo estimate (None: the
        ruleset estimates its odds in its own way, in one job). A ruleset that gives one
        has its estimate split into parts (`odds_chunks`), each a job of its own."""
        return None

    def odds(self, battle_input: Json, *, simulations: int, seed: int) -> Json:
        """Default: the seeded Monte Carlo estimate of `simulation`'s battles."""
        simulate = self.simulation(battle_input)
        if simulate is None:
            raise RulesetError(f"{type(self).__name__} has no odds.")
        return monte_carlo_odds(battle_input, simulations=simulations, seed=seed,
                                simulate=simulate)

    def odds_estimate(self, request: Json, *, simulations: int, seed: int,
                      workers: int = 1) -> Json:
        """Default: `odds` of the stored battle, its sides renamed `OWN` and `ENEMY`."""
        me = cast("Ruleset", self)
        return self._as_yours(request, me.odds(request["battle"], simulations=simulations,
                                               seed=seed))

    @staticmethod
    def _as_yours(request: Json, estimate: Json) -> Json:
        you = request["you"]

        def named(values: Any) -> Any:
            if not isinstance(values, dict):
                return values
            return {(OWN if k == you else "none" if k == "none" else ENEMY): v
                    for k, v in values.items()}

        return {k: named(v) if k in ("win_probability", "expected_units_lost",
                                     "expected_hit_points_lost") else v
                for k, v in estimate.items()}

    def odds_chunks(self, request: Json, simulations: int) -> list[tuple[int, int]]:
        """Default: parts of ODDS_PART simulations when the ruleset has a `simulation`,
        else one job."""
        return odds_parts(simulations) if self.simulation(request["battle"]) else []

    def odds_chunk(self, request: Json, seed: int, chunk: tuple[int, int]) -> Json:
        simulate = self.simulation(request["battle"])
        if simulate is None:
            raise RulesetError(f"{type(self).__name__} estimates its odds in one job.")
        return monte_carlo_counts(request["battle"], seed=seed, part=chunk,
                                  simulate=simulate)

    def odds_merge(self, request: Json, simulations: int, seed: int,
                   counts: Iterable[Json]) -> Json:
        """The parts' counts merged: exactly `odds_estimate`'s answer."""
        if self.simulation(request["battle"]) is None:
            raise RulesetError(f"{type(self).__name__} estimates its odds in one job.")
        return self._as_yours(request, monte_carlo_merge(simulations=simulations, seed=seed,
                                                         counts=counts))


def _catalogue_unit(ruleset: Ruleset, player: int, index: int, key: Any, state: Any = None,
                    uid: int | None = None, name: str | None = None,
                    options: Mapping[str, Any] | None = None) -> FieldUnit:
    entry = next((e for e in ruleset.catalogue(options=options) if e.key == key), None)
    if entry is None:
        raise RulesetError(f"Enemy {index + 1}: no unit {key!r} in the {ruleset.title} "
                           "catalogue.", code="invalid_enemy")
    if state is not None and not isinstance(state, dict):
        raise RulesetError(f"Enemy {index + 1}: 'state' is an object.", code="invalid_enemy")
    return FieldUnit(id=uid if uid is not None else -(index + 1), player=player,
                     key=entry.key, name=name or f"enemy {entry.name}",
                     profile=dict(entry.profile),
                     state={**ruleset.initial_state(entry.key), **(state or {})})


def _revealed_field_units(ruleset: Ruleset, question: OddsQuestion,
                          options: Mapping[str, Any]) -> list[FieldUnit]:
    """R-BJ-8 for every ruleset: the winner's surviving units of the last battle fought on
    the territory, as that battle's public result recorded them."""
    last = question.last
    if last is None:
        return []
    fates = {int(u["id"]): u for u in (last.get("result") or {}).get("units", [])}
    found = []
    for side in last.get("sides") or ():
        if side["player"] != last.get("winner"):
            continue
        for i, unit in enumerate(side["units"]):
            fate = fates.get(int(unit["id"]))
            if fate is None or fate.get("fate") not in ("intact", "damaged"):
                continue
            found.append(_catalogue_unit(ruleset, question.enemy_player, i, unit["model"],
                                         fate.get("state"), uid=int(unit["id"]),
                                         name=unit.get("name"), options=options))
    return found


# --- the board replay: one neutral shape every ruleset fills and the page draws ---------

Point = tuple[float, float]


@dataclass
class Marker:
    """A unit (or building) on one frame of a board replay: where it stands in the
    board's own units, its side (a player id as a string) and what became of it."""

    id: str
    pos: Point
    side: str = ""
    state: str = "active"  # active, destroyed, retreated
    hp: int | None = None  # hit points left, once the unit has taken damage


@dataclass
class Frame:
    """The board at the end of one step of the battle (`turn` 0: the deployment):
    every marker, the moves (arrows) and attacks (lines) made in the step, who acted and
    who was attacked, and the step's log entries."""

    turn: int
    round: int
    side: str
    units: dict[str, Marker]
    buildings: dict[str, Marker]
    moves: list[tuple[str, Point, Point]] = field(default_factory=list)
    attacks: list[tuple[Point, Point]] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)
    actors: set[str] = field(default_factory=set)
    targets: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Cell:
    """One cell of a board drawn cell by cell (a hex), centre in board units."""

    x: float
    y: float
    terrain: str = ""


@dataclass
class Board:
    """A ruleset's battlefield and its replay frames, in one shape for every ruleset.

    `width` x `height` in the board's own units (`unit`: inches, cm, hexes); `y_up` when
    y grows away from the viewer (drawn flipped); `margin` a strip around the board
    (Unlimit3d 8's retreat corridor) named by `margin_label`. `grid` is "square" (lines
    every `cell` units), "hex" (`cells`, hexes of radius `cell`) or "axis" (a
    distance between the sides, one lane per unit: `axis_label` names it). A frame is
    one `step` ("round", or "turn" when a round holds several turns); `rounds` is how
    many rounds were fought and `round_word` what the ruleset calls one ("round",
    "turn")."""

    width: float
    height: float
    frames: list[Frame]
    rounds: int
    grid: Literal["square", "hex", "axis"] = "square"
    cell: float = 0.0
    cells: tuple[Cell, ...] = ()
    unit: str = ""
    y_up: bool = False
    margin: float = 0.0
    margin_label: str = ""
    axis_label: str = ""
    step: Literal["round", "turn"] = "round"
    round_word: str = "round"


def board_frames(initial: Mapping[str, Point], sides: Mapping[str, str],
                 log: Sequence[Json], *, step_key: str,
                 apply: Callable[[Json, dict[str, Marker], Frame], None],
                 outcome: Json | None = None) -> list[Frame]:
    """Fold a log into frames, one per value of `step_key` ("turn" or "round"), frame 0
    the deployment at `initial`. `apply(entry, units, frame)` moves the markers and notes
    the frame's moves, attacks, actors and targets for one entry. The last frame shows
    the fates of the stored outcome (destroyed, retreated), so it agrees with the
    report."""
    units = {uid: Marker(uid, pos, sides.get(uid, "")) for uid, pos in initial.items()}
    out = [Frame(turn=0, round=0, side="", units=_copy_markers(units), buildings={})]
    for entry in log:
        if not isinstance(entry, dict):
            continue
        step = int(entry.get(step_key) or 0)
        frame = out[-1]
        if step != frame.turn:
            frame = Frame(turn=step, round=step, side=str(entry.get("side") or ""),
                          units={}, buildings={})
            out.append(frame)
        frame.entries.append(entry)
        apply(entry, units, frame)
        frame.units = _copy_markers(units)
    for fate in (outcome or {}).get("units") or ():
        if isinstance(fate, dict) and fate.get("fate") in ("destroyed", "retreated"):
            marker = out[-1].units.get(str(fate.get("id")))
            if marker is not None and marker.state == "active":
                marker.state = str(fate["fate"])
    return out


def note_attack(frame: Frame, units: Mapping[str, Marker], actor: Any, target: Any) -> None:
    """An attack of `actor` on `target` (unit ids) drawn in `frame`."""
    a, t = units.get(str(actor)), units.get(str(target))
    if a is not None:
        frame.actors.add(a.id)
    if a is not None and t is not None:
        frame.attacks.append((a.pos, t.pos))
        frame.targets.add(t.id)


def note_move(frame: Frame, units: Mapping[str, Marker], actor: Any, to: Point) -> None:
    """`actor` moves to `to`, drawn as an arrow in `frame`."""
    m = units.get(str(actor))
    if m is not None and m.pos != to:
        frame.moves.append((m.id, m.pos, to))
        m.pos = to
    if m is not None:
        frame.actors.add(m.id)


def _copy_markers(markers: Mapping[str, Marker]) -> dict[str, Marker]:
    return {k: Marker(m.id, m.pos, m.side, m.state, m.hp) for k, m in markers.items()}


def axis_lanes(sides: Mapping[str, Sequence[Json]], span: float, key: str = "x"
               ) -> tuple[dict[str, Point], dict[str, str]]:
    """Starting points on an axis board `span` long: x the unit's distance on the axis
    (`key`), y its lane (one per unit, an empty lane between the sides, the lanes spread
    so the board is about as deep as it is long), and each unit's side."""
    lanes = sum(len(units) for units in sides.values()) + max(len(sides) - 1, 0)
    spacing = max(span, 1.0) / (lanes + 1)
    pos: dict[str, Point] = {}
    owner: dict[str, str] = {}
    lane = 0
    for side, units in sides.items():
        for u in units:
            pos[str(u["id"])] = (float(u.get(key) or 0), (lane + 1) * spacing)
            owner[str(u["id"])] = str(side)
            lane += 1
        lane += 1
    return pos, owner


def odd_row_centre(col: float, row: float) -> Point:
    """The centre of an odd-row offset hex (column, row) of radius 1, pointy top."""
    return (math.sqrt(3) * (col + 0.5 * (int(row) & 1) + 0.5), 1.5 * row + 1.0)


def run_probe(table: Mapping[str, Callable[..., Json]], rule: str, args: Json, dice: Dice, *,
              title: str, errors: tuple[type[Exception], ...] = (TypeError, KeyError)
              ) -> Json:
    """`Ruleset.probe` for a ruleset whose probes are a table of functions `(dice, **args)`:
    an unknown rule, or arguments the rule refuses (`errors`), is a RulesetError."""
    try:
        fn = table[rule]
    except KeyError:
        raise RulesetError(f"{title} has no probe {rule!r}.") from None
    try:
        answer: Json = fn(dice, **args)
    except errors as exc:
        raise RulesetError(f"probe {rule}: {exc}") from exc
    return answer


#: One simulated battle for `monte_carlo_odds`: (the winning side or None, and for each
#: unit its side and whether it was lost).
Simulation = Callable[[Dice], tuple[str | None, Iterable[tuple[str, bool | int]]]]


#: Simulations per part of a chunked estimate (`odds_parts`): each part is a job of its
#: own, so two workers share an estimate.
ODDS_PART = 250


def odds_parts(simulations: int) -> list[tuple[int, int]]:
    """The (start, count) parts of a `simulations`-battle estimate, in order."""
    if simulations <= 0:
        raise RulesetError("simulations must be positive")
    return [(start, min(ODDS_PART, simulations - start))
            for start in range(0, simulations, ODDS_PART)]


def monte_carlo_counts(battle_input: Json, *, seed: int, part: tuple[int, int],
                       simulate: Simulation) -> Json:
    """The counts of simulations `start` .. `start + count - 1` of a seeded estimate: the
    i-th battle is played with the i-th 32-bit seed drawn from `Random(seed)` whatever
    the part it falls in, so the parts merged (`monte_carlo_merge`) are the estimate run
    in one go, exactly."""
    start, count = part
    seeds = random.Random(seed)
    for _ in range(start):
        seeds.getrandbits(32)
    sides = [str(s) for s in battle_input["sides"]]
    wins = dict.fromkeys([*sides, "none"], 0)
    lost = dict.fromkeys(sides, 0)
    for _ in range(count):
        winner, units = simulate(Dice(random.Random(seeds.getrandbits(32))))
        wins[winner if winner is not None else "none"] += 1
        for side, gone in units:
            lost[side] += int(gone)
    return {"wins": wins, "lost": lost}


def monte_carlo_merge(*, simulations: int, seed: int, counts: Iterable[Json]) -> Json:
    """The estimate the parts' counts add up to: each side's chance to win ("none":
    nobody won) and units expected lost."""
    wins: dict[str, int] = {}
    lost: dict[str, int] = {}
    for part in counts:
        for side, n in part["wins"].items():
            wins[side] = wins.get(side, 0) + int(n)
        for side, n in part["lost"].items():
            lost[side] = lost.get(side, 0) + int(n)
    return {"n": simulations, "seed": seed,
            "win_probability": {k: v / simulations for k, v in wins.items()},
            "expected_units_lost": {k: v / simulations for k, v in lost.items()}}


def monte_carlo_odds(battle_input: Json, *, simulations: int, seed: int,
                     simulate: Simulation) -> Json:
    """The odds a ruleset reports (`Ruleset.odds`): `simulations` battles, the i-th played
    with the i-th 32-bit seed drawn from `Random(seed)`, so the same seed gives the same
    answer; each side's chance to win ("none": nobody won) and units expected lost."""
    if simulations <= 0:
        raise RulesetError("simulations must be positive")
    counts = monte_carlo_counts(battle_input, seed=seed, part=(0, simulations),
                                simulate=simulate)
    return monte_carlo_merge(simulations=simulations, seed=seed, counts=[counts])


def outcome_document(outcome: Outcome) -> Json:
    """A neutral outcome as a JSON result document (for rulesets whose own result is
    the neutral one); `outcome_from_document` reads it back."""
    return {
        "winner": outcome.winner, "rounds": outcome.rounds, "end_reason": outcome.end_reason,
        "units": [{"id": f.unit, "side": f.player, "fate": f.fate, "state": dict(f.state),
                   "captured_by": f.captured_by, "detail": dict(f.detail)}
                  for f in outcome.units],
        "xp": [{"unit": x.unit, "kind": x.kind, "amount": x.amount, "crew": x.crew}
               for x in outcome.xp],
        "buildings_destroyed": list(outcome.buildings_destroyed),
        "building_hit_points": {str(k): v for k, v in outcome.building_hit_points.items()},
        "effects": [{"kind": e.kind, "data": e.data} for e in outcome.effects],
        **{k: v for k, v in outcome.result.items()
           if k not in ("winner", "rounds", "end_reason", "units", "xp", "effects",
                        "buildings_destroyed", "building_hit_points", "log")},
        "log": list(outcome.log),
    }


def outcome_from_document(doc: Json) -> Outcome:
    """The neutral outcome a result document written by `outcome_document` holds."""
    try:
        winner = doc.get("winner")
        return Outcome(
            winner=int(winner) if winner is not None else None,
            units=tuple(UnitFate(unit=int(u["id"]), player=int(u["side"]), fate=u["fate"],
                                 state=dict(u.get("state") or {}),
                                 captured_by=u.get("captured_by"),
                                 detail=dict(u.get("detail") or {}))
                        for u in doc.get("units") or ()),
            xp=tuple(XpAward(unit=int(x["unit"]), kind=str(x["kind"]),
                             amount=int(x.get("amount", 1)), crew=x.get("crew"))
                     for x in doc.get("xp") or ()),
            buildings_destroyed=tuple(int(b) for b in doc.get("buildings_destroyed") or ()),
            building_hit_points={int(k): int(v) for k, v in
                                 (doc.get("building_hit_points") or {}).items()},
            effects=tuple(Effect(str(e["kind"]), dict(e.get("data") or {}))
                          for e in doc.get("effects") or ()),
            rounds=int(doc.get("rounds") or 0), end_reason=str(doc.get("end_reason") or ""),
            result={k: v for k, v in doc.items() if k != "log"},
            log=tuple(doc.get("log") or ()))
    except (KeyError, TypeError, ValueError) as exc:
        raise RulesetError(f"This result document cannot be read: {exc}.") from exc
