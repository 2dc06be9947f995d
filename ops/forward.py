"""A TCP forward on loopback: ``python -m ops.forward LISTEN_HOST:PORT TARGET_HOST:PORT``.

The drill (ops/drill.py) gives each web node its own way to PostgreSQL through one of
these, so that killing it cuts that node, and only that node, off the database. Killing
the process closes every connection it carries at once, as a lost link would.
"""

from __future__ import annotations

import asyncio
import sys

CHUNK = 65536


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def _serve(listen: tuple[str, int], target: tuple[str, int]) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    server = await asyncio.start_server(handle, *listen)
    async with server:
        await server.serve_forever()


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise SystemExit(f"forward: {text!r} is not HOST:PORT")
    if not host.startswith("127."):
        raise SystemExit(f"forward: {host} is not a loopback address (127.0.0.0/8)")
    return host, int(port)


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        raise SystemExit("usage: python -m ops.forward LISTEN_HOST:PORT TARGET_HOST:PORT")
    asyncio.run(_serve(_address(argv[0]), _address(argv[1])))


if __name__ == "__main__":
    main(sys.argv[1:])
