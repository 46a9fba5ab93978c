"""Every Unlimit3d 8 rule the rule tests read, under one name: the strategic layer's
tables and formulas (`campaign.rules`) and its battle's (`battles/rulesets/unlimit3d8/`:
the roll, the move table, shields, base defense, the JSON of `GET /api/rules/`)."""

from battles.rulesets.unlimit3d8.rules import *  # noqa: F403
from battles.rulesets.unlimit3d8.serialize import rules_as_json as rules_as_json
from battles.rulesets.unlimit3d8.tables import *  # noqa: F403
from campaign.rules import *  # noqa: F403
