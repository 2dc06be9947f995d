"""ASGI entry point: the site over HTTP, and the race sockets (races.routing).

Served by uvicorn: ``make asgi`` (gunicorn managing uvicorn workers) or uvicorn alone.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")
# Sync code runs here in threads made as they are needed: PostgreSQL connections come from
# a bounded pool (settings.DATABASE_POOL_SIZE per process), not one per thread.
if not os.environ.get("DATABASE_POOL", "").strip():
    os.environ["DATABASE_POOL"] = "1"

# Django is set up first: the consumers import models.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from races.auth import TokenAuthMiddleware, site_origin_validator  # noqa: E402
from races.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": site_origin_validator(
            AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)
