"""Names of units, pilots and weapons (issue 26, item 4).

A unit or a pilot gets a readable default when it arrives (bought, made by a factory,
granted by the umpire): its ruleset's name lists (`campaign.rulesets.RulesetInfo.
name_lists`, supplied by each ruleset through `Ruleset.name_lists`) and a hash of the
campaign, the player and the player's own counter (`campaign.rules.names`). Nothing is
drawn from the campaign's seeded dice, so naming changes no roll, replay or battle. A
weapon is known by its model until its owner names it.

Renaming: by the owner only, in any phase, 1 to 40 characters after trimming, no control
characters; someone else's unit, pilot or weapon is answered like one that does not exist
(404). A refused name changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, TypeVar

from django.db import transaction

from campaign import rulesets
from campaign.errors import InvalidInput, NotFound
from campaign.models import Campaign, Player
from campaign.rules import names
from campaign.rules.names import TakenNames
from economy.labels import model_label
from economy.models import Operative, Unit, Weapon
from economy.services.common import as_id


def name_lists(campaign: Campaign) -> names.NameLists:
    """The name lists of the campaign's ruleset (the defaults when it gives none)."""
    info = rulesets.get(campaign.settings.ruleset)
    return names.lists_from(info.name_lists() if info is not None else None)


def default_unit_name(*, player: Player, model: str, profile: dict[str, Any] | None = None,
                      taken: Collection[str] | None = None, campaign: Campaign | None = None,
                      lists: names.NameLists | None = None) -> str:
    """"Golem 'Iron Wolf'": the model and a nickname no other unit of the player bears
    (when the lists allow it). One query for the player's units' names unless `taken`
    is given; `lists`: the campaign's `name_lists`, when the caller names many units."""
    if taken is None:
        taken = list(Unit.objects.filter(player=player).values_list("name", flat=True))
    if lists is None:
        lists = name_lists(campaign or player.campaign)
    return names.unit_name(lists, model_label(model, profile),
                           campaign_id=player.campaign_id, player_id=player.pk,
                           counter=len(taken), taken=taken)


def default_unit_namer(*, player: Player, model: str, lists: names.NameLists
                       ) -> Callable[[TakenNames], str]:
    """`default_unit_name` of one model for one player as a function of the player's
    taken names, made once for the many units a factory makes in a row (issue 32)."""
    namer = names.unit_namer(lists, model_label(model), campaign_id=player.campaign_id,
                             player_id=player.pk)
    return lambda taken: namer(len(taken), taken)


def default_pilot_name(*, player: Player, taken: list[str] | None = None) -> str:
    """"Sgt. Mara Voss": a person's name no other operative of the player bears (when the
    lists allow it). One query unless `taken` is given."""
    if taken is None:
        taken = list(Operative.objects.filter(player=player).values_list("name", flat=True))
    return names.pilot_name(name_lists(player.campaign), campaign_id=player.campaign_id,
                            player_id=player.pk, counter=len(taken), taken=taken)


def clean_name(value: object) -> str:
    """A name a player typed, trimmed, or 400 `invalid_name` with the reason."""
    try:
        return names.clean_name(value)
    except names.NameError_ as exc:
        raise InvalidInput(str(exc), code="invalid_name",
                           fields={"name": [str(exc)]}) from None


def unit_rename(*, player: Player, unit_id: object, name: object) -> Unit:
    """The owner names one of their units (any phase)."""
    return _rename(Unit, player=player, pk=as_id(unit_id, "unit"), name=name, what="unit")


def pilot_rename(*, player: Player, pilot_id: object, name: object) -> Operative:
    """The owner names one of their operatives (any phase)."""
    return _rename(Operative, player=player, pk=as_id(pilot_id, "pilot"), name=name,
                   what="operative")


def weapon_rename(*, player: Player, weapon_id: object, name: object) -> Weapon:
    """The owner names one of their weapons (any phase)."""
    return _rename(Weapon, player=player, pk=as_id(weapon_id, "weapon"), name=name,
                   what="weapon")


Named = TypeVar("Named", Unit, Operative, Weapon)


def _rename(model: type[Named], *, player: Player, pk: int, name: object, what: str
            ) -> Named:
    cleaned = clean_name(name)
    with transaction.atomic():
        row = model.objects.select_for_update().filter(pk=pk, player=player).first()
        if row is None:
            raise NotFound(f"No such {what} among yours.")
        if row.name != cleaned:
            row.name = cleaned
            row.save(update_fields=["name"])
    return row
