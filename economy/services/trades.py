"""Trades between players (seed, "Commercial phase": "In this phase you can also
trade resources or services with your different opponents").

A side of a trade is `{"credits": n, "resources": [{"territory", "resource",
"refined", "pure", "units"}], "weapons": [ids], "units": [ids], "operatives": [ids],
"deliver_to": territory id}`. A traded operative changes owner, leaves any unit they
crewed and goes to `deliver_to` (R-ECO-20). `deliver_to` is a territory of the player
who receives that side (R-ECO-15: traded goods change hands at once, without
transport; a traded unit goes without its pilot but with its fitted weapons; loose
weapons and resources need room at `deliver_to`).

Acceptance settles both sides in one transaction: the trade row is claimed by a
conditional update (open -> accepted), both players are locked in id order, every
good is re-checked under row locks; any shortfall rolls everything back and the trade
stays open.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from campaign.access import Membership
from campaign.errors import Conflict, Forbidden, GameError, InvalidInput, NotFound
from campaign.models import Event, Player
from campaign.rules.tables import RESOURCES_BY_KEY
from campaign.services.journal import record_event
from campaign.services.locking import retry_on_conflict
from economy.models import Building, Operative, Trade, Unit, Weapon
from economy.selectors import trade_sentences
from economy.services import ledger
from economy.services.common import as_id, require_phase
from economy.services.storage import (
    add_stock,
    is_exo,
    item_kind_of_weapon,
    load_holdings,
    require_room,
    stock_units,
    take_stock,
)
from territories.models import Territory

SIDE_KEYS = {"credits", "resources", "weapons", "units", "operatives", "deliver_to"}


def _clean_side(side: object, name: str) -> dict[str, Any]:
    if side is None:
        side = {}
    if not isinstance(side, dict):
        raise InvalidInput(f"'{name}' must be an object.", fields={name: ["Must be an object."]})
    extra = set(side) - SIDE_KEYS
    if extra:
        raise InvalidInput(f"'{name}' has unknown keys: {', '.join(sorted(extra))}.",
                           fields={name: [f"Allowed: {', '.join(sorted(SIDE_KEYS))}."]})
    credits = side.get("credits", 0)
    if isinstance(credits, bool) or not isinstance(credits, int) or credits < 0 \
            or credits > ledger.MAX_AMOUNT:
        raise InvalidInput(f"'{name}.credits' must be a whole number of credits, 0 or more.")
    resources = []
    for r in side.get("resources") or []:
        if not isinstance(r, dict):
            raise InvalidInput(f"Each of '{name}.resources' must be an object.")
        resource = str(r.get("resource", "")).strip().lower().replace(" ", "_")
        if resource not in RESOURCES_BY_KEY:
            raise InvalidInput(f"Unknown resource {r.get('resource')!r}.")
        units = r.get("units")
        if isinstance(units, bool) or not isinstance(units, int) or units <= 0:
            raise InvalidInput("Resource units must be a positive whole number.")
        refined, pure = r.get("refined", False), r.get("pure", False)
        if not isinstance(refined, bool) or not isinstance(pure, bool) or (refined and pure):
            raise InvalidInput("'refined' and 'pure' are true or false, never both true.")
        resources.append({"territory": as_id(r.get("territory"), "territory"),
                          "resource": resource, "refined": refined, "pure": pure,
                          "units": units})
    weapons = [as_id(w, "weapons") for w in side.get("weapons") or []]
    units = [as_id(u, "units") for u in side.get("units") or []]
    operatives = [as_id(o, "operatives") for o in side.get("operatives") or []]
    if len(set(weapons)) != len(weapons) or len(set(units)) != len(units) \
            or len(set(operatives)) != len(operatives):
        raise InvalidInput("A weapon, unit or operative can be listed only once.")
    has_goods = bool(resources or weapons or units or operatives)
    deliver_to = side.get("deliver_to")
    if has_goods and deliver_to is None:
        raise InvalidInput(f"'{name}.deliver_to' must name the territory that receives "
                           "these goods.", fields={name: ["deliver_to is required."]})
    return {"credits": credits, "resources": resources, "weapons": weapons, "units": units,
            "operatives": operatives,
            "deliver_to": as_id(deliver_to, "deliver_to") if has_goods else None}


def _is_empty(side: dict[str, Any]) -> bool:
    return not (side["credits"] or side["resources"] or side["weapons"] or side["units"]
                or side.get("operatives"))


def _check_side(side: dict[str, Any], *, giver: Player, taker: Player, settle: bool,
                trade_id: int | None = None) -> None:
    """Check (and with `settle`, move) one side from `giver` to `taker`. Call inside a
    transaction; with `settle` the players are already locked."""
    campaign_id = giver.campaign_id
    if side["deliver_to"] is not None:
        dest = Territory.objects.filter(pk=side["deliver_to"], campaign_id=campaign_id,
                                        owner=taker).first()
        if dest is None:
            raise InvalidInput(f"Goods for {taker.user.username} must be delivered to one of "
                               "their territories.", code="invalid_delivery")
    for r in side["resources"]:
        src = Territory.objects.filter(pk=r["territory"], campaign_id=campaign_id,
                                       owner=giver).first()
        if src is None:
            raise InvalidInput(f"{giver.user.username} does not hold territory "
                               f"{r['territory']}.", code="goods_unavailable")
        key = (r["resource"], r["refined"], r["pure"])
        if settle:
            take_stock(territory=src, key=key, units=r["units"], name=src.name)
            add_stock(territory=side["deliver_to"], key=key, units=r["units"])
        else:
            if stock_units(src, key) < r["units"]:
                raise InvalidInput(f"{giver.user.username} does not have {r['units']} units "
                                   f"of {r['resource']} in {src.name}.",
                                   code="goods_unavailable")
    units = list(Unit.objects.select_for_update().filter(pk__in=side["units"], player=giver,
                                                         status=Unit.Status.READY))
    if len(units) != len(side["units"]):
        raise InvalidInput(f"{giver.user.username} does not have all the units offered.",
                           code="goods_unavailable")
    turn = giver.campaign.turn
    if any(u.locked_until_turn > turn for u in units):
        raise Conflict("A unit offered could not retreat and cannot change hands before "
                       "the subsequent strategic turn.", code="unit_locked")
    operatives = _offered_operatives(side.get("operatives") or [], giver=giver, turn=turn)
    weapons = list(Weapon.objects.select_for_update().filter(pk__in=side["weapons"],
                                                             player=giver))
    if len(weapons) != len(side["weapons"]):
        raise InvalidInput(f"{giver.user.username} does not have all the weapons offered.",
                           code="goods_unavailable")
    traded_units = set(side["units"])
    turrets = set(Building.objects.filter(weapon_id__in=side["weapons"])
                  .values_list("weapon_id", flat=True))
    for w in weapons:
        if w.unit_id is not None and w.unit_id not in traded_units:
            raise InvalidInput(f"Weapon {w.pk} is fitted to a unit that is not traded; "
                               "take it off first.", code="goods_unavailable")
        if w.pk in turrets:
            raise InvalidInput(f"Weapon {w.pk} is fitted to a turret; take it off first.",
                               code="goods_unavailable")
    if not settle:
        _require_room_for_offer(side, units, weapons)
        return
    dest_id = side["deliver_to"]
    for u in units:
        Unit.objects.filter(pk=u.pk).update(player=taker, territory_id=dest_id, pilot=None)
        Weapon.objects.filter(unit=u).update(player=taker, territory_id=dest_id)
    for w in weapons:
        Weapon.objects.filter(pk=w.pk).update(player=taker, territory_id=dest_id)
    for op in operatives:  # R-ECO-20: the operative leaves any unit they crewed
        Unit.objects.filter(pilot=op).update(pilot=None)
        Operative.objects.filter(pk=op.pk).update(player=taker, territory_id=dest_id)
    if dest_id is not None:
        dest = Territory.objects.get(pk=dest_id)
        require_room(load_holdings(dest), dest, "the traded goods")
    if side["credits"]:
        ledger.post(player=giver, amount=-side["credits"], reason="trade",
                    detail=f"trade with {taker.user.username}", related_kind="trade",
                    related_id=trade_id)
        ledger.post(player=taker, amount=side["credits"], reason="trade",
                    detail=f"trade with {giver.user.username}", related_kind="trade",
                    related_id=trade_id)


def _require_room_for_offer(side: dict[str, Any], units: list[Unit], weapons: list[Weapon]) -> None:
    """R-ECO-15: an offer is checked when made, room included: the goods must fit in the
    receiving territory's warehouses as it stands now (checked again at acceptance)."""
    if side["deliver_to"] is None:
        return
    dest = Territory.objects.get(pk=side["deliver_to"])
    trial = load_holdings(dest)
    for r in side["resources"]:
        trial.resources[(r["resource"], r["refined"], r["pure"])] += r["units"]
    traded_units = {u.pk for u in units}
    for w in weapons:
        if w.unit_id is None or w.unit_id not in traded_units:
            trial.loose[item_kind_of_weapon(w)] += 1
    trial.loose["armor"] += sum(1 for u in units if is_exo(u.model))  # delivered unpiloted
    require_room(trial, dest, "the goods of this offer")


