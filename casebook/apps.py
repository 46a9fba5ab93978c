from django.apps import AppConfig


class CasebookConfig(AppConfig):
    """The rules case book: the runner that plays case files against the real services and
    engines (`manage.py casebook`), and the compliance report (`manage.py compliance`).
    It sits above every app (it drives them all), so it lives outside the core."""

    name = "casebook"
    verbose_name = "Rules case book"
