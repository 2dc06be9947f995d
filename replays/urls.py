"""The replay pages and the game history."""

from django.urls import path

from . import views

app_name = "replays"

urlpatterns = [
    path("play/<int:game_id>/replay/", views.replay_page, name="replay"),
    path("r/<str:token>/", views.shared_replay_page, name="shared"),
    path("games/", views.game_history, name="history"),
]
