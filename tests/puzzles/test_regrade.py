"""Grading the stored bank again: in chunks, resumable, by a command or on the workers."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from puzzles import regrade, tasks
from puzzles.models import Puzzle
from solver.grid import parse
from solver.logic.grade import GRADER_VERSION, grade

pytestmark = pytest.mark.django_db


def stale(puzzle: Puzzle) -> Puzzle:
    """Make the row look graded by an older grader, with a grade that is now wrong."""
    Puzzle.objects.filter(pk=puzzle.pk).update(
        grader_version=GRADER_VERSION - 1,
        difficulty="easy",
        score=1,
        hardest_technique="full_house",
        techniques={},
    )
    puzzle.refresh_from_db()
    return puzzle


def test_a_new_puzzle_is_stored_with_the_current_grader_version(make_puzzle):
    assert make_puzzle(9, "medium").grader_version == GRADER_VERSION


def test_a_chunk_grades_the_stale_puzzles_again_and_marks_them(make_puzzle):
    puzzles = [stale(make_puzzle(9, level, seed=level)) for level in ("medium", "hard")]
    plan = regrade.bank_regrade_plan()
    assert [(s.first_id, s.last_id) for s in plan] == [(puzzles[0].pk, puzzles[1].pk)]
    assert regrade.bank_regrade_chunk(first_id=plan[0].first_id, last_id=plan[0].last_id) == 2
    for puzzle in puzzles:
        puzzle.refresh_from_db()
        rated = grade(parse(puzzle.givens))
        assert puzzle.grader_version == GRADER_VERSION
        assert (puzzle.difficulty, puzzle.score, puzzle.hardest_technique) == (
            rated.level,
            rated.score,
            rated.hardest,
        )
    assert regrade.bank_regrade_plan() == []
    assert regrade.bank_regrade_progress() == (2, 0)


def test_a_chunk_run_twice_changes_nothing_the_second_time(make_puzzle):
    puzzle = stale(make_puzzle(9, "medium"))
    assert regrade.bank_regrade_chunk(first_id=puzzle.pk, last_id=puzzle.pk) == 1
    assert regrade.bank_regrade_chunk(first_id=puzzle.pk, last_id=puzzle.pk) == 0


def test_the_plan_splits_stale_rows_in_chunks_and_skips_current_ones(make_puzzle):
    rows = [make_puzzle(4, "easy", seed=f"s{i}") for i in range(5)]
    for puzzle in rows[:2] + rows[3:]:
        stale(puzzle)
    plan = regrade.bank_regrade_plan(chunk=2)
    assert [(s.first_id, s.last_id) for s in plan] == [
        (rows[0].pk, rows[1].pk),
        (rows[3].pk, rows[4].pk),
    ]


def test_a_regrade_cut_short_resumes_with_what_is_left(make_puzzle):
    rows = [stale(make_puzzle(4, "easy", seed=f"r{i}")) for i in range(4)]
    first = regrade.bank_regrade_plan(chunk=2)[0]
    regrade.bank_regrade_chunk(first_id=first.first_id, last_id=first.last_id)  # then a crash
    assert regrade.bank_regrade_progress() == (2, 2)
    assert [(s.first_id, s.last_id) for s in regrade.bank_regrade_plan(chunk=2)] == [
        (rows[2].pk, rows[3].pk)
    ]


def test_the_start_task_queues_one_chunk_task_per_range(make_puzzle, monkeypatch):
    for i in range(3):
        stale(make_puzzle(4, "easy", seed=f"t{i}"))
    monkeypatch.setattr(regrade, "REGRADE_CHUNK", 2)
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(tasks.bank_regrade_chunk, "delay", lambda a, b: sent.append((a, b)))
    assert tasks.bank_regrade_start() == 2
    assert len(sent) == 2
    # the chunk task, run here as a worker would, grades its range
    for first_id, last_id in sent:
        tasks.bank_regrade_chunk(first_id, last_id)
    assert regrade.bank_regrade_progress()[1] == 0


def test_the_regrade_tasks_are_acknowledged_late():
    for task in (tasks.bank_regrade_chunk, tasks.bank_regrade_start):
        assert task.acks_late is True
        assert task.reject_on_worker_lost is True


def test_seed_bank_regrade_grades_the_stale_bank_here(make_puzzle):
    puzzle = stale(make_puzzle(9, "medium"))
    out = StringIO()
    call_command("seed_bank", "--regrade", stdout=out, stderr=out)
    assert "left." in out.getvalue() and " 0 left." in out.getvalue()
    puzzle.refresh_from_db()
    assert puzzle.grader_version == GRADER_VERSION
    assert puzzle.score == grade(parse(puzzle.givens)).score
    assert regrade.bank_regrade_progress()[1] == 0


def test_a_starter_puzzle_loaded_with_the_files_grade_is_due_for_a_regrade(tmp_path):
    from puzzles import stock

    starter = tmp_path / "starter.jsonl"
    stock.starter_file_build(path=starter, plan={(16, "easy"): 1})
    current = f'"grader_version": {GRADER_VERSION}'
    assert current in starter.read_text()
    old = starter.read_text().replace(current, '"grader_version": 1')
    starter.write_text(old)
    assert stock.bank_seed(path=starter) == 1
    assert Puzzle.objects.get().grader_version == 1
    assert len(regrade.bank_regrade_plan()) == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_the_rows_stored_before_it_as_due_for_a_regrade():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = ("puzzles", "0003_packchunk_queued"), ("puzzles", "0004_puzzle_grader_version")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    OldPuzzle = executor.loader.project_state([before]).apps.get_model("puzzles", "Puzzle")
    old = OldPuzzle.objects.create(
        size=4, box_rows=2, box_cols=2, givens="1..4" * 4, solution="1234341221434321",
        difficulty="easy", score=10, clue_count=8, canonical_key="m" * 64, source="imported",
    )  # fmt: skip
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([after])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Puzzle.objects.get(pk=old.pk).grader_version == 0


def test_a_variant_puzzle_graded_by_the_old_givens_rule_is_graded_again_by_its_logic():
    from puzzles.variant_bank import variant_puzzle_store
    from puzzles.variants import rules_of
    from solver.generation.general import generate_variant
    from solver.logic.variant_grade import VARIANT_GRADER_VERSION, variant_grade

    made = generate_variant("killer", 9, level="medium", seed="regrade")
    assert made.puzzle.clues == 0  # the old rule called every givens-free Killer expert
    puzzle, _ = variant_puzzle_store(
        grid=made.puzzle, rules=made.rules, solution=made.solution, source="generated"
    )
    assert puzzle.grader_version == VARIANT_GRADER_VERSION
    Puzzle.objects.filter(pk=puzzle.pk).update(
        grader_version=GRADER_VERSION, difficulty="expert", score=4000
    )  # as stored before the variant grader: the classic's version, the old level
    assert regrade.bank_regrade_progress()[1] == 1
    regrade.bank_regrade()
    puzzle.refresh_from_db()
    graded = variant_grade(rules_of(puzzle), puzzle.grid())
    assert puzzle.grader_version == VARIANT_GRADER_VERSION
    assert (puzzle.difficulty, puzzle.score) == ("medium", graded.score)
    assert regrade.bank_regrade_progress() == (1, 0)
