"""bench/learning.py: which rows meet the goal, and what a rare one is told."""

from bench import learning
from solver.logic.techniques import BY_SLUG


def test_a_row_below_the_goal_is_rare_unless_it_is_the_dug_row_of_a_grown_technique(
    monkeypatch,
):
    monkeypatch.setattr(learning, "_rate", lambda size, slug, count, scratch=False: (0.5, 9, 0))
    quad = BY_SLUG["hidden_quad"]
    assert learning._row(quad, 9, "grown", 2).endswith("| grown | 0.50 | 9 | 0 | **rare** |")
    dug = learning._row(quad, 9, "dug", 2, from_scratch=True)
    assert dug.endswith("| dug | 0.50 | 9 | 0 | rare: grown |")
    assert learning._row(BY_SLUG["x_cycle"], 9, "grown", 2).endswith("| met |")  # expert: 0.2


def test_every_grown_technique_gets_a_dug_row_too(monkeypatch):
    # The rows' layout only: no puzzle is made (the Killer rows take minutes to make).
    monkeypatch.setattr(learning, "_rate", lambda size, slug, count, scratch=False: (2.0, 1, 0))
    monkeypatch.setattr(learning, "variant_lines", lambda count: [])
    monkeypatch.setattr(learning, "constraint_lines", lambda count: [])
    lines = learning.run(quick=True)
    rows = [line for line in lines if line.startswith("| hidden_quad ")]
    assert [row.split(" | ")[3] for row in rows] == ["grown", "dug"]
    x_wing = [line for line in lines if line.startswith("| x_wing ")]
    assert [row.split(" | ")[3] for row in x_wing] == ["dug"]
