"""The battles API (API.md, "Battles and history"): thin views over the services.

Who sees what: every member sees the campaign's battles and, once finished, their full
log (a battle is public to the campaign; its units met enemy units, so they are
revealed). The engine's job error is shown to the umpire only. Odds are private to the
player who asked.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from battles.models import Battle, OddsRequest
from battles.services import jobs, odds, tabletop
from battles.services.report import battle_report, sealed_plans
from campaign.access import Membership, membership, reader, require_player, require_umpire
from campaign.api.fields import WholeNumberField
from campaign.api.views import validated
from campaign.errors import InvalidInput, NotFound
from campaign.pagination import PAGE_DESCRIPTION, PAGE_PARAMETERS, keyset_page, paged
from campaign.throttling import ScopedThrottle

LIST_FIELDS = ("id", "turn", "territory_id", "status", "sides", "winner_id", "order", "mode",
               "defender_id", "ruleset_name", "ruleset_version")


def battle_summary(battle: Battle) -> dict[str, Any]:
    return {"id": battle.pk, "turn": battle.turn, "territory": battle.territory_id,
            "status": battle.status, "sides": battle.sides, "winner": battle.winner_id,
            "defender": battle.defender_id, "order": battle.order, "mode": battle.mode,
            "ruleset": {"name": battle.ruleset_name, "version": battle.ruleset_version}}


def battle_detail(battle: Battle, member: Membership) -> dict[str, Any]:
    data = battle_summary(battle)
    finished = battle.status == Battle.Status.FINISHED
    umpire = member.is_umpire and not member.umpire_plays
    data.update({
        "seed": battle.seed if finished else None,
        "result": battle.result if finished else None,
        "log": battle.log if finished else [],
        "attempts": battle.attempts,
        "quarantined": battle.quarantined,
        "started_at": battle.started_at, "finished_at": battle.finished_at,
        "report": battle_report(battle) if finished else None,
    })
    if finished:  # API.md "Battle plans (wave 3)": the sealed plans, once it is over
        data["plans"] = [{"player": pid, **plan} for pid, plan in sealed_plans(battle)]
    if umpire:
        data["error"] = battle.error
    if battle.mode == Battle.Mode.TABLETOP:
        data["proposed_result"] = battle.proposed_result
        data["proposed_by"] = battle.proposed_by_id
        data["confirmations"] = battle.confirmations
    return data


def _battle(member: Membership, battle_id: int, fields: tuple[str, ...] | None = None
            ) -> Battle:
    qs = Battle.objects.filter(campaign=member.campaign, pk=battle_id)
    battle = (qs.only(*fields) if fields else qs).first()
    if battle is None:
        raise NotFound("No such battle.")
    return battle


BattleSummaries = inline_serializer("BattleSummary", many=True, fields={
    "id": serializers.IntegerField(), "turn": serializers.IntegerField(),
    "territory": serializers.IntegerField(),
    "status": serializers.ChoiceField(choices=Battle.Status.values),
    "sides": serializers.ListField(child=serializers.DictField()),
    "winner": serializers.IntegerField(allow_null=True),
    "defender": serializers.IntegerField(allow_null=True),
    "order": serializers.IntegerField(), "mode": serializers.CharField(),
})


class BattleListView(APIView):
    permission_classes = [AllowAny]  # a public league's battles are anyone's to read
    @extend_schema(responses={200: BattleSummaries}, operation_id="battles_list",
                   summary="The campaign's battles",
                   parameters=[OpenApiParameter("turn", int, required=False),
                               *PAGE_PARAMETERS],
                   description="Every battle of the campaign (or of `?turn=N`), in order "
                   "of play. Public to the campaign's members. " + PAGE_DESCRIPTION)
    def get(self, request: Request, campaign_id: int) -> Response:
        member = reader(request.user, campaign_id)
        visible = Battle.objects.filter(campaign=member.campaign).only(*LIST_FIELDS)
        if member.spectator:  # a public league shows its finished battles
            visible = visible.filter(status=Battle.Status.FINISHED)
        qs = visible
        turn = request.query_params.get("turn")
        if turn is not None:
            if not turn.isdigit():
                raise InvalidInput("turn must be a whole number.")
            qs = qs.filter(turn=int(turn))
        rows, link = keyset_page(request, qs, kind="battle", order=("turn", "order", "id"),
                                 cursor_key="id",
                                 lookup=lambda key: visible.filter(pk=key).first())
        return paged([battle_summary(b) for b in rows], link)


class BattleDetailView(APIView):
    permission_classes = [AllowAny]
    @extend_schema(responses={200: dict}, operation_id="battles_detail",
                   summary="One battle with its full log",
                   description="The log of rolls and actions (and the result) once the "
                   "battle is finished; the job error for the umpire.")
    def get(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        member = reader(request.user, campaign_id)
        battle = _battle(member, battle_id)
        if member.spectator and battle.status != Battle.Status.FINISHED:
            raise NotFound("No such battle.")
        return Response(battle_detail(battle, member))


class BattleRetryView(APIView):
    @extend_schema(request=None, responses={202: dict}, summary="Run a battle's job again",
                   description="Umpire: re-enqueue a failed or quarantined battle (the "
                   "attempt counter restarts). 409 when it is finished or played on "
                   "the table.")
    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        member = membership(request.user, campaign_id)
        _battle(member, battle_id, ("id",))
        require_umpire(member)
        battle = jobs.retry_battle(campaign=member.campaign, battle_id=battle_id)
        battle.refresh_from_db()
        return Response(battle_detail(battle, member), status=status.HTTP_202_ACCEPTED)


class TabletopResultSerializer(serializers.Serializer):
    winner = serializers.IntegerField(allow_null=True)
    # Bounded lists (issue 11): a battle has at most a few hundred units and buildings.
    units = serializers.ListField(child=serializers.DictField(), required=False,
                                  max_length=500)
    xp_events = serializers.ListField(child=serializers.DictField(), required=False,
                                      max_length=2000)
    buildings_destroyed = serializers.ListField(child=serializers.IntegerField(),
                                                required=False, max_length=500)


class BattleResultView(APIView):
    @extend_schema(request=TabletopResultSerializer, responses={200: dict},
                   summary="Enter a tabletop battle's result",
                   description="`{\"winner\": player id or null, \"units\": [{\"id\", "
                   "\"fate\", \"repairable\", \"unrepairable\"}], \"xp_events\": "
                   "[{\"unit\", \"kind\"}], \"buildings_destroyed\": [ids]}`. A player who "
                   "fought enters it and the other sides confirm; the umpire's entry is "
                   "recorded at once. 409 unless the campaign plays battles on the table.")
    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        member = membership(request.user, campaign_id)
        _battle(member, battle_id, ("id",))
        typed = validated(TabletopResultSerializer, request.data)
        # The declared fields typed by the serializer; a ruleset's own result fields (its
        # tabletop form) pass through to its `clean_result`, which checks them.
        battle = tabletop.submit_result(member=member, battle_id=battle_id,
                                        data={**(request.data if isinstance(request.data, dict)
                                                 else {}), **typed})
        return Response(battle_detail(battle, member))


class BattleConfirmView(APIView):
    @extend_schema(request=None, responses={200: dict},
                   summary="Confirm a tabletop battle's result",
                   description="Each other player who fought confirms; the umpire's "
                   "confirmation decides. Recorded once everyone has confirmed.")
    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        member = membership(request.user, campaign_id)
        _battle(member, battle_id, ("id",))
        battle = tabletop.confirm_result(member=member, battle_id=battle_id)
        return Response(battle_detail(battle, member))


class OddsRequestSerializer(serializers.Serializer):
    territory = serializers.IntegerField()
    units = serializers.ListField(child=WholeNumberField(), allow_empty=False,
                                  max_length=50)
    simulations = WholeNumberField(required=False)
    # A bound on every list (issue 11): a hypothetical enemy is at most a large battle.
    enemy = serializers.ListField(child=serializers.DictField(), required=False,
                                  max_length=50)


def odds_data(item: OddsRequest) -> dict[str, Any]:
    return {"id": item.pk, "status": item.status, "territory": item.territory_id,
            "units": item.units, "simulations": item.simulations, "seed": item.seed,
            "result": item.result, "error": item.error or None,
            "created_at": item.created_at, "finished_at": item.finished_at}


class OddsCreateView(APIView):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "odds"

    @extend_schema(request=OddsRequestSerializer, responses={202: dict},
                   summary="Ask for the odds of a battle",
                   description="A background job runs `simulations` seeded battles of "
                   "your units against the enemy you may know of there (R-BJ-8). Poll "
                   "`GET .../odds/{id}/`.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        player = require_player(member)
        data = validated(OddsRequestSerializer, request.data,
                         codes={"territory": "invalid_territory", "units": "invalid_units",
                                "simulations": "invalid_simulations"})
        item = odds.request_odds(player=player, territory_id=data["territory"],
                                 unit_ids=data["units"], enemy=data.get("enemy"),
                                 simulations=data.get("simulations"))
        item.refresh_from_db()
        return Response(odds_data(item), status=status.HTTP_202_ACCEPTED)


class OddsDetailView(APIView):
    @extend_schema(responses={200: dict}, summary="An odds request's status and result")
    def get(self, request: Request, campaign_id: int, odds_id: int) -> Response:
        member = membership(request.user, campaign_id)
        if member.player is None:
            raise NotFound("No such odds request.")
        return Response(odds_data(odds.odds_for(player=member.player, odds_id=odds_id)))
