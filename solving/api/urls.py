from django.urls import path

from . import views

urlpatterns = [
    path("solver/analyse/", views.AnalyseView.as_view(), name="solver-analyse"),
    path("solver/check/", views.SetterCheckView.as_view(), name="solver-check"),
    path("solver/hint/", views.HintView.as_view(), name="solver-hint"),
]
