"""Store each constrained puzzle's key under the grid's symmetries (puzzles.variant_keys).

Before, a puzzle with constraints was keyed as it stood, so its stored key is not the one
a copy of it (or the puzzle itself) now looks up. A puzzle whose new key another stored
puzzle already has (a copy of it, stored before copies were recognised) keeps its old
key: both stay playable, and the first one found is the one a new copy resolves to.
"""

from django.db import migrations


def rekey(apps, schema_editor):
    from puzzles.variant_keys import variant_canonical_key
    from solver import Shape, parse
    from solver.rules.ruleset import Rules

    Puzzle = apps.get_model("puzzles", "Puzzle")
    rows = Puzzle.objects.filter(rules__has_key="constraints").order_by("pk")
    if not rows.exists():
        return
    taken = set(Puzzle.objects.values_list("canonical_key", flat=True))
    for row in rows.only("pk", "givens", "box_rows", "box_cols", "rules", "canonical_key"):
        shape = Shape(row.box_rows, row.box_cols)
        rules = Rules.from_dict(row.rules, shape)
        grid = parse(row.givens, box_rows=row.box_rows, box_cols=row.box_cols)
        key = variant_canonical_key(grid, rules)
        if key == row.canonical_key or key in taken:
            continue
        taken.discard(row.canonical_key)
        taken.add(key)
        Puzzle.objects.filter(pk=row.pk).update(canonical_key=key)


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0011_puzzle_constrained")]

    operations = [migrations.RunPython(rekey, migrations.RunPython.noop)]
