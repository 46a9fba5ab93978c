"""The default policy's shortcuts (issue 32) choose what the plain search chose: the
ranking skips a target beyond every weapon's listed range (green hexes only halve a
range, R-30-8; a melee blow reaches the adjacent hex), the movement choice compares its
key item by item. Each is checked against the plain computation at every choice of
seeded battles, so a wrong bound fails here, not as a drift in the golden battles."""

from __future__ import annotations

import random

from battles.rulesets.thirtymm import actions as A
from battles.rulesets.thirtymm import engine as E
from battles.rulesets.thirtymm import policy as P
from battles.rulesets.thirtymm import rules as R
from battles.rulesets.thirtymm.ruleset import RULESET
from campaign.rules import hexgrid as H
from campaign.rules.dice import Dice

SEEDS = range(12)


def test_green_hexes_never_lengthen_a_range():
    """R-30-8: "Weapon range is halved when firing through green hexes": the listed range
    bounds the range through any number of them, for every unit type."""
    for utype in ("terrestrial", "aquatic", "aerial", "mech", "infantry"):
        for base in range(13):
            for greens in range(8):
                assert R.weapon_range(base, unit_type=utype, green_between=greens) <= base


def plain_ranking(b: E.Battle, u: E.Unit, melee: bool) -> list[P.Attack]:
    """Every attack `E._reach`/`E._melee_reach` allow, valued by `E._expected`."""
    if melee and "hold" in u.status:
        return []
    options = [*u.usable("melee"), A.BASIC] if melee else u.usable("ranged")
    found = []
    for target in b.enemies(u):
        for w in options:
            basic = w["key"] == "basic"
            cost = int(w["ap"]) if basic else E._weapon_ap(u, w)
            if melee:
                if E.hex_distance(u.at, target.at) != 1 or not E._melee_reach(b, u, w, target):
                    continue
            elif not E._reach(b, u, w, target):
                continue
            value = E._expected(b, u, w, target, melee, basic) / cost
            found.append(((value, -cost, w["key"], -target.id), w, target))
    found.sort(key=lambda a: a[0], reverse=True)
    return found


def plain_destination(b: E.Battle, u: E.Unit, points: int, target: E.Unit
                      ) -> tuple[H.Hex, list[H.Hex]] | None:
    """`policy._destination` as a plain `min` over the whole movement search."""
    want = P.wanted_range(u)
    swims = bool({"cruise", "swim"} & set(u.systems))
    cover = want > 1 and bool(b.structures)
    taken = frozenset(o.at for o in b.units if o.alive and o is not u)
    reach, came = E.reachable(b, u, points, u.facing, taken)

    def key(h: H.Hex) -> tuple[int, int, int, int, tuple[int, int]]:
        colour = b.colour.get(h, "grey")
        hazard = 1 if colour == "red" or (colour == "dark_blue" and not swims) else 0
        blocked = 1 if cover and E._blocked(b, h, target.at) else 0
        return (hazard, max(0, E.hex_distance(h, target.at) - want) + blocked,
                -b.height.get(h, 0), reach[h], E.offset_of(h))

    dest = min(reach, key=key)
    return None if dest == u.at else (dest, E.path_to(came, u.at, dest))


def test_the_shortcuts_choose_what_the_plain_search_chose():
    ranked = moved = 0
    for seed in SEEDS:
        battle = RULESET.sample_battle(seed)
        play = A.start(battle, Dice(random.Random(seed)))
        while not play.over:
            turn = play.turn
            assert P.one_side_standing(play.b) == (len(play.b.standing()) < 2)
            side = A.actor(play)
            if play.turn is None and side is not None:
                mine = [u for u in play.b.units
                        if u.alive and u.id not in play.acted and u.side == str(side)]
                if mine:
                    plain = min(mine, key=lambda u: (E._nearest_enemy(play.b, u), u.id))
                    assert P.which_unit(play.b, play.acted, str(side)) is plain
            if turn is not None and turn.unit.alive:
                b, u = play.b, turn.unit
                for melee in (False, True):
                    got = P.ranked_attacks(b, u, melee, b.enemies(u))
                    assert got == plain_ranking(b, u, melee), (seed, u.id, melee)
                    ranked += len(got)
                goal = P.nearest(u, b.enemies(u))
                if goal is not None and turn.points > 0:
                    want = P.wanted_range(u)
                    swims = bool({"cruise", "swim"} & set(u.systems))
                    cover = want > 1 and bool(b.structures)
                    taken = frozenset(o.at for o in b.units if o.alive and o is not u)
                    got_dest = P._destination(b, u, turn.points, goal.at, want, taken, swims,
                                              cover)
                    assert got_dest == plain_destination(b, u, turn.points, goal), (seed, u.id)
                    moved += got_dest is not None
            A.perform(play, P.choose(play))
    assert ranked > 100 and moved > 20  # the battles did exercise both
