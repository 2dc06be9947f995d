from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", include("sudokusite.api")),
    path("admin/", admin.site.urls),
]

handler400 = "sudokusite.views.bad_request"
handler403 = "sudokusite.views.permission_denied"
handler404 = "sudokusite.views.page_not_found"
handler500 = "sudokusite.views.server_error"
