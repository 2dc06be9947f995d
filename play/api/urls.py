from django.urls import path

from sudokusite.routers import SimpleRouter

from . import views

# A move is most of the API's traffic: its route is tried first.
router = SimpleRouter(first=("game-moves",))
router.register("games", views.GameViewSet, basename="game")

urlpatterns = [
    *router.urls,
    path("me/stats/", views.StatsView.as_view(), name="me-stats"),
    path("me/aids/", views.AidSettingsView.as_view(), name="me-aids"),
    path("leaderboards/", views.LeaderboardView.as_view(), name="leaderboard"),
    path(
        "puzzles/<id:id>/leaderboard/",
        views.PuzzleLeaderboardView.as_view(),
        name="puzzle-leaderboard",
    ),
]
