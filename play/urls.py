"""The browser pages of the play app (the lobby itself is ``home`` in sudokusite.urls)."""

from django.urls import path

from . import board_views, views

app_name = "play"

urlpatterns = [
    path("play/", views.play_start, name="start"),
    path("play/new/", views.game_new, name="new"),
    path("manifest.webmanifest", views.web_manifest, name="manifest"),
    path("play/<int:game_id>/", views.game_page, name="game"),
    path("play/sw.js", views.service_worker, name="service_worker"),
    path("solve/", views.solve, name="solve"),
    path("stats/", board_views.stats, name="stats"),
    path("leaderboards/", board_views.leaderboards, name="leaderboards"),
]
