from django.urls import path, re_path

from . import views

# Digits only, and few enough to fit a bigint (as the games router): anything else is a 404.
GAME = r"^games/(?P<game_id>[0-9]{1,18})/replay/"

urlpatterns = [
    re_path(GAME + r"$", views.ReplayView.as_view(), name="game-replay"),
    re_path(GAME + r"share/$", views.ReplayShareView.as_view(), name="game-replay-share"),
    path("replays/<str:token>/", views.SharedReplayView.as_view(), name="shared-replay"),
]
