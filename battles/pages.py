"""Battle pages: the list (polled by htmx while jobs run) and the report with the
dice and action log, replayed turn by turn. A battle is public to the campaign's
members (as in the API); the job error is shown to the umpire only."""

from __future__ import annotations

from collections import Counter, OrderedDict
from typing import Any

from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from battles import replay, tabletop_form
from battles.models import Battle, OddsRequest
from battles.rulesets.base import Board, Frame, Ruleset
from battles.rulesets.registry import DEFAULT, find_ruleset
from battles.services import tabletop
from battles.services.jobs import retry_battle
from battles.services.odds import odds_for, request_odds
from battles.services.report import battle_report as after_action_report
from battles.services.report import display_names, given_name, report_markdown
from campaign.access import Membership
from campaign.errors import NotFound
from campaign.models import Player
from campaign.pages.campaigns import maybe_url
from campaign.pages.common import (
    attempt,
    campaign_page,
    is_htmx,
    optional_int,
    public_page,
    render_campaign,
    require_umpire_page,
    seat,
)
from campaign.rules import tables
from campaign.selectors import events_visible_to
from economy.models import Unit

LIST_FIELDS = ("id", "turn", "territory__name", "status", "sides", "winner_id", "order",
               "mode", "defender_id", "attempts", "quarantined")


def _players(campaign_id: int) -> dict[int, tuple[str, str]]:
    return {pk: (name, color) for pk, name, color in Player.objects.filter(
        campaign_id=campaign_id).values_list("pk", "user__username", "color")}


def _names(campaign_id: int) -> dict[int, str]:
    return {pk: name for pk, (name, _) in _players(campaign_id).items()}


def _side_names(sides: list[Any], names: dict[int, str]) -> str:
    out = []
    for side in sides or []:
        pid = side.get("player") if isinstance(side, dict) else side
        out.append(names.get(pid, f"player {pid}") if isinstance(pid, int) else str(pid))
    return " vs ".join(out)


@public_page
def battle_list(request: HttpRequest, member: Membership) -> HttpResponse:
    qs = Battle.objects.filter(campaign=member.campaign)
    if member.spectator:  # a public league shows its finished battles (API.md)
        qs = qs.filter(status=Battle.Status.FINISHED)
    # decorated below with what the template shows (side_text, winner_name)
    battles: list[Any] = list(qs.select_related("territory").order_by("-turn", "order", "id")[:200])
    names = _names(member.campaign.pk)
    for b in battles:
        b.side_text = _side_names(b.sides, names)
        b.winner_name = names.get(b.winner_id, "")
    running = any(b.status in (Battle.Status.QUEUED, Battle.Status.RUNNING) for b in battles)
    ctx = {"battles": battles, "running": running}
    if is_htmx(request):
        return render_campaign(request, member, "pages/_battle_rows.html", ctx)
    return render_campaign(request, member, "pages/battles.html", ctx)


def _narrated(ruleset: Ruleset, entries: Any, names: dict[str, dict[str, str]],
              keep_empty: bool = False) -> list[dict[str, Any]]:
    """Log entries as the ruleset words them (`Ruleset.narrate`): a sentence saying whose
    unit acts, and the raw dice apart, folded away on the page. An entry the ruleset
    leaves unsaid (an action its own entry repeats) is dropped unless `keep_empty`."""
    narrate = ruleset.narrate
    out = []
    for e in entries:
        if not isinstance(e, dict):
            continue
        said = narrate(e, names)
        if said.get("text") or keep_empty:
            out.append({"round": e.get("round"), "event": str(e.get("event", "")),
                        "text": str(said.get("text") or ""),
                        "dice": str(said.get("dice") or "")})
    return out


