from sudokusite.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("puzzles", views.PuzzleViewSet, basename="puzzle")
router.register("packs", views.PackViewSet, basename="pack")

urlpatterns = router.urls
