import os

from django.core.wsgi import get_wsgi_application

from campaign.startup import settle

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
application = get_wsgi_application()
settle()  # after loading: what lives as long as the worker is not collected again
