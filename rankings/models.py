"""What the rankings keep: every player's current rating per game family (`Rating`), his
rating after each rated event he played (`RatingStep`, the history: the list as of any date and
the career plot read it), and when each family was last rebuilt (`FamilyRatings`).

All of it is derived: `rankings.services.ratings_rebuild` recomputes it from the results,
never accumulates it, so a correction or an annulment anywhere flows through.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event, Player


class FamilyRatings(models.Model):
    """One row per game family: rebuilds of a family lock it, so two never write at once."""

    family = models.CharField(max_length=32, unique=True)
    rebuilt_at = models.DateTimeField(null=True, blank=True)
    players = models.PositiveIntegerField(default=0)
    tables = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return self.family


class Rating(models.Model):
    """A player's rating in one game family after every rated table he played."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    family = models.CharField(_("game"), max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mean − 3σ, what the lists rank by (rankings.engine.SIGMAS)
    conservative = models.FloatField(_("rating"))
    # the conservative value before his last rated event: the trend; null after his first
    previous_conservative = models.FloatField(null=True, blank=True)
    tables = models.PositiveIntegerField(_("rated tables"), default=0)
    events = models.PositiveIntegerField(_("rated events"), default=0)
    last_played_on = models.DateField()

    class Meta:
        ordering = ["family", "-conservative", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "family"], name="rating_once_per_family"),
        ]
        indexes = [models.Index(fields=["family", "-conservative"], name="rating_list_idx")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.family}: {self.conservative:.2f}"

    @property
    def trend(self) -> float | None:
        if self.previous_conservative is None:
            return None
        return self.conservative - self.previous_conservative


class RatingStep(models.Model):
    """A player's rating after one rated event he played."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_steps")
    family = models.CharField(max_length=32)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rating_steps")
    played_on = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    conservative = models.FloatField()
    tables = models.PositiveIntegerField(default=0)  # rated tables so far
    event_tables = models.PositiveIntegerField(default=0)  # his tables at this event

    class Meta:
        ordering = ["player", "family", "played_on", "event_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "event"], name="rating_step_once_per_event"),
        ]
        indexes = [models.Index(fields=["family", "played_on"], name="rating_step_date_idx")]

    def __str__(self) -> str:
        return f"{self.player_id} after {self.event_id}: {self.conservative:.2f}"
