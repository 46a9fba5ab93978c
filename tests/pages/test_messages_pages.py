"""Issue 26.5: the messages pages -- the threads with their unread counts, one thread with
its compose box (post/redirect/get and htmx), the navigation's unread badge, refused input
as a form error that writes nothing, and nobody's private thread shown to a third."""

from __future__ import annotations

import re

import pytest

from campaign.models import Campaign, Message, Player
from campaign.services.campaigns import campaign_join

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_campaign, uma, alice, bob, charlie):
    campaign = make_campaign(uma, name="Iron Coast")
    seats = {u.username: campaign_join(campaign_id=campaign.pk, user=u,
                                       invite=campaign.invite_code)
             for u in (alice, bob, charlie)}
    return campaign, seats


def url(campaign: Campaign, who: Player | None = None) -> str:
    base = f"/campaigns/{campaign.pk}/messages/"
    if who is None:
        return base
    return base + f"{who.pk}/"


def everyone(campaign: Campaign) -> str:
    return f"/campaigns/{campaign.pk}/messages/everyone/"


def nav_badge(html: str) -> str | None:
    found = re.search(r'Messages <span class="badge warn nav-badge">(\d+)', html)
    return found.group(1) if found else None


def test_a_message_written_on_the_page_reaches_its_reader_with_a_badge(
        table, web_client, alice, bob):
    campaign, seats = table
    r = web_client(alice).post(url(campaign, seats["bob"]), {"text": "Alliance?"})
    assert r.status_code == 302 and r["Location"] == url(campaign, seats["bob"]) + "#latest"
    bob_page = web_client(bob).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert nav_badge(bob_page) == "1"
    listing = web_client(bob).get(url(campaign)).content.decode()
    assert "1 unread" in listing and "Alliance?" in listing
    thread = web_client(bob).get(url(campaign, seats["alice"])).content.decode()
    assert "You and alice" in thread and "Alliance?" in thread and 'id="latest"' in thread
    # read: the badge is gone
    assert nav_badge(web_client(bob).get(url(campaign)).content.decode()) is None


def test_the_conversation_reads_oldest_first_and_marks_the_writer(table, web_client,
                                                                   alice, bob):
    campaign, seats = table
    web_client(alice).post(url(campaign, seats["bob"]), {"text": "First words"})
    web_client(bob).post(url(campaign, seats["alice"]), {"text": "An answer"})
    html = web_client(alice).get(url(campaign, seats["bob"])).content.decode()
    assert html.index("First words") < html.index("An answer")
    assert '<li class="bubble mine"' in html and "<strong>bob</strong>" in html


def test_htmx_sends_without_a_reload_and_gets_the_thread_back(table, web_client, alice,
                                                              bob):
    campaign, seats = table
    r = web_client(alice).post(url(campaign, seats["bob"]), {"text": "Quick word"},
                               HTTP_HX_REQUEST="true")
    body = r.content.decode()
    assert r.status_code == 200 and body.lstrip().startswith('<div id="thread"')
    assert "Quick word" in body and "<html" not in body
    assert Message.objects.get().recipient == seats["bob"]


@pytest.mark.parametrize(("text", "sentence"), [
    ("   ", "A message needs some text."),
    ("x" * 2001, "A message has at most 2000 characters."),
])
def test_bad_text_is_a_form_error_and_writes_nothing(table, web_client, alice, text,
                                                     sentence):
    campaign, seats = table
    r = web_client(alice).post(url(campaign, seats["bob"]), {"text": text})
    assert r.status_code == 400 and sentence in r.content.decode()
    assert 'role="alert"' in r.content.decode()
    assert not Message.objects.exists()


def test_too_many_messages_is_a_form_error_and_writes_nothing(table, web_client, alice,
                                                              settings):
    settings.MESSAGES_PER_MINUTE = 2
    campaign, _ = table
    client = web_client(alice)
    for i in range(2):
        assert client.post(everyone(campaign), {"text": f"m{i}"}).status_code == 302
    r = client.post(everyone(campaign), {"text": "one more"})
    assert r.status_code == 429
    assert "the most a player may" in r.content.decode()
    assert "one more" in r.content.decode()  # the text is kept for a later try
    assert Message.objects.count() == 2


def test_a_table_message_reaches_charlie_who_never_sees_alice_and_bob(
        table, web_client, alice, bob, charlie):
    campaign, seats = table
    web_client(alice).post(url(campaign, seats["bob"]), {"text": "Secret plan"})
    web_client(bob).post(url(campaign, seats["alice"]), {"text": "Secret yes"})
    web_client(alice).post(everyone(campaign), {"text": "Hello table"})
    c = web_client(charlie)
    listing = c.get(url(campaign)).content.decode()
    assert "Hello table" in listing and "1 unread" in listing
    assert "Secret" not in listing and listing.count('<span class="badge warn">') == 1
    assert nav_badge(c.get(f"/campaigns/{campaign.pk}/").content.decode()) == "1"
    for page in (url(campaign, seats["alice"]), url(campaign, seats["bob"]),
                 everyone(campaign)):
        assert "Secret" not in c.get(page).content.decode()
    api = c.get(f"/api/campaigns/{campaign.pk}/messages/").json()
    assert [m["text"] for m in api] == ["Hello table"]