def _labels(battle: Battle, players: dict[int, tuple[str, str]]
            ) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Unit labels and sides, building labels, from the battle's stored input."""
    data = battle.input if isinstance(battle.input, dict) else {}
    unit_labels: dict[str, str] = {}
    unit_sides: dict[str, str] = {}

    fielded = []
    for side, units in (data.get("sides") or {}).items():
        owner = players.get(int(side), (f"side {side}", ""))[0] if str(side).isdigit() \
            else str(side)
        for u in units or []:
            if isinstance(u, dict) and "id" in u:
                uid = str(u["id"])
                unit_sides[uid] = str(side)
                model = u.get("vehicle") or u.get("key") or "unit"
                fielded.append((uid, owner, model, given_name(u.get("name"), model, uid)))
    shown = display_names(fielded)
    for uid, owner, _model, given in fielded:
        # whose unit acts (issue 26): "alice's Lycaon 'Red Comet'"
        unit_labels[uid] = f"{owner}'s {given}" if given else shown[uid]
    kinds = Counter(str(b.get("kind", "building")) for b in data.get("buildings") or []
                    if isinstance(b, dict))
    seen: Counter[str] = Counter()
    building_labels = {}
    for b in data.get("buildings") or []:
        if isinstance(b, dict) and "id" in b:
            kind = str(b.get("kind", "building"))
            seen[kind] += 1
            building_labels[str(b["id"])] = kind.replace("_", " ") + (
                f" {seen[kind]}" if kinds[kind] > 1 else "")
    return unit_labels, unit_sides, building_labels


def _name_tables(players: dict[int, tuple[str, str]], unit_labels: dict[str, str],
                 building_labels: dict[str, str]) -> dict[str, dict[str, str]]:
    return {"unit": unit_labels, "building": building_labels,
            "side": {str(pk): name for pk, (name, _) in players.items()}}


def _heading(board: Board, frame: Frame, players: dict[int, tuple[str, str]]) -> str:
    """A step in the ruleset's words: "Deployment", "Turn 3 of 6", or for a ruleset whose
    rounds hold a turn per side, "Round 12 of 23, turn 24 (alice)"."""
    if frame.turn == 0:
        return "Deployment"
    word = board.round_word.capitalize()
    side = players.get(int(frame.side), ("", ""))[0] if frame.side.isdigit() else ""
    text = f"{word} {frame.round} of {board.rounds}"
    if board.step == "turn":
        text += f", turn {frame.turn}"
    return text + (f" ({side})" if side and board.step == "turn" else "")


def _replay_step(battle: Battle, board: Board | None, players: dict[int, tuple[str, str]],
                 wanted: str | None) -> dict[str, Any] | None:
    """The frame `wanted` (its turn; default: the deployment) of the ruleset's board
    replay drawn on its board, with that step's log entries and the neighbouring steps
    for the buttons."""
    if board is None or len(board.frames) < 2:  # nothing fought to step through
        return None
    board.rounds = board.rounds or max(f.round for f in board.frames)
    unit_labels, unit_sides, building_labels = _labels(battle, players)
    frames = board.frames
    keys = [f.turn for f in frames]
    try:
        index = keys.index(int(wanted)) if wanted is not None else 0
    except ValueError:
        index = 0
    frame = frames[index]
    heading = _heading(board, frame, players)
    colors = {str(pk): color or "#888" for pk, (_, color) in players.items()}
    svg = replay.board_svg(
        board, frame, title=f"Battle of {battle.territory.name}: {heading}",
        side_colors=colors, unit_labels=unit_labels, building_labels=building_labels)
    sides = sorted(set(unit_sides.values()) | {m.side for m in frame.units.values() if m.side})
    legend = [{"name": players.get(int(s), (s, ""))[0] if s.isdigit() else s,
               "color": colors.get(s, "#888")} for s in sides]
    tables = _name_tables(players, unit_labels, building_labels)
    return {"turn": frame.turn, "heading": heading, "svg": svg, "legend": legend,
            "entries": _narrated(find_ruleset(battle.ruleset_name), frame.entries, tables),
            "rounds": board.rounds, "round_word": board.round_word,
            "first": keys[0], "last": keys[-1], "count": len(keys), "index": index,
            "prev": keys[index - 1] if index > 0 else None,
            "next": keys[index + 1] if index + 1 < len(keys) else None}


