"""Issue 26.5 and 30.9: threads of messages with unread counts and read markers, their
secrecy, the rate limit, refused input that changes nothing, and the mail a new message
sends (from the outbox, never inside the request)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from campaign import inbox
from campaign.access import Membership, membership
from campaign.errors import InvalidInput, TooManyRequests
from campaign.models import (
    Campaign,
    Message,
    MessageRead,
    Notification,
    OutboxMessage,
    Player,
    Profile,
)
from campaign.services import messages, notifications

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(uma, alice, bob, charlie):
    campaign = Campaign.objects.create(name="Iron Coast", umpire=uma, status="running",
                                       turn=2, phase="commercial")
    seats = {u.username: Player.objects.create(campaign=campaign, user=u)
             for u in (alice, bob, charlie)}
    return campaign, seats


def member_of(user, campaign) -> Membership:
    return membership(user, campaign.pk)


def write(user, campaign, to: Player | None, text: str) -> Message:
    return messages.send_message(member=member_of(user, campaign),
                                 to=to.pk if to else None, text=text)


@pytest.fixture
def mailable(table):
    """Everyone's address is confirmed, so notifications may be mailed."""
    _, seats = table
    for seat in seats.values():
        seat.user.email = f"{seat.user.username}@example.org"
        seat.user.save()
        Profile.objects.update_or_create(user=seat.user,
                                         defaults={"email_verified": seat.user.email})
    return table


# --- unread counts and read markers -------------------------------------------------


def test_unread_counts_are_per_thread_and_never_count_your_own(table, alice, bob, charlie):
    campaign, seats = table
    write(alice, campaign, seats["bob"], "Alliance against charlie?")
    write(alice, campaign, seats["bob"], "Answer soon.")
    write(alice, campaign, None, "Good luck all")
    assert inbox.unread_by_thread(member_of(bob, campaign)) == {seats["alice"].pk: 2,
                                                                None: 1}
    assert inbox.unread_total(member_of(bob, campaign)) == 3
    assert inbox.unread_by_thread(member_of(charlie, campaign)) == {None: 1}
    assert inbox.unread_total(member_of(alice, campaign)) == 0


def test_reading_a_thread_clears_its_count_until_a_new_message(table, alice, bob):
    campaign, seats = table
    first = write(alice, campaign, seats["bob"], "One")
    write(alice, campaign, None, "To all")
    bob_m = member_of(bob, campaign)
    shown = inbox.thread_messages(bob_m, seats["alice"])
    assert [m.text for m in shown] == ["One"]
    messages.thread_read(member=bob_m, correspondent=seats["alice"],
                         until=shown[-1].created_at)
    assert inbox.unread_by_thread(bob_m) == {None: 1}
    write(alice, campaign, seats["bob"], "Two")
    assert inbox.unread_by_thread(bob_m) == {seats["alice"].pk: 1, None: 1}
    # an older page (another tab) never moves the marker back
    messages.thread_read(member=bob_m, correspondent=seats["alice"],
                         until=first.created_at - dt.timedelta(hours=1))
    assert inbox.unread_by_thread(bob_m)[seats["alice"].pk] == 1
    assert MessageRead.objects.filter(user=bob).count() == 1


def test_writing_to_a_thread_marks_it_read_for_the_writer(table, alice, bob):
    campaign, seats = table
    write(alice, campaign, seats["bob"], "Hello")
    write(bob, campaign, seats["alice"], "Hello back")
    assert inbox.unread_total(member_of(bob, campaign)) == 0
    assert inbox.unread_total(member_of(alice, campaign)) == 1


def test_threads_list_everyone_first_then_the_latest_conversations(table, alice, bob,
                                                                   charlie):
    campaign, seats = table
    write(alice, campaign, seats["charlie"], "Old news")
    write(alice, campaign, seats["bob"], "Newer")
    write(bob, campaign, None, "To all")
    listed = inbox.threads(member_of(alice, campaign))
    assert [t.name for t in listed] == ["Everyone", "bob", "charlie"]
    assert [t.last.text if t.last else None for t in listed] == ["To all", "Newer",
                                                                 "Old news"]
    assert [t.unread for t in listed] == [1, 0, 0]


