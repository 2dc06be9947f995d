"""Puzzle bank services: checks before a puzzle is stored, packs made in chunks that can
run any number of times, cancel, the daily puzzle, the top-up, the starter bank."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import transaction

from puzzles import bank, chunks, daily, packs, selectors, stock
from puzzles.models import (
    ChunkStatus,
    DailyPuzzle,
    PackChunk,
    PackEntry,
    PackStatus,
    Puzzle,
    PuzzlePack,
    Source,
)
from solver import format_line, is_solution, parse
from solver.logic.grade import grade
from solver.search.dlx import dlx_count
from tests.puzzles.helpers import NINE, TWO, disguise

pytestmark = pytest.mark.django_db


def test_it_stores_a_puzzle_with_its_one_solution_and_its_grade():
    puzzle, created = bank.puzzle_get_or_create_from_grid(grid=parse(NINE))
    assert created
    assert is_solution(parse(NINE), puzzle.solution_grid())
    rated = grade(parse(NINE))
    assert (puzzle.difficulty, puzzle.score) == (rated.level, rated.score)
    assert puzzle.techniques == rated.techniques
    assert puzzle.clue_count == 30
    assert puzzle.source == Source.IMPORTED


def test_a_solution_the_caller_already_proved_is_stored_without_a_second_search(monkeypatch):
    solution = bank.puzzle_solution_checked(parse(NINE))

    def no_search(*args, **kwargs):
        raise AssertionError("the grid was searched again")

    monkeypatch.setattr(bank, "solutions", no_search)
    puzzle, created = bank.puzzle_get_or_create_from_grid(grid=parse(NINE), solution=solution)
    assert created
    assert puzzle.solution == format_line(solution)


def test_a_puzzle_in_disguise_is_the_stored_one():
    stored, _ = bank.puzzle_get_or_create_from_grid(grid=parse(NINE))
    other = disguise(NINE)
    assert other != NINE
    again, created = bank.puzzle_get_or_create_from_grid(grid=parse(other))
    assert not created
    assert again.pk == stored.pk
    assert Puzzle.objects.count() == 1


def test_a_puzzle_with_two_solutions_is_refused():
    with pytest.raises(bank.PuzzleNotUnique) as caught:
        bank.puzzle_get_or_create_from_grid(grid=parse(TWO))
    assert caught.value.code == "multiple_solutions"
    assert not Puzzle.objects.exists()


def test_a_puzzle_whose_givens_clash_is_refused_naming_the_cells():
    clash = "55" + NINE[2:]
    with pytest.raises(bank.PuzzleNotUnique) as caught:
        bank.puzzle_get_or_create_from_grid(grid=parse(clash))
    assert caught.value.code == "no_solution"
    assert "r1c1 and r1c2 both hold 5 in row 1" in caught.value.message


# --- Pack requests -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "field", "says"),
    [
        ({"size": 7}, "size", "7 is not offered"),
        ({"size": "9"}, "size", "'9' is not offered"),
        ({"difficulty": "insane"}, "difficulty", "'insane' is not a level"),
        ({"size": 4, "difficulty": "hard"}, "difficulty", "4x4 puzzles are made only at easy"),
        ({"count": 0}, "count", "ask for 1 to 10,000"),
        ({"count": 10_001}, "count", "ask for 1 to 10,000"),
        ({"symmetry": "spiral"}, "symmetry", "'spiral' is unknown"),
        ({"name": "  "}, "name", "give the pack a name"),
    ],
)
def test_a_bad_pack_request_is_refused_naming_the_field(
    no_enqueue, only_easy_4x4, changes, field, says
):
    request = {"name": "p", "size": 9, "difficulty": "easy", "count": 10, **changes}
    with pytest.raises(packs.PackRequestInvalid) as caught:
        packs.pack_create(**request)
    assert caught.value.field_name == field
    assert says in caught.value.message
    assert not PuzzlePack.objects.exists()
    assert no_enqueue == []


def test_a_pack_name_is_used_once(no_enqueue):
    packs.pack_create(name="weekly", size=4, difficulty="easy", count=3)
    with pytest.raises(packs.PackNameTaken, match="a pack named 'weekly' exists"):
        packs.pack_create(name="weekly", size=4, difficulty="easy", count=3)


def test_chunks_are_queued_only_after_the_pack_commits(
    no_enqueue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            pack = packs.pack_create(
                name="p", size=9, difficulty="easy", count=25, chunk_size=10, queue="q1"
            )
            assert no_enqueue == []
        assert no_enqueue == []  # the outer block has not committed yet
    assert no_enqueue == [(pack.pk, [0, 1, 2], "q1")]
    assert list(pack.chunks.values_list("number", "status")) == [
        (0, "pending"),
        (1, "pending"),
        (2, "pending"),
    ]


def test_a_rolled_back_pack_queues_nothing(no_enqueue, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        packs.pack_create(name="p", size=9, difficulty="easy", count=5)
        raise RuntimeError("rolled back")
    assert no_enqueue == []
    assert not PuzzlePack.objects.exists()


# --- Chunks ------------------------------------------------------------------------------


def test_a_pack_is_filled_with_exactly_its_count_of_distinct_checked_puzzles(run_pack):
    pack = run_pack(size=9, difficulty="medium", count=7, chunk_size=3)
    assert pack.status == PackStatus.DONE
    assert pack.started and pack.finished
    entries = list(pack.entries.select_related("puzzle").order_by("position"))
    assert [e.position for e in entries] == list(range(7))
    assert len({e.puzzle.canonical_key for e in entries}) == 7
    for entry in entries:
        puzzle = entry.puzzle
        assert puzzle.source == Source.GENERATED
        assert dlx_count(puzzle.grid(), limit=2) == 1
        assert is_solution(puzzle.grid(), puzzle.solution_grid())
        assert grade(puzzle.grid()).level == puzzle.difficulty == "medium"
    assert set(pack.chunks.values_list("status", flat=True)) == {ChunkStatus.DONE}


def test_running_a_chunk_again_adds_nothing(no_enqueue):
    pack = packs.pack_create(name="p", size=9, difficulty="easy", count=4, chunk_size=2)
    assert chunks.pack_chunk_generate(pack_id=pack.pk, number=0) == 2
    # A redelivered copy of a finished chunk, and of one that died half way.
    assert chunks.pack_chunk_generate(pack_id=pack.pk, number=0) == 0
    PackChunk.objects.filter(pack=pack, number=0).update(status=ChunkStatus.RUNNING)
    assert chunks.pack_chunk_generate(pack_id=pack.pk, number=0) == 0
    assert pack.entries.count() == 2


def test_a_chunk_that_died_half_way_fills_only_what_is_missing(no_enqueue, monkeypatch):
    pack = packs.pack_create(name="p", size=9, difficulty="easy", count=4, chunk_size=4)
    real = chunks._pack_fill_position
    calls = []

    def dies_on_the_third(pack_, number, position):
        calls.append(position)
        if len(calls) == 3:
            raise MemoryError("worker died")
        return real(pack_, number, position)

    monkeypatch.setattr(chunks, "_pack_fill_position", dies_on_the_third)
    with pytest.raises(MemoryError):
        chunks.pack_chunk_generate(pack_id=pack.pk, number=0)
    assert sorted(pack.entries.values_list("position", flat=True)) == [0, 1]
    monkeypatch.setattr(chunks, "_pack_fill_position", real)
    assert chunks.pack_chunk_generate(pack_id=pack.pk, number=0) == 2
    pack.refresh_from_db()
    assert pack.status == PackStatus.DONE
    assert sorted(pack.entries.values_list("position", flat=True)) == [0, 1, 2, 3]
    assert PackChunk.objects.get(pack=pack, number=0).attempts == 2


def test_the_same_seed_makes_the_same_puzzles(no_enqueue):
    first = packs.pack_create(name="a", size=9, difficulty="easy", count=3, seed="s1")
    packs.pack_run_sync(pack=first)
    givens = list(first.entries.order_by("position").values_list("puzzle__givens", flat=True))
    PackEntry.objects.all().delete()
    Puzzle.objects.all().delete()
    second = packs.pack_create(name="b", size=9, difficulty="easy", count=3, seed="s1")
    packs.pack_run_sync(pack=second)
    again = list(second.entries.order_by("position").values_list("puzzle__givens", flat=True))
    assert again == givens


def test_a_pack_meeting_puzzles_already_in_the_bank_makes_replacements(no_enqueue):
    first = packs.pack_create(name="a", size=4, difficulty="easy", count=5, seed="same")
    packs.pack_run_sync(pack=first)
    second = packs.pack_create(name="b", size=4, difficulty="easy", count=5, seed="same")
    packs.pack_run_sync(pack=second)
    assert second.status == PackStatus.DONE
    mine = set(second.entries.values_list("puzzle_id", flat=True))
    theirs = set(first.entries.values_list("puzzle_id", flat=True))
    assert len(mine) == 5
    assert mine.isdisjoint(theirs)
    assert Puzzle.objects.count() == 10


def test_the_pack_is_marked_done_once(no_enqueue):
    pack = packs.pack_create(name="p", size=4, difficulty="easy", count=2, chunk_size=1)
    chunks.pack_chunk_generate(pack_id=pack.pk, number=0)
    pack.refresh_from_db()
    assert pack.status == PackStatus.RUNNING
    chunks.pack_chunk_generate(pack_id=pack.pk, number=1)
    pack.refresh_from_db()
    assert pack.status == PackStatus.DONE
    assert chunks.pack_finish_if_complete(pack_id=pack.pk) is False


def test_a_chunk_started_too_often_fails_the_pack_instead_of_looping(no_enqueue):
    pack = packs.pack_create(name="p", size=4, difficulty="easy", count=2, chunk_size=1)
    PackChunk.objects.filter(pack=pack, number=1).update(
        status=ChunkStatus.RUNNING, attempts=chunks.CHUNK_MAX_ATTEMPTS
    )
    assert chunks.pack_chunk_generate(pack_id=pack.pk, number=1) == 0
    pack.refresh_from_db()
    assert pack.status == PackStatus.FAILED
    assert "chunk 1: started 4 times without finishing" in pack.error
    assert chunks.pack_chunk_generate(pack_id=pack.pk, number=0) == 0
    assert not pack.entries.exists()


def test_a_chunk_out_of_starts_whose_work_was_done_finishes_the_pack(no_enqueue):
    pack = packs.pack_create(name="p", size=4, difficulty="easy", count=2, chunk_size=2)
    chunks.pack_chunk_generate(pack_id=pack.pk, number=0)
    # Its last start filled every position, then the worker died before saying so.
    PackChunk.objects.filter(pack=pack).update(
        status=ChunkStatus.RUNNING, attempts=chunks.CHUNK_MAX_ATTEMPTS
    )
    PuzzlePack.objects.filter(pk=pack.pk).update(status=PackStatus.RUNNING, finished=None)
    assert chunks.pack_chunk_generate(pack_id=pack.pk, number=0) == 0
    pack.refresh_from_db()
    assert pack.status == PackStatus.DONE
    assert pack.chunks.get().status == ChunkStatus.DONE


def test_a_chunk_that_always_fails_ends_the_pack_as_failed_with_its_error(no_enqueue):
    # Bypass the request checks: a 4x4 grid of 1x4 "boxes" cannot be made.
    pack = PuzzlePack.objects.create(
        name="p", size=4, box_rows=1, box_cols=4, difficulty="easy", count=2, seed="s"
    )
    PackChunk.objects.create(pack=pack, number=0)
    pack = packs.pack_run_sync(pack=pack)
    assert pack.status == PackStatus.FAILED
    assert "chunk 0: ValueError" in pack.error
    assert "box shape 1x4 has no real boxes" in pack.error
    chunk = pack.chunks.get()
    assert (chunk.status, chunk.attempts) == (ChunkStatus.FAILED, chunks.CHUNK_MAX_ATTEMPTS)


def test_cancel_stops_the_chunks_not_yet_run(no_enqueue):
    pack = packs.pack_create(name="p", size=4, difficulty="easy", count=4, chunk_size=2)
    chunks.pack_chunk_generate(pack_id=pack.pk, number=0)
    packs.pack_cancel(pack=pack)
    assert chunks.pack_chunk_generate(pack_id=pack.pk, number=1) == 0
    pack.refresh_from_db()
    assert pack.status == PackStatus.CANCELLED
    assert pack.entries.count() == 2
    with pytest.raises(packs.PackNotActive, match="is cancelled already"):
        packs.pack_cancel(pack=pack)


def test_stalled_packs_are_queued_again(no_enqueue):
    pack = packs.pack_create(name="p", size=4, difficulty="easy", count=4, chunk_size=2)
    chunks.pack_chunk_generate(pack_id=pack.pk, number=0)
    no_enqueue.clear()
    assert packs.pack_resume_stalled(idle_for=timedelta(hours=1)) == 0
    assert packs.pack_resume_stalled(idle_for=timedelta(seconds=-1)) == 1
    assert no_enqueue == [(pack.pk, [1], None)]


def test_progress_is_counted_from_the_rows(no_enqueue):
    pack = packs.pack_create(name="p", size=4, difficulty="easy", count=4, chunk_size=2)
    chunks.pack_chunk_generate(pack_id=pack.pk, number=1)
    progress = selectors.pack_progress(pack=pack)
    assert (progress["made"], progress["count"], progress["percent"]) == (2, 4, 50.0)
    assert (progress["chunks_done"], progress["chunks"], progress["finished"]) == (1, 2, False)


# --- Picking -------------------------------------------------------------------------------


def test_pick_leaves_out_the_excluded_puzzles(make_puzzle):
    puzzles = [make_puzzle(seed=str(i)) for i in range(3)]
    seen = {
        selectors.puzzle_pick(size=9, difficulty="easy", exclude=([puzzles[0].pk],)).pk
        for _ in range(20)
    }
    assert seen <= {puzzles[1].pk, puzzles[2].pk}
    everything = Puzzle.objects.values("id")
    assert selectors.puzzle_pick(size=9, difficulty="easy", exclude=(everything,)) is None
    assert selectors.puzzle_pick(size=9, difficulty="hard") is None


def test_the_daily_puzzle_is_chosen_once_per_day_and_not_repeated(make_puzzle):
    make_puzzle(seed="a")
    make_puzzle(seed="b")
    monday = date(2026, 3, 2)
    first = daily.daily_puzzle_get(day=monday)
    assert daily.daily_puzzle_get(day=monday).pk == first.pk
    assert daily.daily_puzzle_get(day=monday + timedelta(days=1)).pk != first.pk
    assert DailyPuzzle.objects.count() == 2


def test_no_daily_puzzle_without_puzzles_of_that_size(make_puzzle):
    make_puzzle(size=4)
    with pytest.raises(daily.BankEmpty, match="no 9x9 puzzle"):
        daily.daily_puzzle_get(day=date(2026, 3, 2), size=9)


# --- Stock ---------------------------------------------------------------------------------


def test_top_up_queues_a_pack_for_each_short_level_once(no_enqueue, make_puzzle, only_easy_4x4):
    make_puzzle(size=6, level="easy", seed="x")
    classic = ("classic",)
    queued = stock.bank_top_up(minimum=1, target=3, sizes=(4, 6), variants=classic)
    assert sorted((p.size, p.difficulty, p.count) for p in queued) == [
        (4, "easy", 3),
        (6, "medium", 3),
    ]
    assert stock.bank_top_up(minimum=1, target=3, sizes=(4, 6), variants=classic) == []


def test_regrade_puts_back_the_graders_level(make_puzzle):
    puzzle = make_puzzle(level="medium")
    Puzzle.objects.filter(pk=puzzle.pk).update(difficulty="master", score=1)
    assert bank.puzzle_regrade(puzzles=Puzzle.objects.all()) == 1
    puzzle.refresh_from_db()
    assert puzzle.difficulty == "medium"
    assert puzzle.score == grade(parse(puzzle.givens)).score
    assert format_line(puzzle.grid()) == puzzle.givens