@public_page
def battle_report(request: HttpRequest, member: Membership, battle_id: int) -> HttpResponse:
    battle = (Battle.objects.filter(campaign=member.campaign, pk=battle_id)
              .select_related("territory").first())
    if battle is None or (member.spectator and battle.status != Battle.Status.FINISHED):
        raise Http404("No such battle.")
    players = _players(member.campaign.pk)
    names = {pk: name for pk, (name, _) in players.items()}
    finished = battle.status == Battle.Status.FINISHED
    turns: OrderedDict[Any, list[dict[str, Any]]] = OrderedDict()
    ruleset = find_ruleset(battle.ruleset_name)
    board = ruleset.board(battle.input or {}, battle.result or {}, battle.log or []) \
        if finished else None
    # The ruleset's own log steps, in its own words (names, dice); None: its stored log,
    # narrated with the campaign's names of units and buildings.
    steps = ruleset.replay(battle.input, battle.result or {}, battle.log or []) \
        if finished else None
    if steps is not None:
        sides = {"side": {str(pk): name for pk, name in names.items()}}
        for step, line in zip(steps, _narrated(ruleset, steps, sides, keep_empty=True),
                              strict=True):
            if line["text"]:
                turns.setdefault(step.get("round") or 0, []).append(line)
    elif finished:
        unit_labels, _sides, building_labels = _labels(battle, players)
        tables = _name_tables(players, unit_labels, building_labels)
        entries = [e for e in battle.log or [] if isinstance(e, dict)]
        for entry, line in zip(entries, _narrated(ruleset, entries, tables, keep_empty=True),
                               strict=True):
            if line["text"]:
                # grouped by round, as the report counts them ("after 23 rounds")
                turns.setdefault(entry.get("round", 0), []).append(line)
    ctx: dict[str, Any] = {
           "battle": battle, "side_text": _side_names(battle.sides, names),
           "winner_name": "" if battle.winner_id is None
           else names.get(battle.winner_id, ""), "finished": finished,
           "turns": list(turns.items()), "show_error": member.is_umpire
           and not member.umpire_plays, "result": battle.result if finished else None,
           # Named when the battle is not fought under the strategic layer's own game.
           "ruleset_title": ruleset.title if ruleset.name != DEFAULT else "",
           "round_word": board.round_word if board is not None else "turn",
           "report": after_action_report(battle) if finished else None,
           "step": _replay_step(battle, board, players, request.GET.get("turn"))
           if finished else None}
    if battle.mode == Battle.Mode.TABLETOP and not finished:
        ctx.update(_tabletop_context(battle, member, names))
    if ctx["report"]:
        _add_experience(ctx["report"], battle, member)
    if is_htmx(request):
        return render_campaign(request, member, "pages/_replay.html", ctx)
    return render_campaign(request, member, "pages/battle.html", ctx)


def _may_enter(battle: Battle, member: Membership) -> bool:
    if member.is_umpire and not member.umpire_plays:
        return True
    return member.player is not None and member.player.pk in {
        int(side["player"]) for side in battle.sides or ()}


def _tabletop_form(battle: Battle, names: dict[int, str]) -> tabletop_form.Form:
    schema = find_ruleset(battle.ruleset_name).tabletop_schema()
    return tabletop_form.fields(schema, battle.input or {}, names)


def _tabletop_context(battle: Battle, member: Membership,
                      names: dict[int, str]) -> dict[str, Any]:
    """The result form of a battle played on the table, in its ruleset's words, and the
    result already entered (to confirm)."""
    form = _tabletop_form(battle, names)
    me = member.player.pk if member.player is not None else None
    return {"tabletop": {
        "form": form, "may_enter": _may_enter(battle, member),
        "proposed": tabletop_form.describe(battle.proposed_result, names, form.units),
        "proposed_by": names.get(battle.proposed_by_id or 0, "the umpire")
        if battle.proposed_result else "",
        "confirmed": [names.get(p, str(p)) for p in battle.confirmations or []],
        "may_confirm": battle.proposed_result is not None and _may_enter(battle, member)
        and me not in (battle.confirmations or [])}}


