from pathlib import Path

from races.schemas import docs_markdown

DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_docs_api_shows_the_socket_messages_as_the_code_defines_them():
    assert docs_markdown() in DOCS.read_text(encoding="utf-8")
