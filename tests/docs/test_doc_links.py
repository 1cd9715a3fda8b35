"""Every relative link in every committed Markdown file resolves to a file.

A link is ``[text](target)`` or ``[text]: target``; web addresses
(``http:``, ``https:``, ``mailto:``) and in-page anchors (``#...``) are left
alone, and an anchor after a path is dropped (the file must exist, the heading
is not checked). Paths resolve against the Markdown file's folder.

The pages also name files in code spans (`` `vision/detector.py` ``); a span
that starts with one of the project's top-level folders and ends in a file
extension must name an existing file, from the repository root or the page's
folder. ``CHANGELOG.md`` is history and names files that have since moved, so
only its links are checked.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
FOLDERS = ("benchmarks", "datasets", "docs", "models", "referee", "scripts",
           "tableref", "tests", "training", "vision", "voice", "web")
EXTENSIONS = ("md", "py", "json", "jsonl", "txt", "yaml", "yml", "sh", "toml", "pt",
              "mp4", "gz", "wav", "png", "jpg", "html", "js", "css", "npz", "xml")
CODE_PATH = re.compile(
    r"`((?:\.\./)*(?:%s)/[\w./-]*\.(?:%s))(?:::\w+)?`"
    % ("|".join(FOLDERS), "|".join(EXTENSIONS))
)


def committed_markdown() -> list[Path]:
    """The *.md files git tracks (or would commit: untracked, not ignored)."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    return sorted(ROOT / p for p in out.splitlines() if (ROOT / p).is_file())


def links(text: str) -> list[str]:
    """Link targets outside code blocks and inline code."""
    text = FENCE.sub("", text)
    text = re.sub(r"`[^`\n]*`", "", text)
    return INLINE.findall(text) + REFERENCE.findall(text)


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in links(path.read_text(encoding="utf-8")):
        if EXTERNAL.match(target) or target.startswith("#"):
            continue
        file_part = target.split("#", 1)[0]
        if not (path.parent / file_part).exists():
            broken.append(target)
    return broken


def test_the_link_finder_sees_inline_and_reference_links():
    text = ("[a](docs/x.md) ![b](img.png \"t\") [c](#here) [d](https://x.org)\n"
            "`[e](not-a-link.md)`\n```\n[f](in-code.md)\n```\n[g]: ../y.md#part\n")
    assert links(text) == ["docs/x.md", "img.png", "#here", "https://x.org",
                           "../y.md#part"]


def test_there_are_markdown_files_to_check():
    names = {_name(p) for p in MARKDOWN}
    assert "README.md" in names


def missing_code_paths(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [name for name in CODE_PATH.findall(text)
            if not (ROOT / name).exists() and not (path.parent / name).exists()]


def test_the_code_span_finder_sees_project_paths_only():
    text = ("`vision/detector.py` `vision/ultralytics_setup.setup` `x/y.py` "
            "`tests/a.py::test_b` `models/`\n```\n`docs/in-code.md`\n```\n")
    found = CODE_PATH.findall(FENCE.sub("", text))
    assert found == ["vision/detector.py", "tests/a.py"]


MARKDOWN = committed_markdown()


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", MARKDOWN, ids=_name)
def test_relative_links_resolve(path):
    assert broken_links(path) == [], f"{_name(path)}: broken links"


@pytest.mark.parametrize(
    "path", [p for p in MARKDOWN if p.name != "CHANGELOG.md"], ids=_name
)
def test_files_named_in_code_spans_exist(path):
    assert missing_code_paths(path) == [], f"{_name(path)}: names missing files"
