"""The level corpus's writer: one file per case, the same bytes for the same puzzles."""

from __future__ import annotations

import pytest

from bench import level_corpus
from bench.level_corpus import NOT_YET, all_cases, main, parse_case, read_case


@pytest.fixture
def corpus_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(level_corpus, "DIR", tmp_path)
    return tmp_path


def test_one_case_is_written_alone_and_reads_back_seed_by_seed(corpus_dir, capsys):
    assert main(["--case", "jigsaw:6:easy", "--count", "3"]) == 0
    assert [p.name for p in corpus_dir.iterdir()] == ["jigsaw_6_easy.jsonl.gz"]
    records = read_case(("jigsaw", 6, "easy"))
    assert [r["seed"] for r in records] == [0, 1, 2]
    assert records[0]["rules"]["variant"] == "jigsaw" and len(records[0]["puzzle"]) == 36
    assert "jigsaw:6:easy: 3 puzzles" in capsys.readouterr().out


def test_rewriting_a_case_writes_the_same_bytes(corpus_dir):
    main(["--case", "diagonal:6:easy", "--count", "2"])
    first = (corpus_dir / "diagonal_6_easy.jsonl.gz").read_bytes()
    main(["--case", "diagonal:6:easy", "--count", "2"])
    assert (corpus_dir / "diagonal_6_easy.jsonl.gz").read_bytes() == first


def test_the_case_list_is_complete_and_only_the_slow_killers_wait():
    assert ("killer", 9, "master") in all_cases() and ("diagonal", 6, "expert") in all_cases()
    assert ("killer", 6, "expert") not in all_cases()  # not offered at 6x6
    assert set(NOT_YET) <= set(all_cases())


def test_a_case_that_is_not_offered_is_refused():
    with pytest.raises(ValueError, match="unknown case"):
        parse_case("killer:6:master")
    with pytest.raises(SystemExit):
        main(["--case", "killer:nine:hard"])


def test_cases_run_in_parallel_processes_and_a_skipped_case_is_left_out(corpus_dir):
    cases = ["--case", "diagonal:6:easy", "--case", "jigsaw:6:easy", "--case", "killer:6:easy"]
    assert main([*cases, "--skip", "killer:6:easy", "--jobs", "2", "--count", "2"]) == 0
    assert sorted(p.name for p in corpus_dir.iterdir()) == [
        "diagonal_6_easy.jsonl.gz",
        "jigsaw_6_easy.jsonl.gz",
    ]
