"""Two devices at once on PostgreSQL: the race row's lock decides, once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from play.models import Game, Status
from races import services
from races.errors import RaceFull
from races.models import MAX_RACERS, Race, Racer
from tests.races.helpers import after_start, player, race_create
from tests.together import answer_or_error, run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; each one's result or exception."""
    return run_together(len(calls), lambda i: answer_or_error(calls[i]))


def test_two_players_taking_the_last_seat_at_once_get_one_seat(puzzle4):
    code = race_create(player())["race"]["code"]
    for _ in range(MAX_RACERS - 2):
        player().post(f"/api/v1/races/{code}/join/")
    first, second = player().user, player().user
    results = at_once(
        lambda: services.race_join(code=code, user=first),
        lambda: services.race_join(code=code, user=second),
    )
    assert sorted(type(r).__name__ for r in results) == ["RaceFull", "Racer"]
    assert any(isinstance(r, RaceFull) for r in results)
    assert Racer.objects.filter(race__code=code).count() == MAX_RACERS


def test_two_racers_finishing_at_once_take_places_one_and_two(puzzle4):
    host, guest = player(), player()
    code = race_create(host)["race"]["code"]
    guest.post(f"/api/v1/races/{code}/join/")
    host.post(f"/api/v1/races/{code}/start/")
    with after_start(code):
        host.get(f"/api/v1/races/{code}/")
    games = list(Game.objects.filter(race__code=code))
    now = timezone.now()
    Game.objects.filter(pk__in=[g.pk for g in games]).update(
        status=Status.COMPLETED, finished=now, running_since=None
    )
    games = list(Game.objects.filter(race__code=code).select_related("puzzle"))
    at_once(*(lambda g=g: services.race_game_finished(game=g) for g in games))
    places = sorted(Racer.objects.filter(race__code=code).values_list("place", flat=True))
    assert places == [1, 2]
    assert Race.objects.get(code=code).status == "finished"
