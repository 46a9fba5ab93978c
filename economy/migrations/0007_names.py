"""Issue 26, item 4: weapons may be named, and every unit and operative bought before
names existed gets a readable default (`campaign.rules.names`, the default lists: the
same draw a purchase makes, from a hash, never from the dice)."""

from django.db import migrations, models

from campaign.rules.names import DEFAULT_LISTS, pilot_name, unit_name
from campaign.rules.tables import VEHICLES


def _model_name(model: str, profile: dict) -> str:
    spec = VEHICLES.get(model)
    if spec is not None:
        return spec.name
    named = (profile or {}).get("name")
    return named if isinstance(named, str) and named else model.replace("_", " ").title()


def name_everything(apps, schema_editor):  # type: ignore[no-untyped-def]
    Unit = apps.get_model("economy", "Unit")
    Operative = apps.get_model("economy", "Operative")
    for Model, kind in ((Unit, "unit"), (Operative, "pilot")):
        by_player: dict[int, list] = {}
        for row in Model.objects.select_related("player").order_by("player_id", "pk"):
            by_player.setdefault(row.player_id, []).append(row)
        for player_id, rows in by_player.items():
            taken = [r.name for r in rows if r.name.strip()]
            for n, row in enumerate(rows):
                if row.name.strip():
                    continue
                common = {"campaign_id": row.player.campaign_id, "player_id": player_id,
                          "counter": n, "taken": taken}
                row.name = (unit_name(DEFAULT_LISTS, _model_name(row.model, row.profile),
                                      **common) if kind == "unit"
                            else pilot_name(DEFAULT_LISTS, **common))
                taken.append(row.name)
                row.save(update_fields=["name"])


class Migration(migrations.Migration):

    dependencies = [
        ('economy', '0006_kinds_from_the_rule_tables'),
    ]

    operations = [
        migrations.AddField(
            model_name='weapon',
            name='name',
            field=models.CharField(blank=True, default='',
                                   help_text='Given by its owner; blank: known by its model.',
                                   max_length=60),
        ),
        migrations.RunPython(name_everything, migrations.RunPython.noop),
    ]
