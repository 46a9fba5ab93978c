"""The rule tables and formulas of Unlimit3d 8, as pure Python (no Django).

`from campaign.rules import BUILDINGS, WEAPONS, weapon_price, ...`
Everything public of `tables` and `formulas` is re-exported here. The battle's own
tables and formulas, and the JSON of `GET /api/rules/`, are Unlimit3d 8's tactical
game's (`battles/rulesets/unlimit3d8/`).
"""

from campaign.rules.formulas import *  # noqa: F403
from campaign.rules.formulas import __all__ as _formulas_all
from campaign.rules.tables import *  # noqa: F403
from campaign.rules.tables import __all__ as _tables_all

__all__ = [*_tables_all, *_formulas_all]
