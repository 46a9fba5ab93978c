"""A factory's product line (and the line it is refitted to) as a JSON list of item codes
instead of text joined by ";" (issue 31, item 7). Existing rows are converted both ways,
and so are the buildings kept in the phase starts a rollback restores."""

from django.db import migrations, models


def _as_list(value):
    if isinstance(value, list):
        return value
    return [code for code in (value or "").split(";") if code]


def _as_text(value):
    if isinstance(value, str):
        return value
    return ";".join(value or ())


def _convert(apps, line, product_from, product_to):
    Building = apps.get_model("economy", "Building")
    changed = []
    for b in Building.objects.only("pk", product_from, f"next_{product_from}").iterator():
        setattr(b, product_to, line(getattr(b, product_from)))
        setattr(b, f"next_{product_to}", line(getattr(b, f"next_{product_from}")))
        changed.append(b)
        if len(changed) >= 1000:
            Building.objects.bulk_update(changed, [product_to, f"next_{product_to}"])
            changed = []
    if changed:
        Building.objects.bulk_update(changed, [product_to, f"next_{product_to}"])
    PhaseStart = apps.get_model("campaign", "PhaseStart")
    for start in PhaseStart.objects.iterator():
        document = start.document
        buildings = document.get("buildings") if isinstance(document, dict) else None
        if not buildings:
            continue
        for row in buildings:
            for key in ("product", "next_product"):
                if isinstance(row, dict) and key in row:
                    row[key] = line(row[key])
        PhaseStart.objects.filter(pk=start.pk).update(document=document)


def forwards(apps, schema_editor):
    _convert(apps, _as_list, "product", "product_line")


def backwards(apps, schema_editor):
    _convert(apps, _as_text, "product_line", "product")


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0025_channels"),
        ("economy", "0007_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="building", name="product_line",
            field=models.JSONField(blank=True, default=list)),
        migrations.AddField(
            model_name="building", name="next_product_line",
            field=models.JSONField(blank=True, default=list)),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="building", name="product"),
        migrations.RemoveField(model_name="building", name="next_product"),
        migrations.RenameField(model_name="building", old_name="product_line",
                               new_name="product"),
        migrations.RenameField(model_name="building", old_name="next_product_line",
                               new_name="next_product"),
        migrations.AlterField(
            model_name="building", name="product",
            field=models.JSONField(
                blank=True, default=list, help_text="Factory product line: its items' codes "
                "(\"vehicle:golem\", \"weapon:cannon:heavy\", \"building:turret\"); empty "
                "when none is chosen.")),
        migrations.AlterField(
            model_name="building", name="next_product",
            field=models.JSONField(
                blank=True, default=list, help_text="Factory: the line it is being refitted "
                "to (item codes), empty when no refit is under way.")),
    ]
