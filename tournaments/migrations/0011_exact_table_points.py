"""Table points stored exactly (issue #21, finding 3): the decimal columns become the canonical
text of a fraction ("22/3", "-0.5"). Existing values keep their literal value ("1.667" stays
1667/1000); a registration's carried copy is recomputed from the cards at the next close."""

import fractions

from django.db import migrations

import tournaments.domain.exact_points


def _rewrite(apps, schema_editor, text_of):
    connection = schema_editor.connection
    for model_name, field in (("Registration", "tournament_points"),
                              ("StandingsAdjustment", "points_delta")):
        table = connection.ops.quote_name(apps.get_model("tournaments", model_name)._meta.db_table)
        column = connection.ops.quote_name(field)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT id, {column} FROM {table}")
            changes = [(text_of(str(raw)), pk) for pk, raw in cursor.fetchall()
                       if str(raw) != text_of(str(raw))]
            cursor.executemany(f"UPDATE {table} SET {column} = %s WHERE id = %s", changes)


def canonical_text(apps, schema_editor):
    # The column change keeps the old decimal text ("7.000"); write it in the canonical form so
    # that equal values are equal text.
    from tournaments.domain.exact_points import parse_points, points_text

    _rewrite(apps, schema_editor, lambda raw: points_text(parse_points(raw)))


def rounded_decimals(apps, schema_editor):
    # Back to decimal columns of three places: a third becomes 0.333 again.
    from decimal import ROUND_HALF_UP, Decimal

    from tournaments.domain.exact_points import parse_points

    def rounded(raw):
        value = parse_points(raw)
        return str((Decimal(value.numerator) / Decimal(value.denominator)).quantize(
            Decimal("0.001"), rounding=ROUND_HALF_UP))

    _rewrite(apps, schema_editor, rounded)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0010_registration_absent_rounds'),
    ]

    operations = [
        migrations.AlterField(
            model_name='registration',
            name='tournament_points',
            field=tournaments.domain.exact_points.ExactPointsField(default=fractions.Fraction, verbose_name='tournament points'),
        ),
        migrations.AlterField(
            model_name='standingsadjustment',
            name='points_delta',
            field=tournaments.domain.exact_points.ExactPointsField(default=fractions.Fraction, verbose_name='table points'),
        ),
        migrations.RunPython(canonical_text, rounded_decimals),
    ]
