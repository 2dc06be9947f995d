from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts.views import language_set
from play import views as play_views
from sudokusite.views import health

urlpatterns = [
    # First: the API's requests (a move above all) are most of the traffic, and Django
    # tries the patterns in order.
    path("api/v1/", include("sudokusite.api")),
    # The load balancer's check (ops/drill.py's HAProxy asks it every second).
    path("healthz", health, name="health"),
    # The lobby; the other browser pages come from play.urls.
    path("", play_views.home, name="home"),
    path("", include("play.urls")),
    path("", include("replays.urls")),
    path("", include("races.urls")),
    path("learn/", include("learn.urls")),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("i18n/language/", language_set, name="set_language"),
    # The game's strings for gettext() in static/js, in the active language; loaded from
    # our own origin before the modules (the CSP allows 'self' scripts only).
    path(
        "i18n/catalog.js",
        JavaScriptCatalog.as_view(packages=["play"]),
        name="javascript_catalog",
    ),
]

handler400 = "sudokusite.views.bad_request"
handler403 = "sudokusite.views.permission_denied"
handler404 = "sudokusite.views.page_not_found"
handler500 = "sudokusite.views.server_error"
