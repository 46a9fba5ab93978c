from django.contrib import admin

from battles.models import Battle, BattleParticipant, BattleRecord, OddsRequest


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


@admin.register(BattleParticipant)
class BattleParticipantAdmin(admin.ModelAdmin):
    list_display = ["battle", "turn", "unit", "player", "pilot", "reinforcement"]
    raw_id_fields = ["battle", "unit", "player", "pilot", "origin"]


@admin.register(OddsRequest)
class OddsRequestAdmin(admin.ModelAdmin):
    list_display = ["id", "campaign", "player", "territory", "simulations", "status"]
    list_filter = ["status"]
    raw_id_fields = ["campaign", "player", "territory"]
