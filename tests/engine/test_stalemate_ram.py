"""Weaponless vehicles ram; a battle nobody can win ends by the stalemate rule.

Seed, "Ramming (pilot)": "Ramming is making one vehicle run into another. ... damages are
weight class of the attacker + every 2 inches crossed + active die result" (R-BAT-33).
Seed, "Tactical phase": units "engage into battle until all the units of one side are
either destroyed or retreat to an adjacent territory" (R-BAT-32: a side that cannot hurt
the other retreats; after `stalemate_rounds` quiet rounds the attackers withdraw).
"""

from battles.rulesets.unlimit3d8.engine.actions import Move, Ram, RangedAttack
from battles.rulesets.unlimit3d8.engine.geometry import distance
from battles.rulesets.unlimit3d8.engine.model import BattleInput, UnitInput
from battles.rulesets.unlimit3d8.engine.policy import BattleView, DefaultPolicy, _TargetInfo
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle

from .helpers import BLUE, RED, battle, scripted, state, unit


def lead_example(**options: object) -> BattleInput:
    return BattleInput(territory=1, defender="b", seed=3, options=dict(options), sides={
        "a": (UnitInput(id=1, side="a", name="A", vehicle="golem", pilot_class="soldier",
                        pilot_level=1),),
        "b": (UnitInput(id=2, side="b", name="B", vehicle="lycaon", pilot_class="soldier",
                        pilot_level=1),)})


def test_weaponless_vehicles_close_in_and_ram():
    """"Ramming is making one vehicle run into another": two unarmed vehicles do not pass
    for 200 rounds; they close in and ram until one is destroyed."""
    result = resolve_battle(lead_example())
    events = [e["event"] for e in result.log]
    assert "ram" in events and "damage" in events
    assert result.end_reason == "side_eliminated"
    assert result.rounds < 30
    assert any(u.fate == "destroyed" for u in result.units)
    first_moves = [e for e in result.log if e["event"] == "move"][:4]
    assert first_moves and all(e["distance"] == 2.0 and e["cdt"] == 0 for e in first_moves)


def test_weaponless_rammer_moves_toward_its_target_then_rams():
    """"damages are weight class of the attacker + every 2 inches crossed + active die":
    out of reach the rammer advances toward the target; within its max move it rams."""
    far = state([unit(1, RED, "golem", (), at=(16.0, 20.0)),
                 unit(2, BLUE, "lycaon", (), at=(16.0, 4.0))])
    policy = DefaultPolicy(BLUE)
    action = policy.choose(BattleView(far), BLUE)
    assert isinstance(action, Move)
    assert distance(action.to, (16.0, 20.0)) < distance((16.0, 4.0), (16.0, 20.0))
    near = state([unit(1, RED, "golem", (), at=(16.0, 20.0)),
                  unit(2, BLUE, "lycaon", (), at=(16.0, 14.0))])
    action = DefaultPolicy(BLUE).choose(BattleView(near), BLUE)
    assert isinstance(action, Ram) and action.target == 1


def test_no_charge_when_the_ram_cannot_hurt():
    """Difficulty is Base defense: a level-1 scientist's Pilot (x3.5 at best = 28) never
    reaches a level-8 soldier's exo armour (base defense 29), so it does not charge."""
    st = state([unit(1, RED, "shark", (), level=8, at=(16.0, 20.0)),
                unit(2, BLUE, "golem", ("designator",), cls="scientist", at=(16.0, 4.0))])
    policy = DefaultPolicy(BLUE)
    foes = list(st.targetable_enemies(BLUE))
    infos = {id(t): _TargetInfo(st, t) for t in foes}
    assert policy._ram_charge(st, st.units[2], foes, infos) is None


def test_sides_that_do_nothing_end_by_stalemate_not_the_round_limit():
    """R-BAT-32: nobody hurts anybody (units with only equipment, players that pass): after
    `stalemate_rounds` quiet rounds the attackers withdraw and the defender holds."""
    b = battle([unit(1, RED, "lycaon", ("designator",)),
                unit(2, BLUE, "golem", ("designator",))])
    result = resolve_battle(b, policy_factory=scripted({}))
    assert result.end_reason == "stalemate"
    assert result.rounds == 6  # the default option, far below max_rounds (200)
    assert result.winner == RED
    fates = {u.id: u.fate for u in result.units}
    assert fates == {1: "intact", 2: "retreated"}
    stalemate = [e for e in result.log if e["event"] == "stalemate"]
    assert len(stalemate) == 1 and "R-BAT-32" in stalemate[0]["detail"]
    assert [e["reason"] for e in result.log if e["event"] == "withdraw"] == ["stalemate"]
    off = resolve_battle(battle([unit(1, RED, "lycaon", ("designator",)),
                                 unit(2, BLUE, "golem", ("designator",))],
                                stalemate_rounds=0, max_rounds=30),
                         policy_factory=scripted({}))
    assert off.end_reason == "max_rounds" and off.rounds == 30


def test_default_player_that_cannot_hurt_the_enemy_stalls_out():
    """"a side that cannot hurt the other retreats": a level-1 scientist's Golem with only
    a designator cannot ram a level-8 soldier's exo armour (base defense 29 > 28); it
    closes in, then nothing happens and the stalemate rule ends the battle."""
    b = battle([unit(1, RED, "shark", (), level=8),
                unit(2, BLUE, "golem", ("designator",), cls="scientist")])

    def factory(side: str, options: dict) -> object:
        return DefaultPolicy(side, options) if side == BLUE else scripted({})(side, options)

    result = resolve_battle(b, policy_factory=factory)
    assert result.end_reason == "stalemate" and result.rounds < 40
    assert {u.id: u.fate for u in result.units} == {1: "intact", 2: "retreated"}
    assert not [e for e in result.log if e["event"] == "ram"]


def test_missed_attacks_are_not_a_stalemate():
    """Attack rolls are fighting: quiet rounds are counted from the last one (R-BAT-32)."""
    b = battle([unit(1, RED, "lycaon", ("designator",), at=(16.0, 20.0)),
                unit(2, BLUE, "lycaon", ("machine_gun",), at=(16.0, 4.0))],
               seed=5, stalemate_rounds=3)
    shots = [RangedAttack(2, "machine_gun", 1, "unit") for _ in range(4)]
    result = resolve_battle(b, policy_factory=scripted({BLUE: shots}))
    rolls = [e for e in result.log if e["event"] == "roll"]
    # four misses, five rounds apart (the machine gun's cool-down) with a 3-round rule:
    # every shot resets the count, and the shooter's cool-down is waited for.
    assert [(e["round"], e["success"]) for e in rolls] == [
        (1, False), (6, False), (11, False), (16, False)]
    assert not [e for e in result.log if e["event"] == "damage"]
    assert result.end_reason == "stalemate"
    assert result.rounds >= rolls[-1]["round"] + 3


def test_stalemate_is_deterministic():
    first = resolve_battle(lead_example(stalemate_rounds=2)).to_dict()
    assert first == resolve_battle(lead_example(stalemate_rounds=2)).to_dict()
