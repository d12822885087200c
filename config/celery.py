"""The Celery application.

With `CELERY_BROKER_URL` unset, tasks run eagerly in the web process (the embedded default,
so a newcomer needs no Redis); with it set, they go through the broker to real workers.
Late acknowledgement and rejection on a lost worker make a killed worker's task run again,
which is safe because every task is idempotent.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tarok")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
