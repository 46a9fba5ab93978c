"""The rule tables and formulas of Unlimit3d 8, as pure Python (no Django).

`from campaign.rules import BUILDINGS, WEAPONS, weapon_price, base_defense, ...`
Everything public of `tables`, `formulas` and `serialize` is re-exported here.
"""

from campaign.rules.formulas import *  # noqa: F403
from campaign.rules.formulas import __all__ as _formulas_all
from campaign.rules.serialize import *  # noqa: F403
from campaign.rules.serialize import __all__ as _serialize_all
from campaign.rules.tables import *  # noqa: F403
from campaign.rules.tables import __all__ as _tables_all

__all__ = [*_tables_all, *_formulas_all, *_serialize_all]
