"""At most one unfinished game of a puzzle per player.

Where a player already has several, the one played last stays and the others are abandoned
(kept in their history, as the service abandons a game: clock stopped, hint dropped,
version raised); the one that stays is unranked, as the others now show its solution.
"""

from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

UNFINISHED = ("in_progress", "paused")


def abandon_duplicates(apps, schema_editor):
    Game = apps.get_model("play", "Game")
    now = timezone.now()
    games = Game.objects.filter(status__in=UNFINISHED).order_by("-updated", "-id")
    kept = {}
    for game in games.iterator():
        owner = ("user", game.user_id) if game.user_id else ("guest", game.guest_key)
        key = (owner, game.puzzle_id)
        if key not in kept:
            kept[key] = game
            continue
        if game.running_since is not None:
            game.elapsed_ms += max(0, int((now - game.running_since).total_seconds() * 1000))
        game.status = "abandoned"
        game.running_since = None
        game.finished = now
        game.hint = None
        game.hint_stage = 0
        game.hint_key = ""
        game.version += 1
        game.save()
        stays = kept[key]
        if stays.ranked:
            stays.ranked = False
            stays.save(update_fields=["ranked"])


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0001_initial"),
        ("puzzles", "0003_packchunk_queued"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(abandon_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", UNFINISHED), ("user__isnull", False)),
                fields=("user", "puzzle"),
                name="one_unfinished_game_per_user_and_puzzle",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", UNFINISHED), ("user__isnull", True)),
                fields=("guest_key", "puzzle"),
                name="one_unfinished_game_per_guest_and_puzzle",
            ),
        ),
    ]
