from campaign.models import Player


def test_start_smoke(started):
    campaign = started()
    assert campaign.status == "running"
    for p in Player.objects.filter(campaign=campaign):
        assert p.territories.count() == 1
