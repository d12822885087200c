"""Every registration made before personal links existed gets its link, as a new one does."""

import secrets

from django.db import migrations

TOKEN_BYTES = 24  # tournaments.services.player_links.TOKEN_BYTES at the time of writing


def issue(apps, schema_editor):
    Registration = apps.get_model("tournaments", "Registration")
    PlayerLink = apps.get_model("tournaments", "PlayerLink")
    missing = Registration.objects.filter(links__isnull=True).values_list("pk", flat=True)
    PlayerLink.objects.bulk_create(
        (PlayerLink(registration_id=pk, token=secrets.token_urlsafe(TOKEN_BYTES)) for pk in missing),
        batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_player_link")]

    operations = [migrations.RunPython(issue, migrations.RunPython.noop)]
