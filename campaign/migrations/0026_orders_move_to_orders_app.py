"""Sealed orders and their receipts move to the `orders` app (issue 31.2): the models leave
the core's state only. Their tables (`campaign_order`, `campaign_orderreceipt`) and rows
stay where they are; `orders/migrations/0001_initial.py` takes them into its state."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('campaign', '0025_channels'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='Order'),
                migrations.DeleteModel(name='OrderReceipt'),
            ],
            database_operations=[],
        ),
    ]
