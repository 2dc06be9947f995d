from django.urls import path

from .consumers import RaceConsumer

websocket_urlpatterns = [
    path("ws/races/<str:code>/", RaceConsumer.as_asgi()),
]
