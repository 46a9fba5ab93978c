from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from django.apps import AppConfig

if TYPE_CHECKING:
    from battles.rulesets.base import Ruleset


class BattlesConfig(AppConfig):
    """Battle records, the Celery jobs that run them, and the recording of results."""

    name = "battles"

    def ready(self) -> None:
        """Connect the app's receivers (`battles/connections.py`) and tell the core which
        tactical rulesets this site offers (the core imports no other app; it reads them
        from `campaign.rulesets`)."""
        from django.conf import settings

        from battles import connections  # noqa: F401 (connects on import)
        from battles.rulesets.registry import add_path, all_rulesets

        for name, path in getattr(settings, "EXTRA_RULESETS", {}).items():
            add_path(name, path)
        for ruleset in all_rulesets():
            offer(ruleset)


def _catalogue(ruleset: Ruleset, faction: str | None,
               options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    return [e.to_dict() for e in ruleset.catalogue(faction=faction, options=options)]


def offer(ruleset: Ruleset) -> None:
    """Tell the core about one tactical ruleset (name, title, tables, catalogue, its own
    options, what a player buys, how a bought unit starts and what repairing it costs)."""
    from battles.rulesets.base import option_defaults
    from campaign import rulesets

    rulesets.register(rulesets.RulesetInfo(
        name=ruleset.name, title=ruleset.title, version=ruleset.version,
        seed=ruleset.seed_file, dice=tuple(ruleset.dice), factions=tuple(ruleset.factions),
        tables=ruleset.tables,
        catalogue=partial(_catalogue, ruleset),
        options=option_defaults(ruleset.option_specs),
        initial_state=ruleset.initial_state, repair=ruleset.repair,
        check_options=ruleset.check_options, name_lists=ruleset.name_lists,
        option_specs=tuple(ruleset.option_specs),
        purchase_kinds=tuple(ruleset.purchase_kinds), repairs=ruleset.repairs))
