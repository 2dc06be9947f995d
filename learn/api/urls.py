from django.urls import path

from . import views

urlpatterns = [
    path("techniques/", views.TechniqueListView.as_view(), name="techniques"),
    path("techniques/<str:slug>/", views.TechniqueDetailView.as_view(), name="technique"),
]
