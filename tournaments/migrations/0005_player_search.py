"""The normalised search columns of Player (tournaments.domain.search): added, indexed, and filled
for the players already there."""

from django.conf import settings
from django.db import migrations, models

from tournaments.domain.search import player_key


def fill_search_columns(apps, schema_editor):
    # The historical model has no save() of its own: the columns are computed here as
    # Player.save computes them, a thousand players at a time (read whole before each write,
    # since SQLite does not isolate a running read from writes to the same table).
    player_model = apps.get_model("tournaments", "Player")
    pks = list(player_model.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(pks), 1000):
        batch = list(player_model.objects.filter(pk__in=pks[start:start + 1000]))
        for player in batch:
            player.search_name, player.search_club = player_key(player.first_name,
                                                                player.last_name, player.club)
        player_model.objects.bulk_update(batch, ["search_name", "search_club"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_table_links'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='search_club',
            field=models.CharField(blank=True, editable=False, max_length=300),
        ),
        migrations.AddField(
            model_name='player',
            name='search_name',
            field=models.CharField(blank=True, editable=False, max_length=300),
        ),
        migrations.AddIndex(
            model_name='player',
            index=models.Index(fields=['search_name', 'search_club'], name='player_search_idx'),
        ),
        migrations.RunPython(fill_search_columns, migrations.RunPython.noop),
    ]