def test_thread_reads_cost_a_fixed_number_of_queries(table, alice, bob, charlie,
                                                     django_assert_max_num_queries):
    campaign, seats = table
    for i in range(30):
        write(alice, campaign, seats["bob"], f"b{i}")
        write(charlie, campaign, seats["alice"], f"c{i}")
        write(bob, campaign, None, f"e{i}")
    member = member_of(alice, campaign)
    with django_assert_max_num_queries(4):
        listed = inbox.threads(member)
    assert {t.name: t.unread for t in listed} == {"Everyone": 30, "bob": 0, "charlie": 30}
    with django_assert_max_num_queries(1):
        assert inbox.unread_total(member) == 60
    with django_assert_max_num_queries(1):
        assert len(inbox.thread_messages(member, seats["bob"])) == 30


# --- secrecy ------------------------------------------------------------------------


def test_a_third_player_sees_nothing_of_a_private_thread(table, alice, bob, charlie):
    campaign, seats = table
    write(alice, campaign, seats["bob"], "Alliance against charlie?")
    write(bob, campaign, seats["alice"], "Deal.")
    charlie_m = member_of(charlie, campaign)
    assert inbox.unread_total(charlie_m) == 0 and inbox.unread_by_thread(charlie_m) == {}
    listed = {t.name: t for t in inbox.threads(charlie_m)}
    assert set(listed) == {"Everyone", "alice", "bob"}
    assert all(t.last is None and t.unread == 0 for t in listed.values())
    assert inbox.thread_messages(charlie_m, seats["alice"]) == []
    assert not inbox.may_read(charlie_m, seats["charlie"])


def test_the_umpire_reads_the_table_channel_only_on_the_pages(table, uma, alice):
    campaign, seats = table
    write(alice, campaign, seats["bob"], "Private")
    write(alice, campaign, None, "Public")
    umpire = member_of(uma, campaign)
    assert [t.name for t in inbox.threads(umpire)] == ["Everyone"]
    assert inbox.unread_total(umpire) == 1
    assert not inbox.may_read(umpire, seats["bob"])


def test_spectators_have_no_threads(table, alice):
    campaign, _ = table
    write(alice, campaign, None, "Public")
    outsider = Membership(campaign=campaign, player=None, is_umpire=False, spectator=True)
    assert inbox.threads(outsider) == [] and inbox.unread_total(outsider) == 0


# --- refused input and the rate limit -----------------------------------------------


def _nothing_written() -> bool:
    return (not Message.objects.exists() and not MessageRead.objects.exists()
            and not OutboxMessage.objects.filter(task="campaign.tasks.notify_message")
            .exists())


@pytest.mark.parametrize("text", ["", "   \n ", "x" * (messages.MAX_TEXT + 1)])
def test_a_message_without_proper_text_is_refused_and_changes_nothing(table, alice, text):
    campaign, seats = table
    with pytest.raises(InvalidInput) as refused:
        messages.send_message(member=member_of(alice, campaign), to=seats["bob"].pk,
                              text=text)
    assert refused.value.code == "invalid_text" and refused.value.detail
    assert _nothing_written()


@pytest.mark.parametrize("text", [None, 12, ["hi"]])
def test_a_message_whose_text_is_not_text_is_refused_by_the_api_and_changes_nothing(
        table, alice, client_for, text):
    """The types are the serializer's (MessageIn): the service takes text."""
    campaign, seats = table
    r = client_for(alice).post(f"/api/campaigns/{campaign.pk}/messages/",
                               {"to": seats["bob"].pk, "text": text}, format="json")
    assert r.status_code == 400, r.content
    assert "text" in r.json()["fields"] and r.json()["detail"]
    assert _nothing_written()


def test_a_player_of_another_campaign_is_no_recipient(table, make_user, uma, alice):
    campaign, _ = table
    elsewhere = Campaign.objects.create(name="Elsewhere", umpire=uma)
    stranger = Player.objects.create(campaign=elsewhere, user=make_user("dora"))
    with pytest.raises(InvalidInput) as refused:
        messages.send_message(member=member_of(alice, campaign), to=stranger.pk, text="hi")
    assert refused.value.code == "invalid_recipient"
    assert _nothing_written()


def test_more_than_the_limit_in_a_minute_is_refused(table, alice, settings, client_for):
    settings.MESSAGES_PER_MINUTE = 3
    campaign, seats = table
    for i in range(3):
        write(alice, campaign, seats["bob"], f"m{i}")
    with pytest.raises(TooManyRequests):
        write(alice, campaign, None, "one too many")
    r = client_for(alice).post(f"/api/campaigns/{campaign.pk}/messages/",
                               {"to": None, "text": "still too many"}, format="json")
    assert r.status_code == 429
    assert r.json()["code"] == "too_many_messages" and "minute" in r.json()["detail"]
    assert Message.objects.count() == 3
    # a minute later the player may write again
    Message.objects.update(created_at=timezone.now() - dt.timedelta(minutes=2))
    assert write(alice, campaign, None, "back again").text == "back again"


