"""Server-rendered pages (Django templates + htmx partials).

Pages are thin, like the API views: they check membership through `campaign.access`,
call the same services the API calls, and render. Each app keeps the pages of its own
data (`territories/pages.py`, `economy/pages.py`, `battles/pages.py`); the core
pages (accounts, campaigns, dashboard, orders, history, umpire console) live here.
All page routes are collected in `campaign.pages.urls`.
"""
