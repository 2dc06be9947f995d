"""bench/moves.py: when a fixed-rate row meets the move target, what the report says, and
how it reads the CPU of a server whose processes come and go."""

from __future__ import annotations

import time
from itertools import pairwise

import pytest

from bench.moves import (
    FALLBACK_RUNS,
    FALLBACK_STEP,
    TARGET_P99_MS,
    TARGET_RATE,
    TARGET_RUNS,
    _context_switches,
    _instructions_note,
    _stored_moves_counter,
    _verdict,
    _within_target,
    callgrind_total,
    cpu_summary,
    database_is_local,
    fallback_rates,
)

SECONDS = 15  # a bench run's length


def _row(rate: float, *, rps: float | None = None, p99: float = 20.0, **counts: float) -> dict:
    offered = rate * SECONDS
    row = {"rate": rate, "rps": rate if rps is None else rps, "p99": p99, "offered": offered}
    row.update(requests=offered, non2xx=0.0, socket_errors=0.0)
    row.update(counts)
    return row


def test_a_row_that_carried_its_rate_under_the_p99_is_within_the_target():
    assert _within_target(_row(TARGET_RATE, rps=TARGET_RATE * 0.99, p99=TARGET_P99_MS - 0.1))


def test_a_row_over_the_p99_is_not_within_the_target():
    assert not _within_target(_row(TARGET_RATE, p99=TARGET_P99_MS))


def test_a_row_that_fell_behind_its_rate_is_not_within_the_target():
    # Every move answered in the end, but at 90% of the offered rate: the queue grew.
    assert not _within_target(_row(TARGET_RATE, rps=TARGET_RATE * 0.9))


def test_a_row_with_lost_or_refused_moves_is_not_within_the_target():
    assert not _within_target(_row(TARGET_RATE, requests=TARGET_RATE * SECONDS - 1))
    assert not _within_target(_row(TARGET_RATE, non2xx=1))
    assert not _within_target(_row(TARGET_RATE, socket_errors=1))


def test_the_target_is_met_when_every_run_at_its_rate_met_it():
    rows = [_row(TARGET_RATE, p99=31.0 + run) for run in range(TARGET_RUNS)]
    line = _verdict(rows)
    assert line.startswith(f"Target: {TARGET_RATE:,} moves/s")
    assert f"Met on this machine: {TARGET_RUNS} of {TARGET_RUNS} runs" in line
    assert "p99 31.0 ms" in line


def test_one_missed_run_at_the_target_rate_is_a_missed_target():
    rows = [_row(TARGET_RATE, p99=31.0), _row(TARGET_RATE, p99=240.0), _row(800, p99=22.0)]
    line = _verdict(rows)
    assert "Not met on this machine: 1 of 2 runs" in line and "p99 240.0 ms" in line
    assert line.endswith("The highest rate tried that met the p99: 800 moves/s.")


def test_a_missed_target_names_the_highest_lower_rate_that_met_the_p99():
    rows = [_row(TARGET_RATE, p99=240.0), _row(900, p99=75.0), _row(800, p99=22.0)]
    assert _verdict(rows).endswith("The highest rate tried that met the p99: 800 moves/s.")


def test_a_missed_target_with_no_rate_met_says_how_low_it_tried():
    rows = [_row(TARGET_RATE, p99=240.0), _row(900, p99=75.0), _row(700, p99=60.0)]
    assert _verdict(rows).endswith("No rate tried (down to 700 moves/s) met the p99.")


def test_a_missed_target_with_no_lower_rate_tried_says_so():
    assert _verdict([_row(TARGET_RATE, p99=240.0)]).endswith("No lower rate was tried.")


def test_fallback_rates_step_down_from_just_below_the_target_on_a_fast_server():
    rates = fallback_rates(flat_out=TARGET_RATE * 1.2)
    assert rates[0] == TARGET_RATE - FALLBACK_STEP
    assert len(rates) == FALLBACK_RUNS
    assert all(a - b == FALLBACK_STEP for a, b in pairwise(rates))


