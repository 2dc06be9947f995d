"""A variant game is named by its rules wherever it is listed: the lobby's Continue card,
the games in progress and finished, the game page's and the replay's titles and header."""

from __future__ import annotations

import re

from django.test import Client
from django.utils import translation

from accounts.factories import UserFactory
from play.lifecycle import Player, game_abandon, game_start

TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def test_a_puzzle_label_names_the_rules_of_a_variant_only(make_variant):
    killer = make_variant("killer", 4)
    assert killer.label == "Killer · Easy 4×4"
    with translation.override("zh-hans"):
        assert killer.label.startswith("杀手数独 · ")


def test_variant_games_are_named_in_the_lobby_the_history_titles_and_replay(make_variant):
    user = UserFactory()
    client = Client()
    client.force_login(user)
    player = Player(user=user)
    killer, _ = game_start(player=player, puzzle_id=make_variant("killer", 4).pk)
    jigsaw, _ = game_start(player=player, puzzle_id=make_variant("jigsaw", 6).pk)
    game_abandon(game_id=jigsaw.pk, player=player)

    lobby = client.get("/").content.decode()
    assert "Killer · Easy 4×4" in lobby.split('data-testid="continue"')[1]
    history = client.get("/games/").content.decode()
    assert "Killer · Easy 4×4" in history and "Jigsaw · Easy 6×6" in history
    page = client.get(f"/play/{killer.pk}/").content.decode()
    assert "Killer · Easy 4×4" in TITLE.search(page).group(1)
    replay = client.get(f"/play/{jigsaw.pk}/replay/").content.decode()
    assert "Jigsaw · Easy 6×6" in TITLE.search(replay).group(1)
    assert 'data-testid="variant">Jigsaw<' in replay
    board = client.get(f"/leaderboards/?puzzle={killer.puzzle_id}").content.decode()
    assert "Killer · Easy 4×4: each player's first solve" in board
    chinese = client.get(
        f"/leaderboards/?puzzle={killer.puzzle_id}", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert "杀手数独 · 简单 4×4：" in chinese.content.decode()
