"""A venue hold's kept archive (`VenueHold.state`) is stored by PostgreSQL as it is, out of
line, without its own compression (`STORAGE EXTERNAL`): the bytes are compressed already
(tournaments.archive.parts), and PostgreSQL's attempt to compress 4 MB again (an event of
1,024 players) took some 60 ms of every push's write for nothing. Other databases keep the
column as they did."""

from django.db import migrations


def _storage(kind: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        table = schema_editor.quote_name(apps.get_model("tournaments", "VenueHold")._meta.db_table)
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN state SET STORAGE {kind}")
    return run


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0023_referee_calls")]

    operations = [migrations.RunPython(_storage("EXTERNAL"), _storage("EXTENDED"))]
