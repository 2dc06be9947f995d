"""Every stored puzzle gets its starting rating from its grader score (ratings.prior)."""

from django.db import migrations


def backfill(apps, schema_editor):
    from ratings.prior import PRIOR_DEVIATION, prior_rating

    Puzzle = apps.get_model("puzzles", "Puzzle")
    PuzzleRating = apps.get_model("ratings", "PuzzleRating")
    rows = []
    for pk, size, score in Puzzle.objects.values_list("pk", "size", "score").iterator(2000):
        start = prior_rating(size=size, score=score)
        rows.append(
            PuzzleRating(
                puzzle_id=pk, size=size, rating=start, prior=start, deviation=PRIOR_DEVIATION
            )
        )
        if len(rows) >= 2000:
            PuzzleRating.objects.bulk_create(rows, ignore_conflicts=True)
            rows = []
    PuzzleRating.objects.bulk_create(rows, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
