from django.contrib import admin

from campaign.models import Campaign, Event, PhaseChange, Player, Profile


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["user", "color", "credits", "research_points", "ready", "missed_turns"]
    readonly_fields = ["credits"]
    raw_id_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "umpire", "status", "turn", "phase", "phase_deadline", "paused"]
    list_filter = ["status", "phase", "paused"]
    search_fields = ["name", "umpire__username"]
    raw_id_fields = ["umpire"]
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["user", "campaign", "credits", "research_points", "ready", "missed_turns"]
    list_filter = ["campaign", "ready"]
    search_fields = ["user__username", "campaign__name"]
    raw_id_fields = ["user", "campaign"]
    readonly_fields = ["credits"]


@admin.register(PhaseChange)
class PhaseChangeAdmin(admin.ModelAdmin):
    list_display = ["campaign", "turn", "phase", "opened_by", "opened_at"]
    list_filter = ["phase", "opened_by"]
    search_fields = ["campaign__name"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["campaign", "turn", "phase", "kind", "visibility", "sealed", "at"]
    list_filter = ["kind", "visibility", "sealed", "phase"]
    search_fields = ["campaign__name", "kind"]
    raw_id_fields = ["viewers"]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "time_zone", "email_notifications"]
    search_fields = ["user__username"]
