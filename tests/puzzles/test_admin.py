"""The bank's admin: puzzles listed and filtered, re-graded; packs asked for, followed
live, cancelled, downloaded and printed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from puzzles import chunks, packs
from puzzles.models import PackStatus, Puzzle, PuzzlePack

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def test_puzzles_are_listed_and_filtered(admin_client_, make_puzzle, run_pack):
    pack = run_pack(size=4, difficulty="easy", count=2)
    make_puzzle(size=9, level="medium", seed="m")
    url = reverse("admin:puzzles_puzzle_changelist")
    assert admin_client_.get(url).status_code == 200
    for query, count in [
        ("size__exact=9", 1),
        ("difficulty__exact=medium", 1),
        ("source__exact=generated", 3),
        (f"pack={pack.pk}", 2),
    ]:
        response = admin_client_.get(f"{url}?{query}")
        assert response.status_code == 200
        assert response.context["cl"].result_count == count, query


def test_a_puzzle_page_shows_its_grids(admin_client_, make_puzzle):
    puzzle = make_puzzle()
    response = admin_client_.get(reverse("admin:puzzles_puzzle_change", args=[puzzle.pk]))
    assert response.status_code == 200
    assert 'class="puzzle-grid"' in response.content.decode()


def test_the_regrade_action_puts_back_the_graders_level(admin_client_, make_puzzle):
    puzzle = make_puzzle(level="easy")
    Puzzle.objects.filter(pk=puzzle.pk).update(difficulty="master")
    response = admin_client_.post(
        reverse("admin:puzzles_puzzle_changelist"),
        {"action": "regrade", "_selected_action": [puzzle.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert "1 puzzle changed" in response.content.decode()
    puzzle.refresh_from_db()
    assert puzzle.difficulty == "easy"


def test_staff_ask_for_a_pack_from_the_admin(
    admin_client_, staff, no_enqueue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client_.post(
            reverse("admin:puzzles_puzzlepack_add"),
            {
                "name": "autumn",
                "size": "9",
                "difficulty": "hard",
                "count": "30",
                "symmetry": "mirror",
            },
        )
    pack = PuzzlePack.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:puzzles_puzzlepack_change", args=[pack.pk])
    assert (pack.size, pack.difficulty, pack.count, pack.symmetry) == (9, "hard", 30, "mirror")
    assert pack.requested_by == staff
    assert no_enqueue == [(pack.pk, list(range(pack.chunk_count)), None)]


def test_a_bad_pack_request_in_the_admin_shows_the_error(admin_client_, no_enqueue, only_easy_4x4):
    response = admin_client_.post(
        reverse("admin:puzzles_puzzlepack_add"),
        {"name": "tiny", "size": "4", "difficulty": "hard", "count": "0", "symmetry": "none"},
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "count" in errors
    assert not PuzzlePack.objects.exists()
    response = admin_client_.post(
        reverse("admin:puzzles_puzzlepack_add"),
        {"name": "tiny", "size": "4", "difficulty": "hard", "count": "5", "symmetry": "none"},
    )
    assert "4x4 puzzles are made only at easy" in str(response.context["adminform"].form.errors)


def test_the_pack_page_follows_progress_and_offers_cancel_and_downloads(admin_client_, no_enqueue):
    pack = packs.pack_create(name="p", size=4, difficulty="easy", count=4, chunk_size=2)
    chunks.pack_chunk_generate(pack_id=pack.pk, number=0)
    page = admin_client_.get(reverse("admin:puzzles_puzzlepack_change", args=[pack.pk]))
    html = page.content.decode()
    progress_url = reverse("admin:puzzles_puzzlepack_progress", args=[pack.pk])
    assert f'data-progress-url="{progress_url}"' in html
    assert 'max="4" value="2"' in html
    assert "puzzles/pack_progress.js" in html
    assert "<script>" not in html.split("</head>")[1]  # no inline script: the CSP forbids it
    assert reverse("admin:puzzles_puzzlepack_cancel", args=[pack.pk]) in html
    assert reverse("admin:puzzles_puzzlepack_export", args=[pack.pk, "csv"]) in html

    progress = admin_client_.get(progress_url).json()
    assert (progress["made"], progress["count"], progress["status"]) == (2, 4, "running")

    cancelled = admin_client_.post(reverse("admin:puzzles_puzzlepack_cancel", args=[pack.pk]))
    assert cancelled.status_code == 302
    pack.refresh_from_db()
    assert pack.status == PackStatus.CANCELLED
    assert admin_client_.get(progress_url).json()["finished"] is True


def test_the_pack_list_shows_progress_bars(admin_client_, run_pack):
    run_pack(size=4, difficulty="easy", count=2)
    html = admin_client_.get(reverse("admin:puzzles_puzzlepack_changelist")).content.decode()
    assert 'class="pack-progress" max="2" value="2"' in html


def test_a_pack_downloads_and_prints(admin_client_, run_pack):
    pack = run_pack(size=4, difficulty="easy", count=3)
    csv = admin_client_.get(reverse("admin:puzzles_puzzlepack_export", args=[pack.pk, "csv"]))
    assert csv.status_code == 200
    assert csv.content.decode().splitlines()[0] == "position,id,givens,solution,level,score"
    bad = admin_client_.get(reverse("admin:puzzles_puzzlepack_export", args=[pack.pk, "xls"]))
    assert bad.status_code == 400

    page = admin_client_.get(reverse("admin:puzzles_puzzlepack_print", args=[pack.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "puzzles/print.css" in html
    assert "<script>" not in html
    assert html.count('<section class="page puzzles">') == 1
    assert html.count('<section class="page answers">') == 1
    assert html.index("page puzzles") < html.index("page answers")
    # Every puzzle is printed with its givens only; the answers, at the end, are full.
    puzzles_part = html[html.index("page puzzles") : html.index("page answers")]
    answers = html[html.index("page answers") :]
    assert puzzles_part.count("<td") == answers.count("<td") == 3 * 16
    assert answers.count("<td") - answers.count('"></td>') == 3 * 16
    assert puzzles_part.count("></td>") == sum(
        e.puzzle.givens.count(".") for e in pack.entries.select_related("puzzle")
    )


def test_players_cannot_open_the_pack_admin(client, user, run_pack):
    pack = run_pack(size=4, difficulty="easy", count=1)
    client.force_login(user)
    for name, args in [
        ("admin:puzzles_puzzlepack_progress", [pack.pk]),
        ("admin:puzzles_puzzlepack_print", [pack.pk]),
        ("admin:puzzles_puzzlepack_export", [pack.pk, "csv"]),
    ]:
        response = client.get(reverse(name, args=args))
        assert response.status_code == 302  # to the admin login
        assert "/admin/login/" in response["Location"]
