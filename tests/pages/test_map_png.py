"""Issue 16, "Exports people use": the meta-map as a PNG at any phase, which a forum or
Discord shows inline. The same rows as the SVG and the map page, so the same readers and
the same secrecy; each territory's disc is in the colour of whoever held it then."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from PIL import Image

from campaign.models import Campaign, PhaseChange, Player
from territories.models import Territory
from territories.png import centre
from territories.services.history import owners_at

pytestmark = pytest.mark.django_db


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _discs(png: bytes, campaign: Campaign) -> dict[int, tuple[int, int, int]]:
    """The colour at the centre of each territory's disc."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    rows = list(Territory.objects.filter(campaign=campaign).values("id", "x", "y"))
    return {t["id"]: image.getpixel(tuple(round(v) for v in centre(t, len(rows))))
            for t in rows}


def test_the_map_as_a_png_now_and_at_a_past_phase(web_client, played_campaign, alice):
    colours = {p.pk: _rgb(p.color) for p in Player.objects.filter(campaign=played_campaign)}
    base = f"/campaigns/{played_campaign.pk}/map.png"
    now = web_client(alice).get(base)
    assert now.status_code == 200 and now["Content-Type"] == "image/png"
    assert now.content.startswith(b"\x89PNG") and "map-now.png" in now["Content-Disposition"]
    held = dict(Territory.objects.filter(campaign=played_campaign)
                .values_list("pk", "owner_id"))
    for territory, colour in _discs(now.content, played_campaign).items():
        owner = held[territory]
        assert colour == (colours[owner] if owner else _rgb("#e4e4e4")), territory

    first = PhaseChange.objects.filter(campaign=played_campaign).order_by("id").first()
    past = web_client(alice).get(base + "?at=0")
    assert past.status_code == 200
    assert f"turn-{first.turn}-{first.phase}.png" in past["Content-Disposition"]
    then = owners_at(played_campaign, first.turn, first.phase)
    for territory, colour in _discs(past.content, played_campaign).items():
        owner = then.get(territory)
        assert colour == (colours[owner] if owner else _rgb("#e4e4e4")), territory


def test_the_png_is_for_the_campaign_s_readers_only(played_campaign, django_user_model):
    url = f"/campaigns/{played_campaign.pk}/map.png"
    visitor = Client().get(url)
    assert visitor.status_code == 302 and "/accounts/login/" in visitor["Location"]
    outsider = Client()
    outsider.force_login(django_user_model.objects.create_user(username="dora",
                                                               password="x" * 12))
    assert outsider.get(url).status_code == 404
    Campaign.objects.filter(pk=played_campaign.pk).update(
        options={**played_campaign.options, "public": True})
    assert Client().get(url + "?at=0").status_code == 200


def test_the_png_costs_a_bounded_number_of_queries(web_client, played_campaign, alice,
                                                   django_assert_max_num_queries):
    client = web_client(alice)
    client.get(f"/campaigns/{played_campaign.pk}/map/")  # the session is warm
    with django_assert_max_num_queries(15):
        assert client.get(f"/campaigns/{played_campaign.pk}/map.png?at=0").status_code == 200


def test_a_big_league_s_legend_is_drawn_in_columns_with_every_player():
    """A 125-player league: the legend's 126 entries stand in 4 columns of 32 rows (the
    picture about as tall as its map, not 3,000 pixels of legend), and each player's
    swatch is in their colour where the column layout puts it."""
    from territories.png import (
        LEGEND_COLUMNS,
        LEGEND_ROW,
        MARGIN,
        SIZE,
        TOP,
        legend_rows,
        meta_map_png,
    )

    players = {pk: {"username": f"player-{pk}-with-a-rather-long-name-indeed",
                    "color": f"#{pk:02x}{(pk * 7) % 256:02x}80"} for pk in range(1, 126)}
    territories = [{"id": i, "x": (i % 10) / 10, "y": (i // 10) / 10, "name": f"t{i}",
                    "owner": (i % 125) + 1, "neighbors": []} for i in range(200)]
    png = meta_map_png(campaign_name="Big league", caption="turn 1", territories=territories,
                       players=players)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    rows = legend_rows(126)
    assert rows == 32
    assert image.height == TOP + SIZE + MARGIN + rows * LEGEND_ROW + MARGIN
    width = SIZE // LEGEND_COLUMNS
    for index, pk in enumerate(sorted(players), start=1):  # entry 0 is "unclaimed"
        x = MARGIN + (index // rows) * width + 9
        y = TOP + SIZE + MARGIN + (index % rows) * LEGEND_ROW + 12
        assert image.getpixel((x, y)) == _rgb(players[pk]["color"]), pk
    assert legend_rows(3) == 3 and legend_rows(12) == 12  # a small league: one column
