from django.contrib import admin

from orders.models import Order


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["campaign", "turn", "player", "unit", "origin", "destination"]
    list_filter = ["turn"]
    search_fields = ["campaign__name", "player__user__username"]
    raw_id_fields = ["player", "unit", "origin", "destination"]
