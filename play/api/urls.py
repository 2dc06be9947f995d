from django.urls import path

from sudokusite.routers import SimpleRouter

from . import player_views, views

# A move is most of the API's traffic: its route is tried first.
router = SimpleRouter(first=("game-moves",))
router.register("games", views.GameViewSet, basename="game")

urlpatterns = [
    *router.urls,
    path("me/stats/", player_views.StatsView.as_view(), name="me-stats"),
    path("me/aids/", player_views.AidSettingsView.as_view(), name="me-aids"),
    path("leaderboards/", player_views.LeaderboardView.as_view(), name="leaderboard"),
    path(
        "puzzles/<id:id>/leaderboard/",
        player_views.PuzzleLeaderboardView.as_view(),
        name="puzzle-leaderboard",
    ),
]
