"""Issue 19.9: the journal's ids must not count other players' private actions.

With sequential ids, alice saw her own entries numbered 10 and 15 and knew that four
entries she may not read (bob's purchases, say) were written in between. The API now
shows a random public id; the journal stays in the order it was written."""

from __future__ import annotations

from campaign.models import Event
from campaign.services.journal import record_private


def test_event_ids_do_not_count_other_players_private_entries(world, client_for):
    alice, bob = world.alice, world.bob
    record_private(player=alice, kind="purchase", data={"n": 1})
    for i in range(4):
        record_private(player=bob, kind="purchase", data={"n": i})
    record_private(player=alice, kind="purchase", data={"n": 2})
    url = f"/api/campaigns/{world.campaign.pk}/events/?kind=purchase"
    mine = client_for(world.users["alice"]).get(url).json()
    assert [e["data"]["n"] for e in mine] == [1, 2]  # oldest first, as written
    first, second = (e["id"] for e in mine)
    internal = list(Event.objects.filter(kind="purchase", viewers=alice)
                    .order_by("id").values_list("id", flat=True))
    assert internal[1] - internal[0] == 5  # what the old ids would have told alice
    assert {first, second}.isdisjoint(internal)
    assert abs(second - first) > 1000  # random over 2**53: no count to read
