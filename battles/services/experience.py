"""Experience and levels.

Seed, "Level and experience": "After surviving a battle, a character is awarded one
Experience Point (XP). In addition, the characters may obtain more XP depending on what
they've done during the turn. This way of gaining experience is unique to each character
class." Levels: "Level 1 2 3 4 5 6 7 8 / XP 5 10 15 20 25 30 35 40", read by
`campaign.rules.tables.level_for_xp` (R-TAB-2). The bonus lists are the pilot-class
tables' (`PilotClassSpec.bonus_xp`); exploration discoveries call `award_xp` too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from campaign.models import Campaign
from campaign.rules import tables as T
from campaign.services.journal import record_private
from economy.services.battle_effects import save_experience

if TYPE_CHECKING:
    from economy.models import Operative
    from territories.models import Exploration

SURVIVED = "survived"


battle_kind = T.battle_kind


#: The XP event kinds a pilot class earns a bonus for (the seed's lists).
bonus_kinds = T.bonus_kinds


def xp_reading(campaign: Campaign) -> str:
    return getattr(campaign.settings, "xp_table_reading", "to_next_level")


@dataclass(frozen=True)
class Award:
    operative_id: int
    kinds: tuple[str, ...]
    xp: int
    total: int
    level_before: int
    level: int


def award_xp(*, operative: Operative, kinds: Iterable[str], campaign: Campaign,
             context: dict[str, Any] | None = None) -> Award:
    """Add one XP per kind to `operative` (a locked or freshly loaded row), raise its level
    by the XP table, and tell its player (a private journal entry). Call inside a
    transaction."""
    award, data = grant_xp(operative=operative, kinds=kinds, campaign=campaign,
                           context=context)
    save_experience(operative)
    record_private(player=operative.player, kind="xp_awarded", data=data)
    return award


def grant_xp(*, operative: Operative, kinds: Iterable[str], campaign: Campaign,
             context: dict[str, Any] | None = None) -> tuple[Award, dict[str, Any]]:
    """`award_xp` without the writes: the operative's XP and level are raised in memory;
    returns the award and the data of its player's private `xp_awarded` entry. The caller
    saves the operative and writes the entry (a battle's recording does both in bulk)."""
    kinds = tuple(kinds)
    gained = len(kinds) * T.BONUS_XP
    before = operative.level
    operative.xp += gained
    reached = T.level_for_xp(operative.xp, reading=xp_reading(campaign))
    operative.level = max(operative.level, reached)
    award = Award(operative.pk, kinds, gained, operative.xp, before, operative.level)
    data: dict[str, Any] = {"operative": operative.pk, "class": operative.klass,
                            "kinds": list(kinds), "xp": gained, "total": operative.xp,
                            "level": operative.level, **(context or {})}
    if operative.level > before:
        line = T.skill_line(operative.klass.lower(), operative.level,
                            bandit_level8_row=campaign.settings.bandit_level8_row)
        data["level_up"] = {"from": before, "to": operative.level,
                            "skills": {"pilot": line.pilot, "fight": line.fight,
                                       "tech": line.tech, "will": line.will,
                                       "init": line.init}}
    return award, data


def battle_xp_kinds(*, class_key: str, events: Iterable[str], survived: bool) -> list[str]:
    """What one pilot earns from one battle: one XP for surviving, plus each of its class's
    bonus kinds that happened, at most once per battle per kind (R-XP-1). Kinds outside the
    class's list earn nothing."""
    allowed = bonus_kinds(class_key)
    kinds = [SURVIVED] if survived else []
    seen: set[str] = set()
    for kind in events:
        if kind in allowed and kind not in seen:
            seen.add(kind)
            kinds.append(kind)
    return kinds


# R-XP-3: "xenotech material" is any xenotechnological find (elements, artifact, craft).
XENOTECH_DISCOVERIES = frozenset({"xenotech", "artifact", "xeno_craft"})


def discovery_kinds(exploration: Exploration) -> list[str]:
    """The bonus kinds an exploration earns its explorers (seed, Scientist: "They are
    part of the exploration of a territory where xenotech material is discovered";
    Worker: "They are part of a team that discovers an exceptionally pure depot of
    mineral")."""
    kinds = []
    if exploration.discovery in XENOTECH_DISCOVERIES:
        kinds.append("xenotech_discovery")
    if exploration.pure:
        kinds.append("pure_deposit_discovery")
    return kinds


def award_discovery_xp(*, exploration: Exploration, operatives: Iterable[Operative],
                       campaign: Campaign, context: dict[str, Any] | None = None) -> list[Award]:
    """One XP to each explorer whose class lists what the exploration found (R-XP-3):
    the pilots of the units that took the territory. Call inside a transaction with the
    operatives' rows as the caller holds them (they are saved here)."""
    granted = grant_discovery_xp(exploration=exploration, operatives=operatives,
                                 campaign=campaign, context=context)
    for operative, _award, data in granted:
        save_experience(operative)
        record_private(player=operative.player, kind="xp_awarded", data=data)
    return [award for _, award, _ in granted]


def grant_discovery_xp(*, exploration: Exploration, operatives: Iterable[Operative],
                       campaign: Campaign, context: dict[str, Any] | None = None
                       ) -> list[tuple[Operative, Award, dict[str, Any]]]:
    """`award_discovery_xp` without the writes: each earning explorer's XP and level are
    raised in memory; returns, in the explorers' order, each one with its award and the
    data of its player's private `xp_awarded` entry. The caller saves the operatives and
    writes the entries (a battle's recording does both with the rest, in bulk)."""
    found = discovery_kinds(exploration)
    granted = []
    seen: set[int] = set()
    for op in operatives:
        if op is None or op.pk in seen or not op.alive:
            continue
        seen.add(op.pk)
        kinds = [k for k in found if k in bonus_kinds(op.klass.lower())]
        if kinds:
            award, data = grant_xp(operative=op, kinds=kinds, campaign=campaign,
                                   context={"exploration": exploration.pk,
                                            "territory": exploration.territory_id,
                                            **(context or {})})
            granted.append((op, award, data))
    return granted