def test_fallback_rates_start_at_what_a_slow_server_answered_flat_out():
    # 475 moves/s back to back: 900 to 500 could only miss, so the first rate is 400.
    assert fallback_rates(flat_out=475.0) == [400, 300, 200, 100][:FALLBACK_RUNS]


def test_fallback_rates_never_reach_zero():
    assert fallback_rates(flat_out=250.0) == [200, 100]
    assert fallback_rates(flat_out=99.0) == []


def test_server_cpu_counts_a_child_that_exited_during_the_window():
    """A PostgreSQL backend can end mid-run (its connection past DATABASE_CONN_MAX_AGE):
    its CPU must still count, from its parent's reaped-children time."""
    import os
    import subprocess
    import sys

    from bench.moves import _server_cpu_seconds

    before = _server_cpu_seconds(os.getpid())
    # A child that uses 0.3 s of CPU, then exits and is reaped by this process.
    burn = "import time\nwhile time.process_time() < 0.3: pass"
    subprocess.run([sys.executable, "-c", burn], check=True)
    assert _server_cpu_seconds(os.getpid()) - before >= 0.25


def _measured(
    web: float, db: float, *, rate: float | None = None, rps: float = 1000.0,
    window_rps: float | None = None,
) -> dict:  # fmt: skip
    row = {"web_cpu_ms": web, "db_cpu_ms": db, "rps": rps, "client_cpu_ms": 0.1}
    row["window_rps"] = rps if window_rps is None else window_rps
    if rate is not None:
        row["rate"] = rate
    return row


def test_the_cpu_summary_gives_the_flat_out_ceiling_from_the_cheapest_back_to_back_run():
    rows = [_measured(1.2, 0.3, rps=1300), _measured(1.0, 0.25, rps=1280)]
    (_, text) = cpu_summary(rows, cores=2)
    assert "1.25 ms of CPU together" in text
    assert "about 1,600 moves/s" in text  # 2 cores / 1.25 ms
    assert "offered" not in text  # no run at the target's rate


def test_the_cpu_summary_says_how_busy_the_target_rate_kept_the_machine():
    rows = [
        _measured(1.1, 0.3, rps=1300),
        _measured(1.3, 0.35, rate=TARGET_RATE, rps=1000),
        _measured(1.4, 0.4, rate=TARGET_RATE, rps=990),
        _measured(1.0, 0.3, rate=800, rps=800),  # a lower rate: not the target's
    ]
    (_, text) = cpu_summary(rows, cores=2)
    assert f"At {TARGET_RATE:,} moves/s offered the same move cost 1.65-1.80 ms" in text
    # (1.65 + 0.1) ms x 1,000/s = 87.5% of 2 cores; (1.8 + 0.1) x 990/s = 94%.
    assert "kept 88-94% of the 2 cores busy" in text


def test_a_run_that_fell_behind_is_as_busy_as_the_rate_it_answered_while_measured():
    rows = [
        _measured(1.1, 0.3, rps=1300),
        # 600 answers/s over the whole run (its tail after the schedule ended), 700 measured.
        _measured(1.3, 0.35, rate=TARGET_RATE, rps=600, window_rps=700),
    ]
    (_, text) = cpu_summary(rows, cores=2)
    assert "kept 61% of the 2 cores busy" in text  # (1.65 + 0.1) ms x 700/s


def test_a_fixed_rate_that_costs_more_than_the_cheapest_back_to_back_run_is_called_dearer():
    rows = [_measured(1.0, 0.3, rps=1300), _measured(1.1, 0.3, rate=TARGET_RATE)]
    (_, text) = cpu_summary(rows, cores=2)
    assert "A move is dearer at a fixed rate than flat out" in text


@pytest.mark.parametrize("web", [1.1, 1.4])  # as dear as back to back, and dearer
def test_runs_that_fell_behind_say_the_server_worked_flat_out_whatever_their_cost(web):
    rows = [
        _measured(1.1, 0.3, rps=700),
        _measured(web, 0.3, rate=TARGET_RATE, rps=650, window_rps=690),
    ]
    (_, text) = cpu_summary(rows, cores=2)
    assert "dearer" not in text
    assert "Those runs fell behind the offered rate, so the server worked flat out" in text


