"""WSGI entry point (gunicorn config.wsgi): the application, readied before its first request
(config/warmup.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from config.warmup import warm_up  # noqa: E402 - needs the apps that get_wsgi_application set up

warm_up()
