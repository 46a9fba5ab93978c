"""Issue 26 (items 1, 10, 13): the umpire console's sections, its settings form (durations
in hours and days, the ruleset's options from the ruleset's own declaration), removing
and replacing a player while the campaign runs, export and import from the page, and the
site's own 403/404 pages even with DEBUG on."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.html import escape

from campaign import rulesets
from campaign.models import Campaign, Event, Player
from campaign.options import OPTIONS
from campaign.services import clock
from tests.pages.forms import settings_form

SECTIONS = ("", "seats/", "correct/", "settings/", "data/")


def _settings_url(campaign: Campaign) -> str:
    return f"/campaigns/{campaign.pk}/umpire/settings/"


def _events(campaign: Campaign, kind: str) -> int:
    return Event.objects.filter(campaign=campaign, kind=kind).count()


# --- sections ------------------------------------------------------------------------


@pytest.mark.parametrize("section", SECTIONS)
def test_every_section_is_its_own_page_with_the_section_nav(web_client, running_campaign,
                                                            uma, alice, section):
    url = f"/campaigns/{running_campaign.pk}/umpire/{section}"
    r = web_client(uma).get(url)
    html = r.content.decode()
    assert r.status_code == 200
    assert 'aria-label="Umpire console sections"' in html
    assert f'<a href="{url}" aria-current="page">' in html
    # the campaign's own nav still marks the console as the page one is on
    assert f'href="/campaigns/{running_campaign.pk}/umpire/" aria-current="page"' in html
    assert web_client(alice).get(url).status_code == 403


def test_each_section_holds_only_its_own_forms(web_client, running_campaign, uma):
    page = web_client(uma)
    base = f"/campaigns/{running_campaign.pk}/umpire/"
    clock_html = page.get(base).content.decode()
    seats = page.get(base + "seats/").content.decode()
    fixes = page.get(base + "correct/").content.decode()
    assert "Advance to the next phase" in clock_html and "Record correction" not in clock_html
    assert "Hand the seat over" in seats and "Save settings" not in seats
    assert "Record correction" in fixes and "Correct ownership" in fixes
    assert "Roll back" in fixes and "Advance to the next phase" not in fixes


# --- settings: item 1 and the hours/days form ------------------------------------------


def test_the_settings_form_saved_unchanged_changes_nothing_and_says_so(
        web_client, running_campaign, uma):
    page = web_client(uma)
    url = _settings_url(running_campaign)
    before = (dict(running_campaign.options), _events(running_campaign, "settings_changed"))
    r = page.post(url, settings_form(page, url), follow=True)
    html = r.content.decode()
    assert r.status_code == 200
    assert "must be an object" not in html
    assert "Nothing changed: the settings were already these." in html
    running_campaign.refresh_from_db()
    assert (running_campaign.options, _events(running_campaign, "settings_changed")) == before


@pytest.mark.parametrize("key", [k for k in OPTIONS if k.endswith("_seconds")])
@pytest.mark.parametrize(("amount", "unit", "seconds"), [("3", "hours", 3 * 3600),
                                                         ("1.5", "hours", 5400),
                                                         ("4", "days", 4 * 86400)])
def test_a_duration_in_hours_or_days_saves_its_seconds(web_client, running_campaign, uma,
                                                       key, amount, unit, seconds):
    page = web_client(uma)
    url = _settings_url(running_campaign)
    form = {**settings_form(page, url), key: amount, f"{key}__unit": unit}
    r = page.post(url, form)
    assert r.status_code == 302, r.content.decode()[:2000]
    running_campaign.refresh_from_db()
    assert getattr(running_campaign.settings, key) == seconds
    changed = Event.objects.filter(campaign=running_campaign, kind="settings_changed").last()
    assert changed is not None and changed.data["changes"] == {key: seconds}


def test_a_duration_is_shown_in_days_or_hours_with_its_help(web_client, make_campaign, uma):
    campaign = make_campaign(uma, options={"move_seconds": 3 * 86400,
                                           "reminder_seconds": 5400})
    html = web_client(uma).get(_settings_url(campaign)).content.decode()
    form = settings_form(web_client(uma), _settings_url(campaign))
    assert (form["move_seconds"], form["move_seconds__unit"]) == ("3", "days")
    assert (form["reminder_seconds"], form["reminder_seconds__unit"]) == ("1.5", "hours")
    assert "Move phase length" in html and OPTIONS["move_seconds"].help in html
    for group in dict.fromkeys(o.group for o in OPTIONS.values()):
        assert f"<legend>{group}</legend>" in html
    assert "in seconds" not in html


def test_public_league_approval_and_webhook_save_from_the_page(web_client, setup_campaign,
                                                              uma):
    page = web_client(uma)
    url = _settings_url(setup_campaign)
    form = {**settings_form(page, url), "public": "on", "approve_joins": "on",
            "webhook_url": "https://93.184.216.34/hook"}
    assert page.post(url, form).status_code == 302
    setup_campaign.refresh_from_db()
    assert setup_campaign.settings.public is True
    assert setup_campaign.settings.approve_joins is True
    assert setup_campaign.settings.webhook_url == "https://93.184.216.34/hook"


@pytest.mark.parametrize(("field", "value", "message"), [
    ("move_seconds", "-2", "greater than or equal to 0"),
    ("move_seconds", "61", "At most 60 days."),
    ("move_seconds", "two", "Enter a number"),
    ("missed_turns_alert", "0", "greater than or equal to 1"),
    ("battle_mode", "dice", "Select a valid choice"),
    ("webhook_url", "http://127.0.0.1/x", "webhook"),
])
def test_a_bad_value_is_a_form_error_and_nothing_is_saved(web_client, running_campaign, uma,
                                                         field, value, message):
    page = web_client(uma)
    url = _settings_url(running_campaign)
    before = (dict(running_campaign.options), Event.objects.count())
    unit = {"move_seconds__unit": "days"} if field == "move_seconds" else {}
    r = page.post(url, {**settings_form(page, url), "missed_turns_alert": "7", field: value,
                        **unit})
    html = r.content.decode()
    assert r.status_code == 400
    assert message.lower() in html.lower()
    assert "nothing was saved" in html
    running_campaign.refresh_from_db()
    assert (running_campaign.options, Event.objects.count()) == before


def test_the_ruleset_cannot_change_once_the_campaign_runs(web_client, running_campaign, uma):
    page = web_client(uma)
    url = _settings_url(running_campaign)
    others = [r.name for r in rulesets.all_rulesets()
              if r.name != running_campaign.settings.ruleset]
    form = {**settings_form(page, url), "ruleset": others[0]}
    page.post(url, form)
    running_campaign.refresh_from_db()
    assert running_campaign.settings.ruleset != others[0]


# --- the ruleset's options: generated from its declaration ----------------------------


def _with_options() -> list[rulesets.RulesetInfo]:
    return [r for r in rulesets.all_rulesets()
            if any(not isinstance(s.default, list) for s in r.option_specs)]


def test_every_ruleset_declares_each_option_once_with_its_words():
    for info in rulesets.all_rulesets():
        assert [s.key for s in info.option_specs] == list(info.options), info.name
        for spec in info.option_specs:
            assert spec.default == info.options[spec.key]
            assert spec.label and spec.help.endswith("."), spec.key
            if spec.choices:
                assert spec.default in spec.choices, spec.key


@pytest.mark.parametrize("info", _with_options(), ids=lambda i: i.name)
def test_the_ruleset_options_form_comes_from_the_declaration(web_client, make_campaign, uma,
                                                            info):
    campaign = make_campaign(uma, options={"ruleset": info.name})
    page = web_client(uma)
    url = _settings_url(campaign)
    html = page.get(url).content.decode()
    form = settings_form(page, url)
    assert f"{escape(info.title)}: its own options" in html
    for spec in info.option_specs:
        if isinstance(spec.default, list):
            assert f"ro__{spec.key}" not in form
            continue
        assert escape(spec.label) in html and escape(spec.help) in html
        if spec.choices:
            for choice in spec.choices:
                assert f'<option value="{choice}"' in html
        if spec.minimum is not None and isinstance(spec.default, int) \
                and not isinstance(spec.default, bool):
            assert f'min="{spec.minimum}"' in html
    # unchanged it saves; a bounded number set inside its bounds is stored as a number
    assert page.post(url, form).status_code == 302
    campaign.refresh_from_db()
    assert campaign.settings.ruleset_options == {}
    bounded = next((s for s in info.option_specs if isinstance(s.default, int)
                    and not isinstance(s.default, bool) and s.maximum is not None), None)
    if bounded is not None:
        assert page.post(url, {**form, f"ro__{bounded.key}": bounded.maximum}).status_code \
            in (302, 400)
        campaign.refresh_from_db()
        stored = campaign.settings.ruleset_options
        assert stored in ({}, {bounded.key: bounded.maximum})
        before = dict(campaign.options)
        r = page.post(url, {**form, f"ro__{bounded.key}": bounded.maximum + 1})
        assert r.status_code == 400
        assert f"less than or equal to {bounded.maximum}" in r.content.decode()
        campaign.refresh_from_db()
        assert campaign.options == before


def test_the_api_refuses_a_ruleset_option_outside_its_declared_bounds():
    for info in rulesets.all_rulesets():
        for spec in info.option_specs:
            if spec.maximum is not None:
                with pytest.raises(ValueError, match="at most"):
                    rulesets.check_ruleset_options({spec.key: spec.maximum + 1})
            if spec.choices is not None:
                with pytest.raises(ValueError, match="one of"):
                    rulesets.check_ruleset_options({spec.key: "no such choice"})


# --- removing and replacing a player ----------------------------------------------------


def _remove(page, campaign: Campaign, seat: Player):
    return page.post(f"/campaigns/{campaign.pk}/umpire/remove/", {"player": seat.pk},
                     follow=True)


def test_a_removed_player_leaves_and_the_seat_keeps_what_it_holds(
        web_client, running_campaign, uma, alice, bob):
    from territories.models import Territory

    seat = Player.objects.get(campaign=running_campaign, user=alice)
    held = (seat.credits, Territory.objects.filter(owner=seat).count())
    r = _remove(web_client(uma), running_campaign, seat)
    assert "alice no longer plays this campaign" in r.content.decode()
    seat.refresh_from_db()
    assert seat.removed_at is not None and seat.ready
    assert (seat.credits, Territory.objects.filter(owner=seat).count()) == held
    entry = Event.objects.filter(campaign=running_campaign, kind="seat_removed").get()
    assert entry.data == {"player": seat.pk, "username": "alice", "by": "uma"}
    assert entry.visibility == "public"
    # alice: a page saying what happened, and the campaign is gone from her list
    r = web_client(alice).get(f"/campaigns/{running_campaign.pk}/")
    html = r.content.decode()
    assert r.status_code == 403
    assert "<h1>You no longer play this campaign</h1>" in html
    assert "The umpire removed you from Test league" in html
    assert "Traceback" not in html
    assert f"/campaigns/{running_campaign.pk}/" not in web_client(alice).get("/").content.decode()
    api = web_client(alice).get(f"/api/campaigns/{running_campaign.pk}/")
    # the API keeps its contract: a campaign that is not yours is a 404, with the reason
    assert api.status_code == 404 and api.json()["code"] == "not_found"
    assert "The umpire removed you" in api.json()["detail"]
    # the removed seat neither holds back the next phase nor is counted as missing
    clock.advance(campaign_id=running_campaign.pk, by="umpire")
    seat.refresh_from_db()
    assert seat.ready
    clock.mark_ready(player=Player.objects.get(campaign=running_campaign, user=bob))
    running_campaign.refresh_from_db()
    assert running_campaign.phase == "move"  # bob alone was enough: everyone ready


def test_removing_twice_or_a_stranger_changes_nothing(web_client, running_campaign, uma,
                                                     alice):
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    page = web_client(uma)
    _remove(page, running_campaign, seat)
    before = Event.objects.count()
    r = _remove(page, running_campaign, seat)
    assert "alice was already removed" in r.content.decode()
    r = page.post(f"/campaigns/{running_campaign.pk}/umpire/remove/", {"player": "x"},
                  follow=True)
    assert "Choose a player of this campaign." in r.content.decode()
    assert Event.objects.count() == before
    assert web_client(alice).post(f"/campaigns/{running_campaign.pk}/umpire/remove/",
                                  {"player": seat.pk}).status_code == 403


def test_a_removed_seat_handed_over_is_played_again(web_client, running_campaign, uma,
                                                    alice, charlie):
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    page = web_client(uma)
    _remove(page, running_campaign, seat)
    html = page.get(f"/campaigns/{running_campaign.pk}/umpire/seats/").content.decode()
    assert "alice's former seat" in html and "Hand the seat to" in html
    r = page.post(f"/campaigns/{running_campaign.pk}/umpire/handover/",
                  {"player": seat.pk, "username": "charlie"}, follow=True)
    assert "The seat now belongs to charlie" in r.content.decode()
    seat.refresh_from_db()
    assert (seat.user, seat.removed_at, seat.notifications) == (charlie, None, True)
    handed = Event.objects.filter(campaign=running_campaign, kind="seat_handed_over").get()
    assert handed.data["from"] == "alice" and handed.data["to"] == "charlie"
    assert web_client(charlie).get(f"/campaigns/{running_campaign.pk}/").status_code == 200


def test_replacing_a_player_with_nobody_is_a_message_and_changes_nothing(
        web_client, running_campaign, uma, alice):
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    before = Event.objects.count()
    r = web_client(uma).post(f"/campaigns/{running_campaign.pk}/umpire/handover/",
                             {"player": seat.pk, "username": "  "}, follow=True)
    assert "Give the username of the person who takes the seat" in r.content.decode()
    for name in ("nobody-at-all",):
        r = web_client(uma).post(f"/campaigns/{running_campaign.pk}/umpire/handover/",
                                 {"player": seat.pk, "username": name}, follow=True)
        assert "No user with that name." in r.content.decode()
    seat.refresh_from_db()
    assert seat.user == alice and Event.objects.count() == before


# --- export and import ------------------------------------------------------------------


def test_export_downloads_the_document_and_import_lands_on_the_copy(web_client,
                                                                    running_campaign, uma):
    page = web_client(uma)
    base = f"/campaigns/{running_campaign.pk}/umpire/data/"
    r = page.get(base + "export/")
    assert r.status_code == 200
    assert r["Content-Disposition"] == 'attachment; filename="test-league-turn-1.json"'
    document = json.loads(r.content)
    assert document["format"] == "unlimit3d-campaign"
    upload = SimpleUploadedFile("league.json", r.content, content_type="application/json")
    r = page.post(base + "import/", {"document": upload})
    copy = Campaign.objects.exclude(pk=running_campaign.pk).get()
    assert r.status_code == 302 and r["Location"] == f"/campaigns/{copy.pk}/"
    assert copy.umpire == uma


@pytest.mark.parametrize(("content", "message"), [
    (b"not json at all", "it is not JSON"),
    (b'{"format": "something else"}', "cannot be imported"),
])
def test_a_bad_import_is_a_form_error_and_makes_nothing(web_client, running_campaign, uma,
                                                        content, message):
    r = web_client(uma).post(f"/campaigns/{running_campaign.pk}/umpire/data/import/",
                             {"document": SimpleUploadedFile("x.json", content)})
    assert r.status_code == 400
    assert message in r.content.decode() and "Nothing was imported." in r.content.decode()
    assert Campaign.objects.count() == 1


# --- 403 and 404 pages, DEBUG on too ------------------------------------------------------


@pytest.mark.parametrize("debug", [True, False])
def test_a_page_404_is_the_sites_own_page_even_with_debug(web_client, running_campaign,
                                                          charlie, settings, debug):
    settings.DEBUG = debug
    r = web_client(charlie).get(f"/campaigns/{running_campaign.pk}/")
    html = r.content.decode()
    assert r.status_code == 404
    assert "<h1>Nothing here</h1>" in html and "Join it with your invite code" in html
    assert "Raised by" not in html and "technical" not in html.lower()


@pytest.mark.parametrize("debug", [True, False])
def test_a_page_403_is_the_sites_own_page_even_with_debug(web_client, running_campaign,
                                                          alice, settings, debug):
    settings.DEBUG = debug
    r = web_client(alice).get(f"/campaigns/{running_campaign.pk}/umpire/")
    html = r.content.decode()
    assert r.status_code == 403
    assert "<h1>Not for you</h1>" in html
    assert "Only the umpire of this campaign has this page." in html


def test_a_removed_player_sees_the_styled_page_with_debug_on(web_client, running_campaign,
                                                             uma, alice, settings):
    settings.DEBUG = True
    _remove(web_client(uma), running_campaign, Player.objects.get(
        campaign=running_campaign, user=alice))
    for path in ("", "map/", "economy/"):
        r = web_client(alice).get(f"/campaigns/{running_campaign.pk}/{path}")
        assert r.status_code == 403, path
        assert "The umpire removed you" in r.content.decode(), path


def test_a_rollback_keeps_the_removal(web_client, client_for, running_campaign, uma, alice):
    """Who plays which seat is administration, not game state (issue 26, item 2): a
    rollback undoes the game since, not the umpire's removal; the seat stays ready so
    the league does not wait for it. The umpire gives the seat back by handing it over."""
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    _remove(web_client(uma), running_campaign, seat)
    r = client_for(uma).post(f"/api/campaigns/{running_campaign.pk}/rollback/",
                             {"turn": 1, "phase": "commercial", "reason": "a mistake"},
                             format="json")
    assert r.status_code == 200, r.content
    seat.refresh_from_db()
    assert seat.removed_at is not None and seat.ready
    assert web_client(alice).get(f"/campaigns/{running_campaign.pk}/").status_code == 403


def test_a_removed_player_may_be_given_their_own_seat_back(web_client, running_campaign,
                                                           uma, alice, bob):
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    page = web_client(uma)
    _remove(page, running_campaign, seat)
    url = f"/campaigns/{running_campaign.pk}/umpire/handover/"
    r = page.post(url, {"player": seat.pk, "username": "bob"}, follow=True)
    assert "That user already has a seat in this campaign." in r.content.decode()
    page.post(url, {"player": seat.pk, "username": "alice"})
    seat.refresh_from_db()
    assert (seat.user, seat.removed_at) == (alice, None)
    assert web_client(alice).get(f"/campaigns/{running_campaign.pk}/").status_code == 200


@pytest.mark.parametrize("debug", [True, False])
def test_an_address_that_matches_no_page_is_the_sites_404_even_with_debug(
        web_client, alice, settings, debug):
    settings.DEBUG = debug
    r = web_client(alice).get("/campaigns/not-a-number/anything/")
    html = r.content.decode()
    assert r.status_code == 404
    assert "<h1>Nothing here</h1>" in html and "URL patterns" not in html
    api = web_client(alice).get("/api/no-such-route/")
    assert api.status_code == 404


def test_the_seats_page_costs_the_same_queries_for_more_players(web_client, make_campaign,
                                                                uma, alice, bob, charlie):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.services.campaigns import campaign_join

    campaign = make_campaign(uma)
    page = web_client(uma)
    url = f"/campaigns/{campaign.pk}/umpire/seats/"
    campaign_join(campaign_id=campaign.pk, user=alice, invite=campaign.invite_code)
    page.get(url)
    with CaptureQueriesContext(connection) as one:
        assert page.get(url).status_code == 200
    for user in (bob, charlie):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    with CaptureQueriesContext(connection) as three:
        html = page.get(url).content.decode()
    assert "charlie's seat" in html
    assert len(three) == len(one)