def test_nobody_opens_a_thread_with_themselves_or_a_stranger(table, web_client, make_user,
                                                             uma, alice):
    campaign, seats = table
    other = Campaign.objects.create(name="Elsewhere", umpire=uma)
    stranger = Player.objects.create(campaign=other, user=make_user("dora"))
    client = web_client(alice)
    assert client.get(url(campaign, seats["alice"])).status_code == 404
    assert client.get(url(campaign, stranger)).status_code == 404
    assert client.post(url(campaign, stranger), {"text": "hi"}).status_code == 404
    assert not Message.objects.exists()


def test_the_umpire_reads_the_table_but_no_private_thread(table, web_client, uma, alice):
    campaign, seats = table
    web_client(alice).post(url(campaign, seats["bob"]), {"text": "Secret plan"})
    web_client(alice).post(everyone(campaign), {"text": "Hello table"})
    u = web_client(uma)
    listing = u.get(url(campaign)).content.decode()
    assert "Everyone at the table" in listing and "Secret" not in listing
    assert u.get(url(campaign, seats["bob"])).status_code == 404
    table_page = u.get(everyone(campaign)).content.decode()
    assert "Hello table" in table_page and "Only the players write here." in table_page
    assert 'name="text"' not in table_page
    assert u.post(everyone(campaign), {"text": "umpire speaking"}).status_code == 403
    assert Message.objects.count() == 2


def test_outsiders_and_spectators_of_a_public_league_get_no_messages(
        table, web_client, make_user, alice):
    campaign, _ = table
    Campaign.objects.filter(pk=campaign.pk).update(status="running",
                                                   options={"public": True})
    web_client(alice).post(everyone(campaign), {"text": "Hello table"})
    outsider = web_client(make_user("eve"))
    assert outsider.get(url(campaign)).status_code == 404
    assert outsider.get(everyone(campaign)).status_code == 404
    history = outsider.get(f"/campaigns/{campaign.pk}/history/")
    assert history.status_code == 200 and "/messages/" not in history.content.decode()


def test_the_umpire_reading_as_a_player_has_no_messages_link(table, web_client, uma):
    campaign, seats = table
    Campaign.objects.filter(pk=campaign.pk).update(status="running")
    html = web_client(uma).get(f"/campaigns/{campaign.pk}/history/?as={seats['bob'].pk}")
    assert html.status_code == 200 and "/messages/" not in html.content.decode()


def test_the_pages_cost_a_bounded_number_of_queries(table, web_client, alice, bob,
                                                    charlie, django_assert_max_num_queries):
    campaign, seats = table
    for i in range(20):
        web_client(bob).post(url(campaign, seats["alice"]), {"text": f"b{i}"})
        web_client(charlie).post(everyone(campaign), {"text": f"c{i}"})
    client = web_client(alice)
    client.get(url(campaign))  # the session is warm
    with django_assert_max_num_queries(14):
        assert client.get(url(campaign)).status_code == 200
    with django_assert_max_num_queries(16):
        assert client.get(url(campaign, seats["bob"])).status_code == 200


def test_messages_not_yet_read_are_marked_new_once(table, web_client, alice, bob):
    campaign, seats = table
    web_client(alice).post(url(campaign, seats["bob"]), {"text": "Fresh news"})
    client = web_client(bob)
    first = client.get(url(campaign, seats["alice"])).content.decode()
    assert '<span class="badge warn">new</span>' in first
    again = client.get(url(campaign, seats["alice"])).content.decode()
    assert "Fresh news" in again and '<span class="badge warn">new</span>' not in again


def test_htmx_gets_the_form_error_in_place_and_nothing_is_written(table, web_client,
                                                                  alice):
    campaign, seats = table
    r = web_client(alice).post(url(campaign, seats["bob"]), {"text": "  "},
                               HTTP_HX_REQUEST="true")
    body = r.content.decode()
    assert body.lstrip().startswith('<div id="thread"')
    assert "A message needs some text." in body and 'aria-invalid="true"' in body
    assert not Message.objects.exists()


def test_a_long_conversation_shows_its_latest_messages_and_says_so(table, web_client,
                                                                   alice, bob, settings):
    from campaign import inbox

    settings.MESSAGES_PER_MINUTE = 1000
    campaign, seats = table
    import datetime as dt

    from django.utils import timezone

    rows = Message.objects.bulk_create([
        Message(campaign=campaign, sender=seats["alice"], recipient=seats["bob"],
                text=f"note {i:03d}") for i in range(inbox.PAGE + 5)])
    start = timezone.now() - dt.timedelta(days=1)
    for i, row in enumerate(rows):  # one second apart, in the order written
        Message.objects.filter(pk=row.pk).update(created_at=start + dt.timedelta(seconds=i))
    html = web_client(bob).get(url(campaign, seats["alice"])).content.decode()
    assert f"Only the latest {inbox.PAGE} messages" in html
    assert "note 204" in html and "note 005" in html and "note 004" not in html
    assert html.count('<li class="bubble') == inbox.PAGE