def test_runs_that_kept_up_at_no_extra_cost_are_no_dearer():
    rows = [_measured(1.1, 0.3, rps=1300), _measured(1.1, 0.3, rate=TARGET_RATE)]
    (_, text) = cpu_summary(rows, cores=2)
    assert "No dearer than flat out. What is left spare" in text


def test_the_cpu_summary_is_left_out_when_postgresql_was_not_measured():
    assert cpu_summary([_measured(1.1, float("nan"), rps=1300)], cores=2) == []


def test_the_cpu_summary_counts_the_context_switches_a_move_took_each_way():
    rows = [
        {**_measured(1.1, 0.3, rps=1300), "switches": 18.4},
        {**_measured(1.1, 0.3, rps=1280), "switches": 18.6},
        {**_measured(1.3, 0.35, rate=TARGET_RATE), "switches": 22.4},
        {**_measured(1.3, 0.35, rate=TARGET_RATE), "switches": 23.7},
    ]
    (_, text) = cpu_summary(rows, cores=2)
    assert "switched context 22-24 times per move at the target's rate, 18-19 back to back" in text


def test_the_cpu_summary_leaves_the_switches_out_where_they_were_not_counted():
    rows = [
        {**_measured(1.1, 0.3, rps=1300), "switches": float("nan")},
        {**_measured(1.3, 0.35, rate=TARGET_RATE), "switches": float("nan")},
    ]
    (_, text) = cpu_summary(rows, cores=2)
    assert "switched context" not in text and "taken in turn." in text


def test_the_cpu_summary_gives_one_figure_where_the_runs_read_alike():
    rows = [_measured(1.1, 0.3, rps=1300)] + [
        _measured(1.3, 0.35, rate=TARGET_RATE) for _ in range(TARGET_RUNS)
    ]
    (_, text) = cpu_summary(rows, cores=2)
    assert "the same move cost 1.65 ms" in text


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("postgres://postgres@127.0.0.1:5432/test", True),
        ("postgres://postgres@localhost/test", True),
        ("postgres://postgres@%2Fvar%2Frun%2Fpostgresql/test", True),
        ("postgres:///test", True),  # no host: libpq's default socket
        ("postgres://postgres@db.internal:5432/test", False),
    ],
)
def test_a_loopback_address_or_a_socket_directory_is_a_local_database(url, local):
    assert database_is_local(url) is local


def test_context_switches_are_counted_from_the_machine():
    first = _context_switches()
    time.sleep(0.01)
    assert 0 < first <= _context_switches()


# The head and tail of a profile callgrind 3.19 wrote for the move bench.
CALLGRIND_PROFILE = """\
# callgrind format
version: 1
creator: callgrind-3.19.0
cmd:  .venv/bin/python -m bench.moves instructions /tmp/games.txt
events: Ir
summary: 0

fl=(1) ???
fn=(1) 0x0000000000001100
5 3

totals: 779193966
"""


def test_the_instruction_count_is_the_profiles_totals_not_its_summary():
    assert callgrind_total(CALLGRIND_PROFILE) == 779193966


def test_a_profile_without_totals_has_no_count():
    assert callgrind_total("# callgrind format\nevents: Ir\n") is None


def test_the_instruction_note_gives_millions_per_move_and_the_hosts_pace():
    note = _instructions_note(3_900_000.0, 1.95)
    assert "3.90 million" in note
    assert "2.00 per nanosecond" in note


def test_the_instruction_note_says_why_nothing_was_counted():
    note = _instructions_note("not counted: valgrind is not installed", 1.0)
    assert note.endswith("not counted: valgrind is not installed.")
    assert "million" not in note


@pytest.mark.django_db
def test_the_stored_moves_counter_rises_by_the_rows_written_in_between():
    from django.db import connection

    from accounts.factories import UserFactory

    UserFactory()  # ids go on from earlier tests' (PostgreSQL's sequences): not from 0
    connection.ensure_connection()
    stored = _stored_moves_counter(connection.connection, "auth_user")
    before = stored()
    UserFactory.create_batch(3)
    assert stored() - before == 3
