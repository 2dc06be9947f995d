from django.urls import path

import sudokusite.routers  # noqa: F401  (registers the ``id`` path converter)

from . import views

urlpatterns = [
    path("games/<id:game_id>/replay/", views.ReplayView.as_view(), name="game-replay"),
    path(
        "games/<id:game_id>/replay/share/",
        views.ReplayShareView.as_view(),
        name="game-replay-share",
    ),
    path("replays/<str:token>/", views.SharedReplayView.as_view(), name="shared-replay"),
]
