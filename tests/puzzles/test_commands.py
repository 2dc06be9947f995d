"""Management commands: generate_puzzles, import_puzzles, seed_bank."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from puzzles import bank, chunks, packs, stock
from puzzles.models import PackStatus, Puzzle, PuzzlePack
from solver import count_solutions
from solver.logic.grade import grade
from tests.puzzles.helpers import NINE, TWO

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=out)
    return out.getvalue()


def test_generate_sync_makes_the_pack_here(no_enqueue):
    output = run("generate_puzzles", "--size", "6", "--difficulty", "easy", "--count", "5",
                 "--pack", "six", "--sync", "--verbosity", "0")  # fmt: skip
    assert "Done: 5 puzzles" in output
    pack = PuzzlePack.objects.get(name="six")
    assert pack.status == PackStatus.DONE
    assert pack.entries.count() == 5
    assert no_enqueue == []


def test_generate_without_sync_queues_the_chunks(no_enqueue, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        output = run("generate_puzzles", "--size", "9", "--difficulty", "hard", "--count", "500")
    pack = PuzzlePack.objects.get()
    assert pack.name.startswith("9x9 hard ")
    assert "Queued" in output
    assert no_enqueue == [(pack.pk, list(range(pack.chunk_count)), None)]


@pytest.mark.django_db(transaction=True)  # the chunks are queued on a real commit
def test_generate_wait_follows_the_pack_until_done(no_enqueue, monkeypatch):
    # Stand in for the worker: run the chunks when they are queued.
    def work(pack_id, numbers, queue):
        for number in numbers:
            chunks.pack_chunk_generate(pack_id=pack_id, number=number)

    monkeypatch.setattr(packs, "_enqueue_chunks", work)
    output = run("generate_puzzles", "--size", "4", "--difficulty", "easy", "--count", "3",
                 "--wait", "--verbosity", "0")  # fmt: skip
    assert "Done: 3 puzzles" in output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--size", "7"], "--size: 7 is not offered"),
        (["--difficulty", "insane"], "--difficulty: 'insane' is not a level"),
        (["--count", "0"], "--count: 0 is out of range"),
        (["--count", "10001"], "--count: 10001 is out of range"),
    ],
)
def test_generate_refuses_a_bad_request(no_enqueue, args, says):
    base = {"--size": "9", "--difficulty": "easy", "--count": "5"}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    with pytest.raises(CommandError, match=says):
        run("generate_puzzles", *[x for pair in base.items() for x in pair], "--sync")
    assert not PuzzlePack.objects.exists()


def test_generate_refuses_a_pack_name_that_exists(no_enqueue):
    run("generate_puzzles", "--size", "4", "--difficulty", "easy", "--count", "1", "--pack", "x")
    with pytest.raises(CommandError, match="--pack: a pack named 'x' exists"):
        run("generate_puzzles", "--size", "4", "--difficulty", "easy", "--count", "1",
            "--pack", "x")  # fmt: skip


def test_import_reports_each_rejected_line_and_fails(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(f"{NINE}\n{TWO}\n{NINE[:-1]}x\n")
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_puzzles", str(path), stdout=out, stderr=out)
    assert f"{path}:2: multiple solutions: The puzzle has more than one solution." in out.getvalue()
    assert f"{path}:3: invalid: cell r9c9: 'x' is not a symbol" in out.getvalue()
    assert "imported 1, duplicates 0, invalid 1, multiple solutions 1" in str(caught.value)
    assert "The valid lines were imported." in str(caught.value)
    assert Puzzle.objects.count() == 1


def test_import_twice_adds_nothing_the_second_time(tmp_path):
    path = tmp_path / "one.sdm"
    path.write_text(NINE.replace(".", "0") + "\n")
    assert "imported 1, duplicates 0" in run("import_puzzles", str(path))
    assert "imported 0, duplicates 1" in run("import_puzzles", str(path))
    assert Puzzle.objects.count() == 1


def test_a_strict_import_with_a_bad_line_imports_nothing(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(f"{NINE}\n{TWO}\n")
    with pytest.raises(CommandError, match="1 bad line"):
        run("import_puzzles", str(path), "--strict")
    assert not Puzzle.objects.exists()


def test_import_of_a_missing_file_says_so(tmp_path):
    with pytest.raises(CommandError, match="No such file"):
        run("import_puzzles", str(tmp_path / "nope.txt"))


def test_seed_bank_loads_the_starter_file_once(tmp_path):
    starter = tmp_path / "starter.jsonl"
    stock.starter_file_build(path=starter, plan={(4, "easy"): 2, (9, "medium"): 2})
    assert len(starter.read_text().splitlines()) == 4
    assert stock.bank_seed(path=starter) == 4
    assert stock.bank_seed(path=starter) == 0
    assert stock.bank_stock() == {(4, "easy"): 2, (9, "medium"): 2}


def test_a_broken_starter_file_is_refused(tmp_path):
    starter = tmp_path / "starter.jsonl"
    stock.starter_file_build(path=starter, plan={(9, "easy"): 1})
    item = json.loads(starter.read_text())
    item["givens"] = TWO
    starter.write_text(json.dumps(item) + "\n")
    with pytest.raises(stock.StarterFileBroken, match="line 1"):
        stock.bank_seed(path=starter)
    assert not Puzzle.objects.exists()


def test_the_shipped_starter_bank_covers_every_level_of_9x9_and_the_other_sizes():
    output = run("seed_bank")
    assert "Starter bank:" in output
    have = stock.bank_stock()
    assert {level for (size, level) in have if size == 9} == set(bank.bank_levels(9)), (
        "9x9 must be stocked at every level"
    )
    for size in (4, 6, 16):
        assert any(s == size for s, _ in have), f"no {size}x{size} puzzle"
    assert run("seed_bank").startswith("Starter bank: 0 puzzle(s) added")
    for puzzle in Puzzle.objects.filter(variant="classic", size__lte=9):
        assert count_solutions(puzzle.grid(), limit=2) == 1
        assert grade(puzzle.grid()).level == puzzle.difficulty
