"""The first hour's pages: games in progress listed in full, replay links that name their
game, a practice game that says so, and Learn in the header."""

from __future__ import annotations

import itertools

import pytest
from django.test import Client

from accounts.factories import UserFactory
from play.lifecycle import Player, game_start
from play.models import Game, Status
from tests.play.factories import FOUR, puzzle_create

pytestmark = pytest.mark.django_db


def relabelled_fours(count: int) -> list:
    """``count`` distinct 4x4 puzzles: FOUR with its symbols permuted."""
    out = []
    for perm in itertools.islice(itertools.permutations("1234"), count):
        table = str.maketrans("1234", "".join(perm))
        out.append(puzzle_create(FOUR.translate(table)))
    return out


@pytest.fixture
def signed_in() -> tuple[Client, Player]:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    return client, Player(user=user)


def test_the_history_page_lists_games_in_progress_with_a_more_link(
    signed_in, django_assert_max_num_queries
):
    client, player = signed_in
    games = [game_start(player=player, puzzle_id=p.pk)[0] for p in relabelled_fours(12)]
    Game.objects.filter(pk=games[0].pk).update(status=Status.PAUSED, running_since=None)
    with django_assert_max_num_queries(10):  # the same whatever the number of games
        html = client.get("/games/").content.decode()
    assert 'data-testid="in-progress"' in html
    assert html.count('data-testid="continue-link"') == 10
    assert "(12)" in html
    assert 'data-testid="in-progress-more"' in html
    rest = client.get("/games/?playing=2").content.decode()
    assert rest.count('data-testid="continue-link"') == 2
    assert f'href="/play/{games[0].pk}/"' in rest  # the oldest, on the second page
    assert "paused" in rest


def test_the_history_page_without_games_in_progress_has_no_such_section(signed_in):
    client, _ = signed_in
    assert 'data-testid="in-progress"' not in client.get("/games/").content.decode()


def test_the_lobby_links_to_every_game_in_progress_when_it_shows_only_some(signed_in):
    client, player = signed_in
    puzzles = relabelled_fours(5)
    for puzzle in puzzles[:4]:
        game_start(player=player, puzzle_id=puzzle.pk)
    assert 'data-testid="all-in-progress"' not in client.get("/").content.decode()
    game_start(player=player, puzzle_id=puzzles[4].pk)
    html = client.get("/").content.decode()
    assert 'data-testid="all-in-progress"' in html
    assert 'href="/games/#in-progress"' in html


def test_each_replay_link_on_the_stats_page_names_its_game(signed_in):
    from django.utils import timezone

    client, player = signed_in
    for puzzle, seconds in zip(relabelled_fours(2), (95, 61), strict=True):
        game, _ = game_start(player=player, puzzle_id=puzzle.pk)
        Game.objects.filter(pk=game.pk).update(
            status=Status.COMPLETED,
            elapsed_ms=seconds * 1000,
            score=100,
            running_since=None,
            finished=timezone.now(),
        )
    html = client.get("/stats/").content.decode()
    assert "Easy 4×4 in 1:35</a>" in html
    assert "Easy 4×4 in 1:01</a>" in html


def test_learn_is_in_the_headers_navigation(client):
    html = client.get("/").content.decode()
    nav = html[html.index('<ul class="nav-links">') : html.index("</ul>")]
    assert 'href="/learn/"' in nav


def test_a_practice_game_page_names_its_technique_and_offers_another(signed_in):
    client, player = signed_in
    puzzle = puzzle_create(FOUR)
    game, _ = game_start(player=player, puzzle_id=puzzle.pk, practice_technique="x_wing")
    html = client.get(f"/play/{game.pk}/").content.decode()
    assert 'data-testid="practice-note"' in html
    assert 'Practice: <a href="/learn/x_wing/">X-Wing</a>' in html
    assert 'action="/learn/x_wing/practise/"' in html
    assert "Practise again" in html


def test_an_ordinary_game_page_says_nothing_of_practice(signed_in):
    client, player = signed_in
    game, _ = game_start(player=player, puzzle_id=puzzle_create(FOUR).pk)
    html = client.get(f"/play/{game.pk}/").content.decode()
    assert 'data-testid="practice-note"' not in html
    assert "Play another" in html


def test_the_practice_note_is_in_chinese_too(signed_in):
    client, player = signed_in
    game, _ = game_start(
        player=player, puzzle_id=puzzle_create(FOUR).pk, practice_technique="x_wing"
    )
    html = client.get(f"/play/{game.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    note = html[html.index('data-testid="practice-note"') :][:300]
    assert "Practice" not in note and "练习" in note, note


def test_the_lessons_last_step_offers_practise(client):
    html = client.get("/learn/x_wing/").content.decode()
    assert 'data-testid="lesson-practise"' in html
    assert 'form="practise-form"' in html and 'id="practise-form"' in html
