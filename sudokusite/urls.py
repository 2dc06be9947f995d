from django.contrib import admin
from django.urls import include, path

from play import views as play_views

urlpatterns = [
    # The lobby; the other browser pages come from play.urls.
    path("", play_views.home, name="home"),
    path("", include("play.urls")),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", include("sudokusite.api")),
    path("admin/", admin.site.urls),
]

handler400 = "sudokusite.views.bad_request"
handler403 = "sudokusite.views.permission_denied"
handler404 = "sudokusite.views.page_not_found"
handler500 = "sudokusite.views.server_error"
