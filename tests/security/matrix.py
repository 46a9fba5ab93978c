"""The permission table of the whole API: every endpoint and method, with the request
the matrix makes and the checks that decide its answer, in the order the view makes
them.

API.md: "`400` for invalid input, `403` for a forbidden action on something the caller
may see, `404` for anything the caller may not see (never `403`, so existence does not
leak), `409` for an action that is not allowed in the current phase or state."

Every request acts on the *owner's* (alice's) objects: her units, her order, her
factory, her trade offer, her grant of passage, her odds request. So "owner" is the
role that should succeed, "other" (bob) is a player who must not see alice's private
objects, "plays" is an umpire who also has a seat, and must be treated as a player.

The expected answer for (role, phase) is the first check that refuses, else the
endpoint's `ok` class. Checks:

    AUTH      anonymous -> 401 (token authentication answers 401, not 403)
    MEMBER    not a member of the campaign -> 404
    PLAYER    a member without a seat (the non-playing umpire) -> 403
    UMPIRE    a member who is not the umpire -> 403
    PHASE(p)  the campaign is not running in one of the phases p -> 409
    EXISTS(o) the object o does not exist in this phase -> 404 for everybody
    HIDDEN(o) o is alice's private object: anyone but alice (and, where said, the
              non-playing umpire) -> 404, exactly as an id that does not exist
    ROLE(r, c) role r -> class c (a specific refusal, explained where it is used)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.security.world import PASSWORD, RUNNING_PHASES, World

Check = Callable[[str, str, World], "str | None"]


def AUTH(role: str, phase: str, world: World) -> str | None:
    return "401" if role == "anon" else None


def MEMBER(role: str, phase: str, world: World) -> str | None:
    return "404" if role == "nonmember" else None


def PLAYER(role: str, phase: str, world: World) -> str | None:
    return "403" if role == "umpire" else None


def UMPIRE(role: str, phase: str, world: World) -> str | None:
    return "403" if role in ("owner", "other") else None


def PHASE(*phases: str) -> Check:
    def check(role: str, phase: str, world: World) -> str | None:
        return None if phase in phases else "409"
    return check


RUNNING = PHASE(*RUNNING_PHASES)


def EXISTS(name: str) -> Check:
    def check(role: str, phase: str, world: World) -> str | None:
        return None if name in world.ids else "404"
    return check


def HIDDEN(name: str, *, umpire_sees: bool = False) -> Check:
    """alice's private object: 404 for others (as if it did not exist)."""
    seers = {"owner", *({"umpire"} if umpire_sees else set())}

    def check(role: str, phase: str, world: World) -> str | None:
        if name not in world.ids:
            return "404"
        return None if role in seers else "404"
    return check


def FOR(roles: tuple[str, ...], check: Check) -> Check:
    """`check`, applied to `roles` only."""
    def only(role: str, phase: str, world: World) -> str | None:
        return check(role, phase, world) if role in roles else None
    return only


def ROLE(roles: str | tuple[str, ...], code: str, *, phases: tuple[str, ...] | None = None
         ) -> Check:
    roles = (roles,) if isinstance(roles, str) else roles

    def check(role: str, phase: str, world: World) -> str | None:
        if role in roles and (phases is None or phase in phases):
            return code
        return None
    return check


@dataclass(frozen=True)
class Endpoint:
    path: Callable[[World], str]
    body: Callable[[World], Any] | None
    checks: tuple[Check, ...]
    ok: str = "2xx"
    why: str = ""

    def expected(self, role: str, phase: str, world: World) -> str:
        for check in self.checks:
            answer = check(role, phase, world)
            if answer is not None:
                return answer
        return self.ok


def c(w: World) -> str:
    return f"/api/campaigns/{w.cid}/"


def future() -> str:
    return (dt.datetime.now(dt.UTC) + dt.timedelta(days=2)).isoformat()


G, PO, PU, PA, DE = "GET", "POST", "PUT", "PATCH", "DELETE"
MEMBERS = (AUTH, MEMBER)
PLAYERS = (AUTH, MEMBER, PLAYER)
UMPIRES = (AUTH, MEMBER, UMPIRE)