def test_the_limit_is_per_player(table, alice, bob, settings):
    settings.MESSAGES_PER_MINUTE = 1
    campaign, seats = table
    write(alice, campaign, seats["bob"], "mine")
    assert write(bob, campaign, seats["alice"], "his").text == "his"


# --- mail ---------------------------------------------------------------------------


def test_a_private_message_mails_its_recipient_with_a_link_to_the_thread(
        mailable, alice, bob, mailoutbox, django_capture_on_commit_callbacks, settings):
    campaign, seats = mailable
    with django_capture_on_commit_callbacks(execute=True):
        write(alice, campaign, seats["bob"], "Meet at the river?\nBring tanks.")
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]
    mail = mailoutbox[0]
    assert mail.subject == "[Iron Coast] alice writes to you"
    assert "> Meet at the river?\n> Bring tanks." in mail.body
    link = f"{settings.SITE_URL.rstrip('/')}/campaigns/{campaign.pk}/messages/" \
           f"{seats['alice'].pk}/"
    assert link in mail.body and "Iron Coast" in mail.body


def test_a_message_to_everyone_mails_everyone_else(mailable, alice, mailoutbox,
                                                   django_capture_on_commit_callbacks):
    campaign, _ = mailable
    with django_capture_on_commit_callbacks(execute=True):
        write(alice, campaign, None, "Good luck all")
    assert sorted(m.to[0] for m in mailoutbox) == ["bob@example.org", "charlie@example.org"]
    assert all(f"/campaigns/{campaign.pk}/messages/everyone/" in m.body for m in mailoutbox)
    assert "alice writes to everyone at the table" in mailoutbox[0].subject


def test_the_mail_is_sent_after_commit_never_inside_the_request(
        mailable, alice, mailoutbox, django_capture_on_commit_callbacks):
    campaign, seats = mailable
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        write(alice, campaign, seats["bob"], "Later")
    assert mailoutbox == [] and len(callbacks) == 1
    assert OutboxMessage.objects.filter(task="campaign.tasks.notify_message").count() == 1


def test_players_who_untick_messages_get_no_mail(mailable, alice, bob, mailoutbox,
                                                django_capture_on_commit_callbacks):
    campaign, seats = mailable
    Profile.objects.filter(user=bob).update(muted_kinds=["message"])
    with django_capture_on_commit_callbacks(execute=True):
        write(alice, campaign, seats["bob"], "Hello?")
    assert mailoutbox == []
    assert "message" in notifications.KIND_LABELS


def test_one_mail_per_thread_until_its_reader_comes_to_read_it(
        mailable, alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    campaign, seats = mailable
    with django_capture_on_commit_callbacks(execute=True):
        write(alice, campaign, seats["bob"], "One")
        write(alice, campaign, seats["bob"], "Two")
    assert len(mailoutbox) == 1
    bob_m = member_of(bob, campaign)
    shown = inbox.thread_messages(bob_m, seats["alice"])
    messages.thread_read(member=bob_m, correspondent=seats["alice"],
                         until=shown[-1].created_at)
    with django_capture_on_commit_callbacks(execute=True):
        write(alice, campaign, seats["bob"], "Three")
    assert len(mailoutbox) == 2 and "> Three" in mailoutbox[1].body


def test_a_redelivered_job_mails_once_and_the_webhook_hears_nothing(
        mailable, alice, mailoutbox, django_capture_on_commit_callbacks):
    campaign, seats = mailable
    Campaign.objects.filter(pk=campaign.pk).update(
        options={"webhook_url": "https://chat.example.org/hook"})
    with django_capture_on_commit_callbacks(execute=True):
        message = write(alice, campaign, seats["bob"], "Once")
    assert notifications.deliver_message(message_id=message.pk) == 0
    assert len(mailoutbox) == 1
    assert not Notification.objects.filter(recipient="webhook").exists()


def test_a_sandbox_message_mails_nobody(mailable, alice, mailoutbox,
                                        django_capture_on_commit_callbacks):
    campaign, seats = mailable
    Campaign.objects.filter(pk=campaign.pk).update(is_sandbox=True)
    campaign.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        write(alice, campaign, seats["bob"], "Nobody hears")
    assert mailoutbox == []