@require_POST
@campaign_page
def battle_tabletop(request: HttpRequest, member: Membership, battle_id: int) -> HttpResponse:
    """Enter a tabletop result from the form (the API's `POST .../tabletop/`)."""
    battle = Battle.objects.filter(campaign=member.campaign, pk=battle_id).first()
    if battle is None:
        raise Http404("No such battle.")
    form = _tabletop_form(battle, _names(member.campaign.pk))
    attempt(request, lambda: tabletop.submit_result(
        member=member, battle_id=battle_id, data=tabletop_form.parse(form, request.POST)),
        success="The result is entered; the other players who fought confirm it.")
    return redirect("battle", member.campaign.pk, battle_id)


@require_POST
@campaign_page
def battle_confirm(request: HttpRequest, member: Membership, battle_id: int) -> HttpResponse:
    attempt(request, lambda: tabletop.confirm_result(member=member, battle_id=battle_id),
            success="You confirmed the result.")
    return redirect("battle", member.campaign.pk, battle_id)


def _add_experience(report: dict[str, Any], battle: Battle, member: Membership) -> None:
    """XP and level-ups of the battle, for the pilots whose awards the reader may read
    (their own; the umpire all): the journal's private `xp_awarded` entries."""
    gained: dict[str, dict[str, Any]] = {}
    for data in events_visible_to(member).filter(kind="xp_awarded",
                                                 data__battle=battle.pk).values_list(
            "data", flat=True):
        gained[str(data.get("unit"))] = data
    for side in report["sides"]:
        for unit in side["units"]:
            award = gained.get(str(unit["id"]))
            if award:
                up = award.get("level_up") or {}
                unit["xp_text"] = f"+{award.get('xp', 0)} XP" + (
                    f", level {up['from']} → {up['to']}" if up else "")


@public_page
def battle_report_markdown(request: HttpRequest, member: Membership,
                           battle_id: int) -> HttpResponse:
    """The after-action report as Markdown (forum- and Discord-ready)."""
    battle = (Battle.objects.filter(campaign=member.campaign, pk=battle_id)
              .select_related("territory").first())
    report = after_action_report(battle) if battle is not None else None
    if battle is None or report is None:
        raise Http404("No finished battle here.")
    return HttpResponse(report_markdown(battle, report),
                        content_type="text/markdown; charset=utf-8")


@require_POST
@campaign_page
def battle_retry(request: HttpRequest, member: Membership, battle_id: int) -> HttpResponse:
    require_umpire_page(member)
    attempt(request, lambda: retry_battle(campaign=member.campaign, battle_id=battle_id),
            success="The battle's job was queued again.")
    target = "umpire" if request.POST.get("back") == "umpire" else "battles"
    return redirect(target, member.campaign.pk)


# --------------------------------------------------------------------------- odds

ODDS_SIDES = (("you", "You win"), ("enemy", "The enemy wins"), ("none", "Nobody wins"))


def _odds_view(item: Any) -> Any:
    """An odds request with its result as percentages for the template."""
    result = item.result or {}
    wins = result.get("win_probability") or {}
    lost = result.get("expected_units_lost") or {}
    item.rows = [(label, round(100 * float(wins.get(key, 0)), 1)) for key, label in ODDS_SIDES
                 if key in wins]
    item.lost = [(label, round(float(lost[key]), 2)) for key, label in
                 (("you", "your units"), ("enemy", "enemy units")) if key in lost]
    item.pending = item.status in ("queued", "running")
    return item