def _offered_operatives(ids: list[int], *, giver: Player, turn: int) -> list[Operative]:
    """The operatives of a side, under row locks: alive, the giver's, and not the pilot
    of a unit locked after a failed retreat."""
    found = list(Operative.objects.select_for_update().filter(pk__in=ids, player=giver,
                                                              alive=True))
    if len(found) != len(ids):
        raise InvalidInput(f"{giver.user.username} does not have all the operatives offered.",
                           code="goods_unavailable")
    locked = Unit.objects.filter(pilot__in=found).filter(
        Q(locked_until_turn__gt=turn) | ~Q(status=Unit.Status.READY))
    if locked.exists():
        raise Conflict("An operative offered pilots a unit that cannot change pilots before "
                       "the subsequent strategic turn.", code="unit_locked")
    return found


def _journal(trade: Trade, kind: str, **extra: Any) -> None:
    record_event(campaign=trade.campaign, kind=kind,
                 data={"trade": trade.pk, "from_player": trade.from_player_id,
                       "to_player": trade.to_player_id, "give": trade.give,
                       "receive": trade.receive,
                       # In words, as the parties knew the goods then (issue 26).
                       "summary": trade_sentences([trade])[trade.pk], **extra},
                 visibility=Event.Visibility.PRIVATE,
                 viewers=[trade.from_player, trade.to_player])


