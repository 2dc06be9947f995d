"""Store each constrained puzzle's key under the grid's symmetries (puzzles.variant_keys).

Before, a puzzle with constraints was keyed as it stood, so its stored key is not the one
a copy of it (or the puzzle itself) now looks up. A puzzle whose new key another stored
puzzle already has (a copy of it, stored before copies were recognised) keeps its old
key: both stay playable, and the first one found is the one a new copy resolves to.
"""

from django.db import migrations


def rekey(apps, schema_editor):
    from puzzles.variant_keys import store_symmetric_keys

    Puzzle = apps.get_model("puzzles", "Puzzle")
    rows = Puzzle.objects.filter(rules__has_key="constraints").order_by("pk")
    if rows.exists():
        store_symmetric_keys(Puzzle, rows)


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0011_puzzle_constrained")]

    operations = [migrations.RunPython(rekey, migrations.RunPython.noop)]
