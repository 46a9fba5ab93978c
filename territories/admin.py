from django.contrib import admin

from territories.models import Adjacency, Exploration, Passage, Territory


@admin.register(Territory)
class TerritoryAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "owner", "ever_owned"]
    list_filter = ["campaign", "ever_owned"]
    search_fields = ["name", "campaign__name", "owner__user__username"]
    raw_id_fields = ["owner", "campaign"]


@admin.register(Adjacency)
class AdjacencyAdmin(admin.ModelAdmin):
    list_display = ["campaign", "a", "b"]
    list_filter = ["campaign"]
    raw_id_fields = ["a", "b"]


@admin.register(Passage)
class PassageAdmin(admin.ModelAdmin):
    list_display = ["campaign", "grantor", "grantee", "territory", "granted_at"]
    list_filter = ["campaign"]
    raw_id_fields = ["grantor", "grantee", "territory"]


@admin.register(Exploration)
class ExplorationAdmin(admin.ModelAdmin):
    list_display = ["territory", "campaign", "resource", "units_per_shaft", "pure", "unstable",
                    "discovery", "active_die", "passive_die", "nemesis_die"]
    list_filter = ["campaign", "resource", "pure", "unstable", "discovery"]
    search_fields = ["territory__name"]
    raw_id_fields = ["territory", "player"]
