"""Journal entries get a random public id (issue 19.9): the sequential primary key stays
for ordering, clients see `public_id`, so a player's own entries no longer count the
private entries of everybody else."""

import secrets

from django.db import migrations, models

import campaign.models


def fill(apps, schema_editor):
    Event = apps.get_model("campaign", "Event")
    used: set[int] = set()
    for event in Event.objects.filter(public_id__isnull=True).only("pk").iterator():
        value = secrets.randbelow(2**53 - 1) + 1
        while value in used:
            value = secrets.randbelow(2**53 - 1) + 1
        used.add(value)
        Event.objects.filter(pk=event.pk).update(public_id=value)


class Migration(migrations.Migration):
    dependencies = [("campaign", "0005_notifications_sent")]

    operations = [
        migrations.AddField(
            model_name="event", name="public_id",
            field=models.BigIntegerField(null=True, editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event", name="public_id",
            field=models.BigIntegerField(
                default=campaign.models.new_event_public_id, editable=False, unique=True,
                help_text="The id clients see (random: see R-SEC-1)."),
        ),
    ]