@retry_on_conflict
def trade_create(*, player: Player, to_player: object, give: object, receive: object
                 ) -> Trade:
    """Offer `give` against `receive` to another player (commercial phase)."""
    campaign = player.campaign
    require_phase(campaign, "commercial")
    other = Player.objects.select_related("user").filter(
        pk=as_id(to_player, "to_player"), campaign=campaign).first()
    if other is None:
        raise NotFound("No such player in this campaign.")
    if other.pk == player.pk:
        raise InvalidInput("You cannot trade with yourself.", code="self_trade")
    other.campaign = campaign
    give_side = _clean_side(give, "give")
    receive_side = _clean_side(receive, "receive")
    if _is_empty(give_side) and _is_empty(receive_side):
        raise InvalidInput("A trade must offer or ask for something.", code="empty_trade")
    with transaction.atomic():
        _check_side(give_side, giver=player, taker=other, settle=False)
        balance = Player.objects.get(pk=player.pk).credits
        if give_side["credits"] > balance:
            raise ledger.NotEnoughCredits(f"You offer {give_side['credits']} SC but have "
                                          f"{balance} SC.")
        _check_side(receive_side, giver=other, taker=player, settle=False)
        trade = Trade.objects.create(campaign=campaign, from_player=player, to_player=other,
                                     give=give_side, receive=receive_side, turn=campaign.turn)
        _journal(trade, "trade_offered")
    return trade


def visible_trades(member: Membership) -> QuerySet[Trade]:
    qs = Trade.objects.filter(campaign=member.campaign).select_related(
        "from_player__user", "to_player__user")
    if member.sees_private:
        return qs
    player = member.player
    return qs.filter(Q(from_player=player) | Q(to_player=player))


def trade_for(member: Membership, trade_id: object) -> Trade:
    trade = visible_trades(member).filter(pk=as_id(trade_id, "trade")).first()
    if trade is None:
        raise NotFound("No such trade.")
    return trade


