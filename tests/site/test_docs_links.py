"""Every relative link in the repository's Markdown leads to a file, and every #anchor to
a heading of it (GitHub's slugs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_DIRS = {".venv", "node_modules", "var", "staticfiles", "test-artifacts"}
# [text](target) or ![alt](target), the target up to a space or the closing parenthesis.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_files() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*.md")
        if not any(
            part in SKIPPED_DIRS or part.startswith(".")
            for part in path.relative_to(ROOT).parts[:-1]
        )
    )


def _prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|__", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(path: Path) -> list[str]:
    links = []
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        line = re.sub(r"`[^`]*`", "", line)  # code spans are not links
        for target in LINK.findall(line):
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                links.append(target)
    return links


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / file_part).resolve() if file_part else path
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            broken.append(f"{target}: no heading #{anchor}")
    return broken


def test_the_docs_are_found():
    names = {path.relative_to(ROOT).as_posix() for path in markdown_files()}
    assert {"README.md", "docs/README.md", "docs/api.md", "bench/RESULTS.md"} <= names


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path):
    assert broken_links(path) == []


def test_a_missing_file_or_heading_is_reported(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## The chaos drill\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[ok](other.md#the-chaos-drill) [here](#page) [web](https://example.com)\n"
        "[gone](missing.md) [bad](other.md#nowhere)\n\n```\n[code](not-a-link.md)\n```\n"
    )
    assert broken_links(page) == [
        "missing.md: no such file",
        "other.md#nowhere: no heading #nowhere",
    ]


def test_the_readme_fits_in_a_few_screens():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode()) <= 12 * 1024
    first_screen = "\n".join(readme.splitlines()[:40])
    assert "make run" in first_screen and "make test" in first_screen