def odds_context(member: Membership, names: dict[int, str]) -> dict[str, Any]:
    """The odds section of the orders page: the caller's last requests and the form
    (own ready, piloted units; any territory; an optional hypothetical enemy)."""
    player = member.player
    recent = [_odds_view(o) for o in OddsRequest.objects.filter(player=player)
              .select_related("territory").order_by("-id")[:3]]
    units: list[Any] = list(  # each given `where` for the template
        Unit.objects.filter(player=player, status=Unit.Status.READY, pilot__isnull=False)
        .select_related("pilot").order_by("pk"))
    for u in units:
        u.where = names.get(u.territory_id, "off the map")
    return {"odds_recent": recent, "odds_units": units,
            "odds_territories": sorted(names.items(), key=lambda p: p[1]),
            "odds_vehicles": list(tables.VEHICLES.values()),
            "odds_classes": list(tables.PILOT_CLASSES.values()),
            "odds_weapons": [w for w in tables.WEAPONS.values() if w.type != "equipment"],
            "odds_max": member.campaign.settings.odds_max_simulations,
            "odds_levels": range(1, tables.MAX_LEVEL + 1)}


@require_POST
@campaign_page
def odds_new(request: HttpRequest, member: Membership) -> HttpResponse:
    """Ask for a Monte Carlo estimate (battles.services.odds.request_odds, R-BJ-8)."""
    player = seat(member)
    enemy = None
    model = request.POST.get("enemy_model", "")
    if model:
        weapon = request.POST.get("enemy_weapon", "")
        enemy = [{"model": model, "pilot_class": request.POST.get("enemy_class", "soldier"),
                  "pilot_level": optional_int(request.POST.get("enemy_level")) or 1,
                  "weapons": [weapon] if weapon else []}]
    units = [u for u in (optional_int(v) for v in request.POST.getlist("units")) if u]
    attempt(request, lambda: request_odds(
        player=player, territory_id=optional_int(request.POST.get("territory")),
        unit_ids=units, enemy=enemy,
        simulations=optional_int(request.POST.get("simulations"))),
        success="Odds requested: the estimate appears below when the simulations finish.")
    return redirect(reverse("orders", args=[member.campaign.pk]) + "#odds")


@campaign_page
def odds_status(request: HttpRequest, member: Membership, odds_id: int) -> HttpResponse:
    """htmx: one odds request (polled while its job runs)."""
    player = seat(member)
    try:
        item = odds_for(player=player, odds_id=odds_id)
    except NotFound as exc:
        raise Http404(exc.detail) from None
    return render_campaign(request, member, "pages/_odds.html", {"o": _odds_view(item)})


def battle_alerts(member: Membership) -> list[dict[str, str]]:
    """Dashboard alerts (connected in battles/connections.py): the turn's battles."""
    campaign, cid = member.campaign, member.campaign.pk
    battles = Battle.objects.filter(campaign=campaign, turn=campaign.turn).aggregate(
        finished=Count("id", filter=Q(status=Battle.Status.FINISHED)),
        failed=Count("id", filter=Q(status=Battle.Status.FAILED)),
        open=Count("id", filter=Q(status__in=[Battle.Status.QUEUED, Battle.Status.RUNNING])),
    )
    url = maybe_url("battles", cid)
    alerts: list[dict[str, str]] = []
    if battles["finished"]:
        alerts.append({"level": "ok", "text": f"{battles['finished']} battle(s) of this turn "
                                              "are finished: read the reports.", "url": url})
    if battles["open"]:
        alerts.append({"level": "info", "text": f"{battles['open']} battle(s) are being "
                                                "resolved.", "url": url})
    if battles["failed"] and member.is_umpire:
        alerts.append({"level": "bad", "text": f"{battles['failed']} battle job(s) failed: "
                                               "retry them from the umpire console.",
                       "url": maybe_url("umpire", cid)})
    return alerts


def troubled_battles(member: Membership) -> dict[str, Any]:
    """Umpire console panel (connected in battles/connections.py): unfinished battles."""
    return {"troubled": list(Battle.objects.filter(campaign=member.campaign)
                             .exclude(status=Battle.Status.FINISHED)
                             .select_related("territory").order_by("turn", "order"))}
