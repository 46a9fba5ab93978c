"""Thin API views of the economy (API.md: "The player's own view", "Units", "Economy
actions"): authenticate, check membership, call one service, render."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.access import membership, require_player, require_umpire
from campaign.api.fields import TextField, WholeNumberField, YesNoField
from campaign.api.views import validated
from campaign.errors import Forbidden, NotFound
from campaign.schema import OBJECTS
from economy import selectors
from economy.correction_serializers import CorrectionIn, correction_input
from economy.models import Building, BuildingKit
from economy.services import (
    artifacts,
    buildings,
    commerce,
    corrections,
    energy,
    exchange,
    names,
    repairs,
    trades,
    units,
)


class BuildingIn(serializers.Serializer):
    territory = serializers.IntegerField()
    kind = TextField(max_length=40)
    x = WholeNumberField()
    y = WholeNumberField()
    kit = serializers.IntegerField(required=False, help_text="Place a factory-made kit "
                                   "for free instead of buying.")


class BuildingOut(serializers.ModelSerializer):
    product = serializers.ListField(child=serializers.CharField(), read_only=True,
                                    help_text="A factory's product line: its items' codes.")
    next_product = serializers.ListField(child=serializers.CharField(), read_only=True,
                                         help_text="The line a factory is being refitted "
                                         "to (empty when none).")

    class Meta:
        model = Building
        fields = ["id", "territory", "kind", "x", "y", "active", "hit_points", "upgrades",
                  "product", "next_product", "missiles", "weapon"]


class UpgradeIn(serializers.Serializer):
    upgrade = TextField(max_length=40)


class ProductIn(serializers.Serializer):
    product = serializers.JSONField(help_text='One item, a list of items or {"items": [...]}: '
                                    "up to 2 vehicle models, or up to 5 kinds of exo armour, "
                                    "weapons or equipment, or one building kind.")


class ActivationIn(serializers.Serializer):
    active = serializers.ListField(child=serializers.IntegerField())


class ContainerIn(serializers.Serializer):
    resource = TextField(max_length=40)
    units = WholeNumberField()
    refined = YesNoField(default=False)
    pure = YesNoField(required=False)


class ShipmentIn(serializers.Serializer):
    territory = serializers.IntegerField()
    containers = ContainerIn(many=True)


class PurchaseIn(serializers.Serializer):
    territory = serializers.IntegerField()
    item = serializers.DictField()


class UnitPatchIn(serializers.Serializer):
    name = TextField(required=False, allow_blank=True, trim_whitespace=False)
    pilot = serializers.IntegerField(required=False, allow_null=True)
    weapons = serializers.ListField(child=serializers.IntegerField(), required=False)


class NameIn(serializers.Serializer):
    name = TextField(allow_blank=True, trim_whitespace=False, help_text="1 to 40 characters.")


class TradeIn(serializers.Serializer):
    to_player = serializers.IntegerField()
    give = serializers.DictField(required=False, default=dict)
    receive = serializers.DictField(required=False, default=dict)


class BuildingListView(APIView):
    @extend_schema(responses={200: BuildingOut(many=True)},
                   description="The caller's buildings, on all their territories.")
    def get(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        qs = Building.objects.filter(territory__owner=player)
        return Response(BuildingOut(qs, many=True).data)

    @extend_schema(request=BuildingIn, responses={201: BuildingOut},
                   description="Commercial phase: buy a building on one of your territories.")
    def post(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(BuildingIn, request.data)
        building = buildings.building_create(player=player, territory_id=data["territory"],
                                             kind=data["kind"], x=data["x"], y=data["y"],
                                             kit=data.get("kit"))
        return Response(BuildingOut(building).data, status=status.HTTP_201_CREATED)


class UpgradeView(APIView):
    @extend_schema(request=UpgradeIn, responses={201: BuildingOut},
                   description="Commercial phase: buy an upgrade for one of your buildings.")
    def post(self, request: Request, campaign_id: int, building_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(UpgradeIn, request.data)
        building = buildings.building_upgrade(player=player, building_id=building_id,
                                              upgrade=data["upgrade"])
        return Response(BuildingOut(building).data, status=status.HTTP_201_CREATED)


class ProductView(APIView):
    @extend_schema(request=ProductIn, responses={200: BuildingOut},
                   description="Choose or refit a factory's product line "
                   '({"kind": "vehicle", "model"} or {"kind": "weapon", "weapon", '
                   '"templates"}).')
    def put(self, request: Request, campaign_id: int, building_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(ProductIn, request.data)
        building = buildings.factory_set_product(player=player, building_id=building_id,
                                                 product=data["product"])
        return Response(BuildingOut(building).data)


class TurretWeaponIn(serializers.Serializer):
    weapon = serializers.IntegerField(allow_null=True)


class TurretWeaponView(APIView):
    @extend_schema(request=TurretWeaponIn, responses={200: BuildingOut},
                   description="Activity phase: fit one of your loose weapons on the same "
                   "territory to a turret (or a turret mount), or take it off with null.")
    def put(self, request: Request, campaign_id: int, building_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(TurretWeaponIn, request.data)
        building = buildings.turret_fit(player=player, building_id=building_id,
                                        weapon=data["weapon"])
        return Response(BuildingOut(building).data)


class ActivationView(APIView):
    @extend_schema(request=ActivationIn, responses={200: dict},
                   description="Activity phase: the buildings of this territory that are "
                   "active; 400 code energy when the territory cannot power them.")
    def put(self, request: Request, campaign_id: int, territory_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(ActivationIn, request.data)
        active = energy.activation_set(player=player, territory_id=territory_id,
                                       active=data["active"])
        return Response({"territory": territory_id, "active": active})


class ShipmentView(APIView):
    @extend_schema(request=ShipmentIn, responses={201: dict},
                   description="Commercial phase: ship containers through landing pads.")
    def post(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(ShipmentIn, request.data)
        shipment = commerce.shipment_create(player=player, territory_id=data["territory"],
                                            containers=data["containers"])
        return Response({"id": shipment.pk, "territory": shipment.territory_id,
                         "containers": shipment.cargo, "value": shipment.value,
                         "credits": player.credits}, status=status.HTTP_201_CREATED)


class PurchaseView(APIView):
    @extend_schema(request=PurchaseIn, responses={201: dict},
                   description='Commercial phase: buy an item; answers {"unit"|"pilot"|'
                   '"weapon"|"building": id}.')
    def post(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(PurchaseIn, request.data)
        result = commerce.purchase(player=player, territory_id=data["territory"],
                                   item=data["item"])
        return Response({**result, "credits": player.credits}, status=status.HTTP_201_CREATED)


class UnitListView(APIView):
    @extend_schema(responses={200: OBJECTS}, description="The caller's units.")
    def get(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        return Response(selectors.units_of(player))


class UnitDetailView(APIView):
    @extend_schema(request=UnitPatchIn, responses={200: dict},
                   description="Activity phase: crew (pilot) and fit (weapons) a unit. Any "
                   "phase: name it (1 to 40 characters).")
    def patch(self, request: Request, campaign_id: int, unit_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(UnitPatchIn, request.data)
        kwargs = {k: data[k] for k in ("name", "pilot", "weapons") if k in data}
        unit = units.unit_update(player=player, unit_id=unit_id, **kwargs)
        return Response(next(u for u in selectors.units_of(player) if u["id"] == unit.pk))


class UnitRepairView(APIView):
    @extend_schema(request=None, responses={200: dict},
                   description="Commercial phase, rulesets other than Unlimit3d 8: restore a "
                   "unit (lost figures, lasting damage) for the SC its ruleset prices.")
    def post(self, request: Request, campaign_id: int, unit_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        return Response(repairs.repair_unit(player=player, unit_id=unit_id))


class PilotListView(APIView):
    @extend_schema(responses={200: OBJECTS}, description="The caller's operatives.")
    def get(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        return Response(selectors.pilots_of(player))


class PilotDetailView(APIView):
    @extend_schema(request=NameIn, responses={200: dict},
                   description="Any phase: name one of the caller's operatives.")
    def patch(self, request: Request, campaign_id: int, pilot_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        op = names.pilot_rename(player=player, pilot_id=pilot_id,
                                name=validated(NameIn, request.data)["name"])
        return Response(next(p for p in selectors.pilots_of(player) if p["id"] == op.pk))


class WeaponDetailView(APIView):
    @extend_schema(request=NameIn, responses={200: dict},
                   description="Any phase: name one of the caller's weapons.")
    def patch(self, request: Request, campaign_id: int, weapon_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        weapon = names.weapon_rename(player=player, weapon_id=weapon_id,
                                     name=validated(NameIn, request.data)["name"])
        return Response(next(w for w in selectors.weapons_of(player) if w["id"] == weapon.pk))


class WeaponListView(APIView):
    @extend_schema(responses={200: OBJECTS}, description="The caller's weapons and equipment.")
    def get(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        return Response(selectors.weapons_of(player))


class MeView(APIView):
    @extend_schema(responses={200: dict}, description="The caller's own view.")
    def get(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        return Response(selectors.me(player))


class TradeListView(APIView):
    @extend_schema(responses={200: OBJECTS}, operation_id="campaigns_trades_list",
                   description="Trades the caller is party to (the umpire sees all).")
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        found = list(trades.visible_trades(member))
        words = selectors.trade_sentences(found)
        return Response([trades.trade_as_dict(t, words[t.pk]) for t in found])

    @extend_schema(request=TradeIn, responses={201: dict},
                   description="Commercial phase: offer a trade to another player.")
    def post(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(TradeIn, request.data)
        trade = trades.trade_create(player=player, to_player=data["to_player"],
                                    give=data["give"], receive=data["receive"])
        return Response(trades.trade_as_dict(trade), status=status.HTTP_201_CREATED)


class TradeDetailView(APIView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, campaign_id: int, trade_id: int) -> Response:
        member = membership(request.user, campaign_id)
        return Response(trades.trade_as_dict(trades.trade_for(member, trade_id)))


class TradeActionView(APIView):
    action = ""

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, campaign_id: int, trade_id: int) -> Response:
        member = membership(request.user, campaign_id)
        if member.player is None:
            trades.trade_for(member, trade_id)  # 404 if it does not exist
        player = require_player(member)
        service = {"accept": trades.trade_accept, "decline": trades.trade_decline,
                   "cancel": trades.trade_cancel}[self.action]
        try:
            trade = service(player=player, trade_id=trade_id)
        except NotFound:
            if member.sees_private:  # the trade is visible to this umpire: 403, not 404
                trades.trade_for(member, trade_id)
                raise Forbidden("Only the parties to a trade may do this.") from None
            raise
        return Response(trades.trade_as_dict(trade))


class CorrectionView(APIView):
    @extend_schema(request=CorrectionIn, responses={201: dict},
                   description="Umpire: correct one player's holdings, with a reason (kept "
                   "in the ledger and in the player's private journal). Any of: credits "
                   "(positive to grant, negative to take), goods on a territory "
                   '{"territory", "resource", "refined"?, "pure"?, "units"}, and a unit '
                   '({"model", "territory"}), weapon ({"weapon", "templates"?, '
                   '"territory"}), pilot ({"class", "territory", "name"?}) or building '
                   '({"kind", "territory", "x", "y"}) granted, or taken with {"take": id}. '
                   "Amounts are non-zero and at most 1,000,000 either way. Needs a "
                   '"request_id" chosen for this correction (428 without it; 409 '
                   "already_applied when repeated; a refused correction does not use it "
                   "up). 400 with `fields` naming what is wrong; nothing changes then.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        require_umpire(member)
        correction = correction_input(request.data)
        result = corrections.correction_claimed(campaign=member.campaign,
                                                correction=correction)
        return Response(result, status=status.HTTP_201_CREATED)


class KitListView(APIView):
    @extend_schema(responses={200: OBJECTS}, operation_id="campaigns_kits_list",
                   description="The caller's building kits (made by factories).")
    def get(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        return Response([{"id": k.pk, "kind": k.kind, "territory": k.territory_id,
                          "made_turn": k.made_turn, "used_turn": k.used_turn,
                          "building": k.building_id}
                         for k in BuildingKit.objects.filter(player=player)])


class HouseIn(serializers.Serializer):
    laboratory = serializers.IntegerField()


class ArtifactListView(APIView):
    @extend_schema(responses={200: OBJECTS}, operation_id="campaigns_artifacts_list",
                   description="The xenotechnologic artifacts the caller holds.")
    def get(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        return Response([artifacts.artifact_as_dict(a) for a in artifacts.artifacts_of(player)])


class ArtifactSellView(APIView):
    @extend_schema(request=None, responses={200: dict},
                   description="Commercial phase: sell the artifact found on this territory "
                   "for 200 SC (once).")
    def post(self, request: Request, campaign_id: int, territory_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        artifact = artifacts.artifact_sell(player=player, territory_id=territory_id)
        return Response({**artifacts.artifact_as_dict(artifact), "credits": player.credits})


class ArtifactHouseView(APIView):
    @extend_schema(request=HouseIn, responses={200: dict},
                   description="Commercial or activity phase: house the artifact found on "
                   "this territory in one of your laboratories (it doubles its research).")
    def post(self, request: Request, campaign_id: int, territory_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(HouseIn, request.data)
        artifact = artifacts.artifact_house(player=player, territory_id=territory_id,
                                            laboratory=data["laboratory"])
        return Response(artifacts.artifact_as_dict(artifact))


class ExchangeInSerializer(serializers.Serializer):
    from_unit = serializers.IntegerField(min_value=1)
    to_unit = serializers.IntegerField(min_value=1)
    weapon = serializers.IntegerField(min_value=1)


class ExchangeOutSerializer(serializers.Serializer):
    weapon = serializers.IntegerField()
    unit = serializers.IntegerField()
    slot = serializers.IntegerField(allow_null=True)


class ExchangeView(APIView):
    @extend_schema(request=ExchangeInSerializer, responses={201: ExchangeOutSerializer},
                   description="Move phase: move one weapon from one of your piloted units "
                   "to another in the same connected group of your territories.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        player = require_player(member)
        data = validated(ExchangeInSerializer, request.data)
        weapon = exchange.equipment_exchange(player=player, from_unit_id=data["from_unit"],
                                             to_unit_id=data["to_unit"],
                                             weapon_id=data["weapon"])
        return Response({"weapon": weapon.pk, "unit": weapon.unit_id, "slot": weapon.slot},
                        status=status.HTTP_201_CREATED)