# (url name, method) -> Endpoint. Every /api/ route must be here (test_inventory).
TABLE: dict[tuple[str, str], Endpoint] = {
    # --- accounts, rules, schema: not campaign-scoped ------------------------------
    ("api-users", PO): Endpoint(
        lambda w: "/api/users/",
        lambda w: {"username": "newcomer", "password": "Another-long-pass-42"}, ()),
    ("api-token", PO): Endpoint(
        lambda w: "/api/auth/token/", lambda w: {"username": "alice", "password": PASSWORD},
        ()),
    ("api-rules", G): Endpoint(lambda w: "/api/rules/", None, ()),
    ("api-rulesets", G): Endpoint(lambda w: "/api/rulesets/", None, ()),
    ("api-schema", G): Endpoint(lambda w: "/api/schema/", None, ()),
    ("api-docs", G): Endpoint(lambda w: "/api/docs/", None, ()),
    ("api-campaigns", G): Endpoint(lambda w: "/api/campaigns/", None, (AUTH,)),
    ("api-profile", G): Endpoint(lambda w: "/api/profile/", None, (AUTH,)),
    ("api-users-me", G): Endpoint(lambda w: "/api/users/me/", None, (AUTH,)),
    ("api-users-me", PA): Endpoint(lambda w: "/api/users/me/",
                                   lambda w: {"time_zone": "Europe/Paris"}, (AUTH,)),
    ("api-users-me-calendar-rotate", PO): Endpoint(
        lambda w: "/api/users/me/calendar/rotate/", None, (AUTH,)),
    ("api-campaign-import", PO): Endpoint(
        lambda w: "/api/campaigns/import/", lambda w: {"format": "something else"}, (AUTH,),
        ok="400", why="any signed-in user may import; this body is no export (invalid_import)"),
    ("api-profile", PA): Endpoint(lambda w: "/api/profile/",
                                  lambda w: {"time_zone": "Europe/Paris"}, (AUTH,)),
    ("api-campaigns", PO): Endpoint(
        lambda w: "/api/campaigns/",
        lambda w: {"name": "Another", "map": {"nodes": ["A", "B"], "edges": [["A", "B"]]}},
        (AUTH,)),
    # --- the campaign ----------------------------------------------------------------
    ("api-campaign", G): Endpoint(c, None, MEMBERS),
    ("api-campaign-settings", PA): Endpoint(
        lambda w: c(w) + "settings/", lambda w: {"reminder_seconds": 3600}, UMPIRES),
    ("api-campaign-join", PO): Endpoint(
        lambda w: c(w) + "join/", lambda w: {"invite": w.campaign.invite_code},
        (AUTH,
         # anyone may find a campaign in set-up (to join it); a running one they are
         # not in does not exist for them
         ROLE("nonmember", "404", phases=("commercial", "activity", "move", "tactical",
                                          "finished")),
         PHASE("setup"),
         ROLE(("plays", "owner", "other"), "409")),  # already joined
        why="the umpire may also take a seat while in set-up"),
    ("api-campaign-claim", PO): Endpoint(
        lambda w: c(w) + "claim/", lambda w: {"code": "not-a-claim-code"},
        (AUTH, ROLE(("plays", "owner", "other"), "409")),  # one seat each
        ok="404", why="issue 30 / R-SEC-3: anyone signed in may claim an imported seat "
        "with its code; a code that opens no seat reads like a campaign that does not "
        "exist"),
    ("api-campaign-start", PO): Endpoint(lambda w: c(w) + "start/", None,
                                         (*UMPIRES, PHASE("setup"))),
    ("api-campaign-advance", PO): Endpoint(lambda w: c(w) + "advance/", lambda w: {
        "turn": w.campaign.turn, "phase": w.campaign.phase or "commercial"},
                                           (*UMPIRES, RUNNING)),
    ("api-campaign-ready", PO): Endpoint(lambda w: c(w) + "ready/", None,
                                         (*PLAYERS, RUNNING)),
    # --- territories -------------------------------------------------------------------
    ("api-territories", G): Endpoint(lambda w: c(w) + "territories/", None, MEMBERS),
    ("api-territory", G): Endpoint(
        lambda w: c(w) + f"territories/{w.id('territory_Alpha')}/", None, MEMBERS),
    ("api-territory-svg", G): Endpoint(
        lambda w: c(w) + f"territories/{w.id('territory_Alpha')}/map.svg", None, MEMBERS),
    ("api-map-svg", G): Endpoint(lambda w: c(w) + "map.svg", None, MEMBERS),
    # issue 15: the static part of the map (cacheable) and the rest, read like the list
    ("api-map-static", G): Endpoint(lambda w: c(w) + "map/static/", None, MEMBERS),
    ("api-map-state", G): Endpoint(lambda w: c(w) + "map/state/", None, MEMBERS),
    ("api-map-graphml", G): Endpoint(lambda w: c(w) + "map.graphml", None, MEMBERS),
    ("api-map-json", G): Endpoint(lambda w: c(w) + "map.json", None, MEMBERS),
    ("api-passages", G): Endpoint(lambda w: c(w) + "passages/", None, MEMBERS),
    ("api-passages", PO): Endpoint(
        lambda w: c(w) + "passages/",
        lambda w: {"grantee": w.id("player_bob"), "territories": [w.id("home_alice")]},
        (*PLAYERS, ROLE("other", "400"),  # bob cannot grant himself passage
         RUNNING, ROLE("plays", "400")),  # not her territory to grant
    ),
    ("api-passages", DE): Endpoint(
        lambda w: c(w) + "passages/", lambda w: {"grantee": w.id("player_bob")},
        (*PLAYERS, ROLE("other", "400"), RUNNING),
        why="revoking one's own grants to bob: 200 {revoked: n} (0 for uma)"),
    ("api-passage", DE): Endpoint(
        lambda w: c(w) + f"passages/{w.id('passage')}/", None,
        (*MEMBERS, EXISTS("passage"), ROLE("plays", "404"), PLAYER, ROLE("other", "403"),
         RUNNING),
        why="bob (the grantee) and the umpire without a seat see the grant (R-ORD-10: "
            "not the umpire who plays); only alice revokes it"),
    ("api-destinations", G): Endpoint(
        lambda w: c(w) + f"destinations/?unit={w.id('unit_alice1')}", None,
        (*PLAYERS, HIDDEN("unit_alice1"))),
    # --- economy -----------------------------------------------------------------------
    ("api-me", G): Endpoint(lambda w: c(w) + "me/", None, PLAYERS),
    ("api-campaign-catalogue", G): Endpoint(lambda w: c(w) + "catalogue/", None, PLAYERS),
    ("api-buildings", G): Endpoint(lambda w: c(w) + "buildings/", None, PLAYERS),
    ("api-buildings", PO): Endpoint(
        lambda w: c(w) + "buildings/",
        lambda w: {"territory": w.id("home_alice") if "home_alice" in w.ids
                   else w.id("territory_Alpha"), "kind": "warehouse", "x": 15, "y": 15},
        (*PLAYERS, PHASE("commercial"), ROLE(("other", "plays"), "403"))),
    ("api-building-upgrades", PO): Endpoint(
        lambda w: c(w) + f"buildings/{w.id('factory_alice')}/upgrades/",
        lambda w: {"upgrade": "power_efficiency"},
        (*PLAYERS, PHASE("commercial"), HIDDEN("factory_alice"))),
    ("api-building-product", PU): Endpoint(
        lambda w: c(w) + f"buildings/{w.id('factory_alice')}/product/",
        lambda w: {"product": {"kind": "vehicle", "model": "lycaon"}},
        (*PLAYERS, PHASE("commercial", "activity"), HIDDEN("factory_alice"))),
    ("api-building-weapon", PU): Endpoint(
        lambda w: c(w) + f"buildings/{w.id('factory_alice')}/weapon/",
        lambda w: {"weapon": None},
        (*PLAYERS, PHASE("activity"), HIDDEN("factory_alice")), ok="400",
        why="alice's factory is not a turret"),
    ("api-activation", PU): Endpoint(
        lambda w: c(w) + f"territories/{w.id('home_alice')}/activation/",
        lambda w: {"active": [w.id("building_alice")]},
        (*PLAYERS, PHASE("activity"), ROLE(("other", "plays"), "403"))),
    ("api-shipments", PO): Endpoint(
        lambda w: c(w) + "shipments/",
        lambda w: {"territory": w.id("home_alice"),
                   "containers": [{"resource": "minerals", "units": 1, "refined": False}]},
        (*PLAYERS, PHASE("commercial"), ROLE(("other", "plays"), "403")),
        ok="400", why="alice holds no minerals on turn 1: refused for want of stock"),
    ("api-purchases", PO): Endpoint(
        lambda w: c(w) + "purchases/",
        lambda w: {"territory": w.id("home_alice"),
                   "item": {"kind": "operative", "class": "soldier"}},
        (*PLAYERS, PHASE("commercial"), ROLE(("other", "plays"), "403"))),
    ("api-artifacts", G): Endpoint(lambda w: c(w) + "artifacts/", None, PLAYERS),
    ("api-kits", G): Endpoint(lambda w: c(w) + "kits/", None, PLAYERS),
    ("api-artifact-sell", PO): Endpoint(
        lambda w: c(w) + f"artifacts/{w.id('home_alice')}/sell/", None,
        (*PLAYERS, PHASE("commercial")), ok="404",
        why="no artifact was found on alice's home: 'You hold no artifact' for everyone"),
    ("api-artifact-house", PO): Endpoint(
        lambda w: c(w) + f"artifacts/{w.id('home_alice')}/house/",
        lambda w: {"laboratory": w.id("factory_alice")},
        (*PLAYERS, PHASE("commercial", "activity")), ok="404",
        why="no artifact was found on alice's home"),
    ("api-messages", G): Endpoint(lambda w: c(w) + "messages/", None, MEMBERS),
    ("api-messages", PO): Endpoint(lambda w: c(w) + "messages/",
                                   lambda w: {"to": None, "text": "Greetings."}, PLAYERS),
    ("api-dice", G): Endpoint(lambda w: c(w) + "dice/", None, MEMBERS),
    ("api-verify", G): Endpoint(lambda w: c(w) + "verify/?turn=0&phase=setup", None,
                                (*MEMBERS, PHASE("commercial", "activity", "move",
                                                 "tactical", "finished")),
                                why="the start's dice are verifiable once it has started"),
    ("api-export", G): Endpoint(lambda w: c(w) + "export/", None,
                                (*UMPIRES, ROLE("plays", "403")),
                                why="an umpire who plays exports only with "
                                    "playing_umpire_sees_private (R-ORD-10)"),
    ("api-rollback", PO): Endpoint(lambda w: c(w) + "rollback/",
                                   lambda w: {"turn": 0, "phase": "commercial"},
                                   (*UMPIRES, RUNNING), ok="409",
                                   why="turn 0 is no rollback point: invalid_rollback (a real "
                                       "rollback would undo the world the matrix reads)"),
    ("api-sandbox", PO): Endpoint(lambda w: c(w) + "sandbox/",
                                  lambda w: {"turn": 0, "phase": "commercial"},
                                  MEMBERS, ok="409",
                                  why="turn 0 commercial is no kept phase start: "
                                      "invalid_sandbox (tests/core/test_sandbox.py makes one)"),
    ("api-sandbox-seat", PO): Endpoint(lambda w: c(w) + "sandbox/seat/",
                                       lambda w: {"player": 1}, MEMBERS, ok="409",
                                       why="the matrix's campaign is no sandbox: not_sandbox"),
    ("api-units", G): Endpoint(lambda w: c(w) + "units/", None, PLAYERS),
    ("api-unit", PA): Endpoint(
        lambda w: c(w) + f"units/{w.id('unit_alice2')}/",
        lambda w: {"pilot": w.id("pilot_alice2")},
        (*PLAYERS, PHASE("activity"), HIDDEN("unit_alice2"))),
    ("api-unit-repair", PO): Endpoint(
        lambda w: c(w) + f"units/{w.id('unit_alice2')}/repair/", None,
        (*PLAYERS, PHASE("commercial")), ok="409",
        why="an Unlimit3d 8 campaign: its vehicles are not repaired this way (no_repairs)"),
    ("api-pilots", G): Endpoint(lambda w: c(w) + "pilots/", None, PLAYERS),
    ("api-pilot", PA): Endpoint(
        lambda w: c(w) + f"pilots/{w.id('pilot_alice2')}/", lambda w: {"name": "Sgt. Matrix"},
        (*PLAYERS, HIDDEN("pilot_alice2")),
        why="issue 26: the owner names a pilot in any phase"),
    ("api-weapons", G): Endpoint(lambda w: c(w) + "weapons/", None, PLAYERS),
    ("api-weapon", PA): Endpoint(
        lambda w: c(w) + f"weapons/{w.id('weapon_alice')}/", lambda w: {"name": "Matrix"},
        (*PLAYERS, HIDDEN("weapon_alice")),
        why="issue 26: the owner names a weapon in any phase"),
    ("api-trades", G): Endpoint(lambda w: c(w) + "trades/", None, MEMBERS),
    ("api-trades", PO): Endpoint(
        lambda w: c(w) + "trades/", lambda w: {"to_player": w.id("player_bob"),
                                               "give": {"credits": 1}},
        (*PLAYERS, PHASE("commercial"), ROLE("other", "400"))),  # bob: a self-trade
    ("api-trade", G): Endpoint(
        lambda w: c(w) + f"trades/{w.id('trade')}/", None,
        (*MEMBERS, EXISTS("trade"), ROLE("plays", "404"))),  # parties + seatless umpire
    ("api-trade-accept", PO): Endpoint(
        lambda w: c(w) + f"trades/{w.id('trade')}/accept/", None,
        (*MEMBERS, FOR(("umpire",), EXISTS("trade")), PLAYER, PHASE("commercial"),
         EXISTS("trade"), ROLE("plays", "404"),  # R-ORD-10: not hers to see
         ROLE("owner", "403"))),  # only bob, to whom it is offered
    ("api-trade-decline", PO): Endpoint(
        lambda w: c(w) + f"trades/{w.id('trade')}/decline/", None,
        (*MEMBERS, FOR(("umpire",), EXISTS("trade")), PLAYER, PHASE("commercial"),
         EXISTS("trade"), ROLE("plays", "404"),
         ROLE("owner", "403"))),
    ("api-trade-cancel", PO): Endpoint(
        lambda w: c(w) + f"trades/{w.id('trade')}/cancel/", None,
        (*MEMBERS, FOR(("umpire",), EXISTS("trade")), PLAYER, PHASE("commercial"),
         EXISTS("trade"), ROLE("plays", "404"),
         ROLE("other", "403"))),  # only alice, who offered it
    ("api-corrections", PO): Endpoint(
        lambda w: c(w) + "corrections/",
        lambda w: {"player": w.id("player_alice"), "reason": "audit", "credits": 5,
                   "request_id": "matrix-correction"},
        (*UMPIRES, RUNNING)),
    # --- battles -------------------------------------------------------------------------
    ("api-battles", G): Endpoint(lambda w: c(w) + "battles/", None, MEMBERS),
    ("api-battle", G): Endpoint(lambda w: c(w) + f"battles/{w.id('battle')}/", None,
                                (*MEMBERS, EXISTS("battle"))),
    ("api-battle-retry", PO): Endpoint(
        lambda w: c(w) + f"battles/{w.id('battle')}/retry/", None,
        (*MEMBERS, EXISTS("battle"), UMPIRE), ok="409",
        why="the battle is finished: nothing to retry"),
    ("api-battle-result", PO): Endpoint(
        lambda w: c(w) + f"battles/{w.id('battle')}/result/", lambda w: {"winner": None},
        (*MEMBERS, EXISTS("battle")), ok="409",
        why="battles are resolved by the engine here, not entered from the table"),
    ("api-battle-confirm", PO): Endpoint(
        lambda w: c(w) + f"battles/{w.id('battle')}/confirm/", None,
        (*MEMBERS, EXISTS("battle")), ok="409", why="engine mode: nothing to confirm"),
    ("api-odds", PO): Endpoint(
        lambda w: c(w) + "odds/",
        lambda w: {"territory": w.id("home_bob"), "units": [w.id("unit_alice1")],
                   "enemy": [{"model": "lycaon"}], "simulations": 2},
        (*PLAYERS, ROLE(("other", "plays"), "400"),  # "every unit must be your own"
         ROLE("owner", "400", phases=("setup", "commercial"))),
        why="odds may be asked in any phase; before the activity phase alice's units "
        "have no pilot yet (and in set-up no territory): 400"),
    ("api-odds-detail", G): Endpoint(lambda w: c(w) + f"odds/{w.id('odds')}/", None,
                                     (*MEMBERS, HIDDEN("odds"))),
    # --- orders, clock, journal ------------------------------------------------------------
    ("api-orders", G): Endpoint(lambda w: c(w) + "orders/", None, MEMBERS),
    ("api-orders", PO): Endpoint(
        lambda w: c(w) + "orders/",
        lambda w: {"unit": w.id("unit_alice2"), "destination": w.id("free")},
        (*PLAYERS, PHASE("move"), HIDDEN("unit_alice2"))),
    ("api-order", DE): Endpoint(lambda w: c(w) + f"orders/{w.id('order')}/", None,
                                (*PLAYERS, PHASE("move"), HIDDEN("order"))),
    ("api-exchanges", PO): Endpoint(
        lambda w: c(w) + "exchanges/",
        lambda w: {"from_unit": w.id("unit_alice1"), "to_unit": w.id("unit_alice2"),
                   "weapon": w.id("weapon_alice")},
        (*PLAYERS, PHASE("move"), HIDDEN("unit_alice1"))),
    # battle plans (issue 29): sealed like orders; bob has nothing at alice's home: 400
    ("api-plans", G): Endpoint(lambda w: c(w) + "plans/", None, MEMBERS,
                               why="each member reads only their own plans (the umpire: none)"),
    ("api-plan-standing", PU): Endpoint(lambda w: c(w) + "plans/default/",
                                        lambda w: {"stance": "hold"}, (*PLAYERS, RUNNING)),
    ("api-plan-standing", DE): Endpoint(lambda w: c(w) + "plans/default/", None,
                                        (*PLAYERS, EXISTS("plan_standing")),
                                        why="nobody has a standing plan in this world"),
    ("api-plan", PU): Endpoint(
        lambda w: c(w) + f"plans/{w.id('home_alice')}/", lambda w: {"stance": "withdraw"},
        (*PLAYERS, PHASE("move"), ROLE(("other", "plays"), "400")),
        why="a plan only where the player holds, stands or is ordered to (nothing_there)"),
    ("api-plan", DE): Endpoint(lambda w: c(w) + f"plans/{w.id('home_alice')}/", None,
                               (*PLAYERS, PHASE("move"), EXISTS("plan_alice")),
                               why="nobody has a plan there in this world"),
    ("api-events", G): Endpoint(lambda w: c(w) + "events/", None, MEMBERS),
    ("api-receipts", G): Endpoint(lambda w: c(w) + "receipts/?turn=1", None,
                                  (*MEMBERS, PHASE("tactical", "finished")),
                                  why="receipts are shown once the turn's orders are "
                                  "revealed"),
    ("api-deadline", PO): Endpoint(lambda w: c(w) + "deadline/",
                                   lambda w: {"deadline": future()}, (*UMPIRES, RUNNING)),
    ("api-pause", PO): Endpoint(lambda w: c(w) + "pause/", None, (*UMPIRES, RUNNING)),
    ("api-resume", PO): Endpoint(lambda w: c(w) + "resume/", None, (*UMPIRES, RUNNING)),
    ("api-handover", PO): Endpoint(
        lambda w: c(w) + f"players/{w.id('player_alice')}/handover/",
        lambda w: {"username": "dave"}, UMPIRES),
    ("api-notifications", G): Endpoint(lambda w: c(w) + "notifications/", None, PLAYERS),
    ("api-away", PO): Endpoint(lambda w: c(w) + "away/", lambda w: {"until": future()},
                               (*PLAYERS, RUNNING)),
    ("api-away", DE): Endpoint(lambda w: c(w) + "away/", None, PLAYERS),
    ("api-notifications", PA): Endpoint(lambda w: c(w) + "notifications/",
                                        lambda w: {"notifications": False}, PLAYERS),
}
