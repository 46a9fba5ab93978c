from django.contrib import admin

from battles.models import Battle, BattleRecord


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ["id", "campaign", "turn", "territory", "status", "winner", "attempts"]
    list_filter = ["status", "turn"]
    search_fields = ["campaign__name", "territory__name", "error"]
    raw_id_fields = ["territory", "defender", "winner"]


@admin.register(BattleRecord)
class BattleRecordAdmin(admin.ModelAdmin):
    list_display = ["battle", "source", "recorded_at"]
    list_filter = ["source"]
