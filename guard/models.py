"""The project's own tables: the counts every rate limit of the site keeps (`guard.counters`).

They live in the database, not in a cache: a cache may evict or cull entries when it fills
(Django's database cache deletes a third of its keys past MAX_ENTRIES), and a guesser who can
make keys could wipe the counts that hold him. A row here lives until it expires, and expired
rows are deleted as new ones come.
"""

from django.db import models


class RateCount(models.Model):
    """One count of a rate limit (failed sign-ins of an address, wrong codes of a phone...),
    or a mark with a lifetime (a phone that opened a table, an account's delay)."""

    key = models.CharField(max_length=200, unique=True)
    count = models.IntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
