"""The browser pages as the server renders them: lobby, game, stats, leaderboards, solve."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.factories import UserFactory
from play.lifecycle import Player, game_start
from play.models import Game, Status
from tests.play.factories import FOUR, FOUR_B, NINE, puzzle_create

PAGE_BUDGET_BYTES = 114_000


class Assets(HTMLParser):
    """The scripts and stylesheets a page loads, and any inline script it carries."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self.inline_scripts: list[str] = []
        self._in_inline = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script":
            if a.get("src"):
                self.scripts.append(a["src"] or "")
            elif a.get("type") != "application/json":
                self._in_inline = True
                self.inline_scripts.append("")
        elif tag == "link" and a.get("rel") == "stylesheet":
            self.styles.append(a.get("href") or "")
        for name, _ in attrs:
            if name.startswith("on") or name == "style":
                self.inline_scripts.append(f"{tag} {name}=")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_inline = False


def assets_of(html: str) -> Assets:
    parser = Assets()
    parser.feed(html)
    return parser


def static_file(url: str) -> Path:
    assert url.startswith("/static/"), url
    found = finders.find(url.removeprefix("/static/"))
    assert found, f"{url} is not a static file"
    return Path(found)


def es_imports(path: Path) -> set[Path]:
    """The modules a script imports statically, relative to it, and theirs in turn (a
    dynamic ``import()``, loaded only when needed, is not followed)."""
    found: set[Path] = set()
    todo = [path]
    while todo:
        script = todo.pop()
        for name in re.findall(r'from\s+"(\./[^"]+)"', script.read_text()):
            module = (script.parent / name).resolve()
            if module not in found:
                found.add(module)
                todo.append(module)
    return found


@pytest.fixture
def guest(db: None) -> Client:
    return Client()


def guest_game(client: Client, puzzle) -> Game:
    response = client.post("/play/new/", {"puzzle": puzzle.pk})
    assert response.status_code == 302, response.content
    return Game.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[1]))


def test_the_lobby_offers_sizes_levels_daily_and_links(guest):
    html = guest.get("/").content.decode()
    for size in ("4", "6", "9", "16"):
        assert f'name="size" value="{size}"' in html
    for level in ("easy", "medium", "hard", "expert", "master"):
        assert f'name="difficulty" value="{level}"' in html
    assert 'name="daily" value="1"' in html
    for link in ("/stats/", "/leaderboards/", "/solve/"):
        assert f'href="{link}"' in html


def test_the_lobby_says_what_master_means(guest):
    html = guest.get("/").content.decode()
    meaning = re.search(r'data-testid="master-meaning">([^<]+)<', html)
    assert meaning and "beyond the techniques the hints explain" in meaning.group(1)


def test_the_lobby_preselects_the_size_and_level_asked_for(guest):
    html = guest.get("/?size=16&difficulty=hard").content.decode()
    assert 'value="16" checked' in html
    assert 'value="hard" checked' in html


