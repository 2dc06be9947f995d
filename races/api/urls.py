from django.urls import path

from . import views

_CODE = "races/<str:code>/"

urlpatterns = [
    path("races/", views.RaceListView.as_view(), name="race-list"),
    path(_CODE, views.RaceView.as_view(), name="race-detail"),
    path(f"{_CODE}join/", views.RaceJoinView.as_view(), name="race-join"),
    path(f"{_CODE}leave/", views.RaceLeaveView.as_view(), name="race-leave"),
    path(f"{_CODE}start/", views.RaceStartView.as_view(), name="race-start"),
    path(f"{_CODE}results/", views.RaceResultsView.as_view(), name="race-results"),
]
