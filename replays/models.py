"""What replays add to a finished game: its stored analysis, and its public link.

``GameAnalysis`` is written once, by the worker, when the game finishes (no row yet means
"pending"); reads never recompute it. ``ReplayShare`` exists while the owner shares the
replay: its ``token`` is the public link's only key, so deleting the row turns the link
into a 404 at once, and sharing again makes a new link.
"""

from __future__ import annotations

from django.db import models

# The data of a game not analysed: its player ended games faster than ANALYSES_PER_HOUR.
SKIPPED = {"skipped": True}


class GameAnalysis(models.Model):
    game = models.OneToOneField(
        "play.Game", on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    # replays.analysis.analyse's answer: placements and summary.
    data = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}"


class ReplayShare(models.Model):
    game = models.OneToOneField(
        "play.Game", on_delete=models.CASCADE, primary_key=True, related_name="replay_share"
    )
    token = models.CharField(max_length=64, unique=True)
    show_username = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"shared replay of game {self.game_id}"
