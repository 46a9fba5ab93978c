"""PhaseStart.document becomes PhaseStart.stored, on the same column "document" (no data
changes): a start kept from now on names its journal by its last entry's id instead of
copying it (issue 32); `PhaseStart.document` gives the whole document either way."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0026_orders_move_to_orders_app"),
    ]

    operations = [
        migrations.RenameField(model_name="phasestart", old_name="document", new_name="stored"),
        migrations.AlterField(model_name="phasestart", name="stored",
                              field=models.JSONField(db_column="document")),
    ]
