"""Store each variant puzzle's key under the grid's symmetries (puzzles.variant_keys).

A puzzle whose new key another stored puzzle already has (a copy of it, stored before
copies were recognised) keeps its old key: both stay playable, and the first one found
is the one a new copy resolves to.
"""

from django.db import migrations


def rekey(apps, schema_editor):
    from puzzles.variant_keys import store_symmetric_keys

    Puzzle = apps.get_model("puzzles", "Puzzle")
    store_symmetric_keys(Puzzle, Puzzle.objects.exclude(variant="classic").order_by("pk"))


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0008_dailypuzzle_variant")]

    operations = [migrations.RunPython(rekey, migrations.RunPython.noop)]
