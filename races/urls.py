from django.urls import path

from . import views

app_name = "races"

urlpatterns = [
    path("races/new/", views.race_new, name="new"),
    path("races/<str:code>/", views.race_page, name="race"),
]
