"""The lesson pages: /learn/ and /learn/<slug>/."""

from django.urls import path

from . import views

app_name = "learn"

urlpatterns = [
    path("", views.index, name="index"),
    path("<str:slug>/", views.lesson, name="lesson"),
    path("<str:slug>/practise/", views.practise, name="practise"),
]