def test_starting_from_the_lobby_opens_the_new_game(guest):
    puzzle = puzzle_create(FOUR, difficulty="easy")
    response = guest.post("/play/new/", {"size": "4", "difficulty": "easy"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert response["Location"] == f"/play/{game.pk}/"
    assert game.puzzle == puzzle
    assert game.user is None and game.guest_key


def test_the_lobby_offers_to_continue_an_unfinished_game(guest):
    game = guest_game(guest, puzzle_create(FOUR))
    html = guest.get("/").content.decode()
    assert "Continue this game" in html
    assert f'href="/play/{game.pk}/"' in html


def test_no_puzzle_of_that_level_is_a_message_not_an_error(guest):
    response = guest.post("/play/new/", {"size": "16", "difficulty": "master"}, follow=True)
    assert response.status_code == 200
    assert "not made at master" in response.content.decode()


def test_a_bad_form_value_is_a_message_not_a_500(guest):
    response = guest.post("/play/new/", {"size": "7", "difficulty": "easy"}, follow=True)
    assert response.status_code == 200
    assert "size:" in response.content.decode()
    assert not Game.objects.exists()


def test_the_game_page_embeds_the_game_as_the_api_serializes_it(guest):
    game = guest_game(guest, puzzle_create(NINE))
    response = guest.get(f"/play/{game.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    match = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', html)
    assert match
    data = json.loads(match.group(1))
    api = guest.get(f"/api/v1/games/{game.pk}/").json()
    assert {k: v for k, v in data["game"].items() if k != "elapsed_ms"} == {
        k: v for k, v in api.items() if k != "elapsed_ms"
    }
    assert data["urls"]["moves"] == f"/api/v1/games/{game.pk}/moves/"
    assert game.puzzle.solution not in html
    assert "csrftoken" in response.cookies


def test_someone_elses_game_page_is_a_404(guest):
    game = guest_game(guest, puzzle_create(FOUR))
    assert Client().get(f"/play/{game.pk}/").status_code == 404
    owner = UserFactory()
    other = Client()
    other.force_login(owner)
    assert other.get(f"/play/{game.pk}/").status_code == 404


@pytest.mark.parametrize("path", ["/", "/solve/", "/stats/", "/leaderboards/", "GAME"])
def test_pages_carry_no_inline_script_or_style(guest, path):
    if path == "GAME":
        path = f"/play/{guest_game(guest, puzzle_create(FOUR)).pk}/"
    response = guest.get(path)
    assert response.status_code == 200
    assets = assets_of(response.content.decode())
    assert assets.inline_scripts == []
    # Our own origin only: static files, and the translation catalog for static/js.
    own = ("/static/", reverse("javascript_catalog"))
    assert all(src.startswith(own) for src in assets.scripts + assets.styles)
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_game_pages_own_js_and_css_stay_within_budget(guest):
    """The size budget: what the game page loads of its own, imports included.

    Raised once, from 100,000 to 114,000 bytes (issues 41 to 43; 112,401 when raised):
    giving up with its confirmation and the solution after it (about 1.4 KB with its
    Chinese strings), the phone layout that keeps board and pad on the first screen (about
    1 KB), the board aids kept on the account (about 0.7 KB), corner marks and cell colours
    with their modes, keys, drawing and spoken names in both languages (about 7 KB), the
    race results' review marks and the setter's verdicts in the one script catalogue every
    page loads, and the hook that loads the constraints' drawing (static/js/constraints.js,
    loaded only for a puzzle that has constraints)."""
    game = guest_game(guest, puzzle_create(NINE))
    assets = assets_of(guest.get(f"/play/{game.pk}/").content.decode())
    catalog = reverse("javascript_catalog")
    static = [url for url in assets.scripts + assets.styles if url != catalog]
    files = {static_file(url) for url in static}
    for script in [static_file(url) for url in assets.scripts if url != catalog]:
        files.update(es_imports(script))
    names = {f.name for f in files}
    assert {"game.js", "sudoku.js", "game.css", "site.css"} <= names
    # The strings of static/js in the language the page is read in (the larger: Chinese).
    catalog_bytes = len(guest.get(catalog, HTTP_ACCEPT_LANGUAGE="zh-Hans").content)
    total = sum(f.stat().st_size for f in files) + catalog_bytes
    assert total < PAGE_BUDGET_BYTES, f"{total} bytes: {sorted(names)}"


def finish(game: Game, *, elapsed_ms: int, score: int, days_ago: int = 0) -> Game:
    game.status = Status.COMPLETED
    game.elapsed_ms = elapsed_ms
    game.score = score
    game.running_since = None
    game.finished = timezone.now() - timedelta(days=days_ago)
    game.counts = game.ranked  # what the gate (integrity.gate) decides for a fair game
    game.save()
    return game


def test_stats_show_figures_a_table_and_a_chart_of_solve_times(db):
    user = UserFactory()
    player = Player(user=user)
    finish(
        game_start(player=player, puzzle_id=puzzle_create(FOUR).pk)[0],
        elapsed_ms=90_000,
        score=150,
        days_ago=1,
    )
    finish(
        game_start(player=player, puzzle_id=puzzle_create(FOUR_B).pk)[0],
        elapsed_ms=61_000,
        score=180,
    )
    game_start(player=player, puzzle_id=puzzle_create(NINE).pk)
    client = Client()
    client.force_login(user)
    html = client.get("/stats/").content.decode()
    assert "Easy 4×4" in html
    assert "1:01" in html  # best time
    assert "1:15" in html  # average of 1:30 and 1:01 (75.5 s, shown to the second below)
    assert "2 days" in html  # a two-day streak
    assert '<svg class="chart"' in html
    assert html.count('class="dot"') == 2


def test_stats_invite_a_guest_to_sign_up(guest):
    guest_game(guest, puzzle_create(FOUR))
    html = guest.get("/stats/").content.decode()
    assert "played 1 game as a guest" in html
    assert 'href="/accounts/signup/"' in html


def test_leaderboards_rank_players_and_mark_mine(db):
    puzzle = puzzle_create(FOUR)
    fast, slow = UserFactory(username="fast"), UserFactory(username="slow")
    finish(
        game_start(player=Player(user=slow), puzzle_id=puzzle.pk)[0], elapsed_ms=80_000, score=90
    )
    finish(
        game_start(player=Player(user=fast), puzzle_id=puzzle.pk)[0], elapsed_ms=30_000, score=200
    )
    client = Client()
    client.force_login(slow)
    page = client.get("/leaderboards/?size=4&difficulty=easy&period=all").content.decode()
    html = page[page.index('data-testid="leaderboard"') :]
    assert html.index(">fast<") < html.index(">slow<")
    assert re.search(r'<tr class="me">\s*<td>2</td>\s*<td>slow</td>', html)
    one = client.get(f"/leaderboards/?puzzle={puzzle.pk}").content.decode()
    assert f"Puzzle #{puzzle.pk}" in one
    assert ">fast<" in one and "0:30" in one
    empty = client.get("/leaderboards/?size=9&difficulty=master").content.decode()
    assert "Nobody has solved one yet" in empty


def test_leaderboards_ignore_bad_filters(guest):
    response = guest.get("/leaderboards/?size=x&difficulty=nope&period=year&puzzle=abc")
    assert response.status_code == 200


def test_the_daily_button_starts_todays_puzzle_and_then_offers_to_continue(guest):
    from puzzles.models import DailyPuzzle

    puzzle = puzzle_create(NINE)
    DailyPuzzle.objects.create(date=timezone.localdate(), size=9, puzzle=puzzle)
    response = guest.post("/play/new/", {"daily": "1", "size": "9"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.puzzle == puzzle
    html = guest.get("/").content.decode()
    assert "Continue the daily" in html
    page = guest.get(f"/play/{game.pk}/").content.decode()
    assert "Daily puzzle" in page


def test_a_mistake_limit_chosen_in_the_lobby_is_the_games_limit(guest):
    puzzle = puzzle_create(FOUR)
    response = guest.post("/play/new/", {"size": "4", "difficulty": "easy", "mistake_limit": "3"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.mistake_limit == 3
    html = guest.get(f"/play/{game.pk}/").content.decode()
    assert '"mistake_limit": 3' in html
    assert puzzle.pk == game.puzzle_id


LEVEL_CHOICE = re.compile(
    r'<label class="choice"(?: data-missing="([^"]*)")?>\s*'
    r'<input type="radio" name="difficulty" value="(\w+)"'
)


def test_the_lobby_greys_only_levels_that_cannot_be_served_and_says_why(guest):
    """A level with no puzzle in stock is still served where a request can make one
    (puzzles.stock): greyed are the levels not made at a size (``not_made``) and the 16x16
    ones the workers have not made yet (``later``)."""
    puzzle_create(FOUR, difficulty="easy")
    puzzle_create(NINE, difficulty="hard")
    html = guest.get("/").content.decode()
    found = {level: tokens.split() for tokens, level in LEVEL_CHOICE.findall(html)}

    def of(variant: str, level: str) -> dict[str, str]:
        return {
            t.split(":")[1]: t.split(":")[2] for t in found[level] if t.startswith(f"{variant}:")
        }

    assert of("classic", "easy") == {"16": "later"}
    assert of("classic", "hard") == {"4": "not_made", "16": "later"}
    assert of("classic", "master") == {"4": "not_made", "6": "not_made", "16": "not_made"}
    assert of("killer", "easy") == {"16": "not_made"}
    assert of("killer", "hard") == {"4": "not_made", "16": "not_made"}
    assert of("killer", "expert") == {"4": "not_made", "6": "not_made", "16": "not_made"}
    assert of("jigsaw", "expert") == {"4": "not_made", "16": "not_made"}
    assert of("jigsaw", "master") == {"4": "not_made", "6": "not_made", "16": "not_made"}


def test_a_message_waits_through_api_calls_for_the_next_page(guest):
    guest.get("/")  # the CSRF cookie, which makes this browser a guest of the API
    queued = guest.post("/play/new/", {"size": "16", "difficulty": "master"})  # not followed
    assert queued.status_code == 302
    api = guest.get("/api/v1/games/")
    assert api.status_code == 200
    assert not hasattr(api.wsgi_request, "_messages")  # the API makes no message storage
    assert "not made at master" in guest.get("/").content.decode()
