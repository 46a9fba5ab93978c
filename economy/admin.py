from django.contrib import admin

from economy.models import Building, LedgerEntry, Operative, Stock, Unit, Weapon


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ["player", "amount", "reason", "balance_after", "turn", "phase", "at"]
    list_filter = ["reason", "phase"]
    search_fields = ["player__user__username", "detail"]
    raw_id_fields = ["player"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # corrections go through the umpire's ledger service, never edits

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Building)
class BuildingAdmin(admin.ModelAdmin):
    list_display = ["kind", "territory", "x", "y", "active", "hit_points"]
    list_filter = ["kind", "active"]
    search_fields = ["territory__name"]
    raw_id_fields = ["territory"]


@admin.register(Stock)
class StockAdmin(admin.ModelAdmin):
    list_display = ["territory", "resource", "refined", "pure", "units"]
    list_filter = ["resource", "refined", "pure"]
    search_fields = ["territory__name"]
    raw_id_fields = ["territory"]


@admin.register(Operative)
class OperativeAdmin(admin.ModelAdmin):
    list_display = ["__str__", "player", "klass", "level", "xp", "territory", "alive"]
    list_filter = ["klass", "level", "alive"]
    search_fields = ["name", "player__user__username"]
    raw_id_fields = ["player", "territory"]


@admin.register(Unit)
class UnitAdmin(admin.ModelAdmin):
    list_display = ["__str__", "player", "model", "territory", "pilot", "status",
                    "damage_repairable", "damage_unrepairable"]
    list_filter = ["model", "status"]
    search_fields = ["name", "player__user__username"]
    raw_id_fields = ["player", "territory", "pilot"]


@admin.register(Weapon)
class WeaponAdmin(admin.ModelAdmin):
    list_display = ["__str__", "player", "weapon", "templates", "unit", "slot", "territory"]
    list_filter = ["weapon"]
    search_fields = ["player__user__username"]
    raw_id_fields = ["player", "territory", "unit"]
