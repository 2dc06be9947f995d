"""A WebSocket client for an ASGI application in the same process, over asgiref's
ApplicationCommunicator (channels' own WebsocketCommunicator lives in a package that
imports daphne, which this project does not use)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

from asgiref.testing import ApplicationCommunicator


class WebsocketCommunicator(ApplicationCommunicator):
    def __init__(
        self,
        application: Any,
        path: str,
        headers: list | None = None,
        subprotocols: list | None = None,
        client: tuple[str, int] | None = None,
    ) -> None:
        parsed = urlparse(path)
        scope = {
            "type": "websocket",
            "path": unquote(parsed.path),
            "query_string": parsed.query.encode(),
            "headers": headers or [],
            "subprotocols": subprotocols or [],
        }
        if client is not None:
            scope["client"] = client
        super().__init__(application, scope)

    async def connect(self, timeout: float = 1) -> tuple[bool, Any]:
        """(True, the chosen subprotocol) when accepted, (False, the close code) when not."""
        await self.send_input({"type": "websocket.connect"})
        response = await self.receive_output(timeout)
        if response["type"] == "websocket.close":
            return False, response.get("code", 1000)
        assert response["type"] == "websocket.accept", response
        return True, response.get("subprotocol")

    async def send_to(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None:
            await self.send_input({"type": "websocket.receive", "text": text_data})
        else:
            await self.send_input({"type": "websocket.receive", "bytes": bytes_data})

    async def receive_from(self, timeout: float = 1) -> str:
        response = await self.receive_output(timeout)
        assert response["type"] == "websocket.send", response
        return response["text"]

    async def disconnect(self, code: int = 1000, timeout: float = 1) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": code})
        await self.wait(timeout)