@retry_on_conflict
def trade_accept(*, player: Player, trade_id: object) -> Trade:
    """The recipient accepts: both sides move at once, or nothing does."""
    campaign = player.campaign
    require_phase(campaign, "commercial")
    trade = Trade.objects.filter(campaign=campaign, pk=as_id(trade_id, "trade")).filter(
        Q(from_player=player) | Q(to_player=player)).first()
    if trade is None:
        raise NotFound("No such trade.")
    if trade.to_player_id != player.pk:
        raise Forbidden("Only the player the trade is offered to may accept it.")
    try:
        with transaction.atomic():
            # Global lock order (campaign.services.locking): players by id, then the
            # territories that receive goods, then the trade, then the goods.
            first, second = sorted([trade.from_player_id, trade.to_player_id])
            ledger.lock_player(first)
            ledger.lock_player(second)
            destinations = sorted({d for d in (trade.give.get("deliver_to"),
                                               trade.receive.get("deliver_to")) if d})
            list(Territory.objects.select_for_update().filter(pk__in=destinations)
                 .order_by("pk").values_list("pk"))
            claimed = Trade.objects.filter(pk=trade.pk, status=Trade.Status.OPEN).update(
                status=Trade.Status.ACCEPTED, settled_at=timezone.now())
            if not claimed:
                trade.refresh_from_db()
                raise Conflict(f"This trade is {trade.status}, no longer open.",
                               code="trade_not_open")
            giver = Player.objects.select_related("user", "campaign").get(
                pk=trade.from_player_id)
            taker = Player.objects.select_related("user", "campaign").get(
                pk=trade.to_player_id)
            _check_side(trade.give, giver=giver, taker=taker, settle=True, trade_id=trade.pk)
            _check_side(trade.receive, giver=taker, taker=giver, settle=True,
                        trade_id=trade.pk)
            trade.refresh_from_db()
            _journal(trade, "trade_accepted")
    except Conflict:
        raise
    except GameError as exc:
        raise Conflict(f"The trade cannot be settled: {exc.detail}",
                       code="goods_unavailable") from exc
    return trade


@retry_on_conflict
def _close(*, player: Player, trade_id: object, as_recipient: bool, status: str) -> Trade:
    campaign = player.campaign
    require_phase(campaign, "commercial")
    trade = Trade.objects.filter(campaign=campaign, pk=as_id(trade_id, "trade")).filter(
        Q(from_player=player) | Q(to_player=player)).first()
    if trade is None:
        raise NotFound("No such trade.")
    owner = trade.to_player_id if as_recipient else trade.from_player_id
    if owner != player.pk:
        who = "the player it is offered to" if as_recipient else "the player who offered it"
        raise Forbidden(f"Only {who} may do this.")
    with transaction.atomic():
        # The lock order of `trade_accept` (players by id, then the trade): a cancel racing
        # an acceptance waits for it instead of holding the trade while the journal entry
        # waits for a player row the acceptance holds (a deadlock, issue 30).
        for pk in sorted([trade.from_player_id, trade.to_player_id]):
            ledger.lock_player(pk)
        done = Trade.objects.filter(pk=trade.pk, status=Trade.Status.OPEN).update(
            status=status, settled_at=timezone.now())
        trade.refresh_from_db()
        if not done:
            raise Conflict(f"This trade is {trade.status}, no longer open.",
                           code="trade_not_open")
        _journal(trade, f"trade_{status}")
    return trade


def trade_decline(*, player: Player, trade_id: object) -> Trade:
    return _close(player=player, trade_id=trade_id, as_recipient=True,
                  status=Trade.Status.DECLINED)


def trade_cancel(*, player: Player, trade_id: object) -> Trade:
    return _close(player=player, trade_id=trade_id, as_recipient=False,
                  status=Trade.Status.CANCELLED)


def trade_as_dict(trade: Trade, summary: str | None = None) -> dict[str, Any]:
    """A trade for the API; `summary` says what it carries in words (issue 26), computed
    here unless the caller computed a list's at once (`selectors.trade_sentences`)."""
    if summary is None:
        summary = trade_sentences([trade])[trade.pk]
    return {"id": trade.pk, "from_player": trade.from_player_id,
            "to_player": trade.to_player_id, "give": trade.give, "receive": trade.receive,
            "summary": summary,
            "status": trade.status, "turn": trade.turn, "created_at": trade.created_at,
            "settled_at": trade.settled_at}

