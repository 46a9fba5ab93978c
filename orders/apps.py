from django.apps import AppConfig


class OrdersConfig(AppConfig):
    """Sealed move orders, their receipts and the reveal: above the economy and the map
    (it imports the units and territories it orders), below the battles (which read the
    orders carried out)."""

    name = "orders"
    verbose_name = "Sealed orders"

    def ready(self) -> None:
        from orders import connections  # noqa: F401 (connects on import)
