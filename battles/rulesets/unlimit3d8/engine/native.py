"""The Unlimit3d 8 engine's compiled build (issue 15): its hot modules built by mypyc from
this very source into `build/engine-native/unlimit3d8/` (`make engine-native`, part of
`make install`), used only while the build matches every source file of the ruleset
(the loader: `campaign.rules.native`, shared by every ruleset).
"""

from __future__ import annotations

from campaign.rules.native import NativeBuild

#: The modules compiled together (they call one another natively, so all or none).
COMPILED = ("card", "damage", "geometry", "policy", "probability", "resolve", "state", "turn",
            "actions/attack", "actions/base", "actions/close_combat", "actions/designation",
            "actions/dispatch", "actions/logistics", "actions/move", "actions/order",
            "actions/piracy", "actions/ramming", "actions/ranged", "actions/repair",
            "actions/retreat", "actions/tackle", "actions/warp")
NATIVE = NativeBuild("unlimit3d8", "battles.rulesets.unlimit3d8.engine", COMPILED,
                     tree="battles.rulesets.unlimit3d8")
