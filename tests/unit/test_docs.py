"""The documents hold together: every relative link and anchor in every Markdown file resolves
(by GitHub's anchor rules), every picture a document shows exists and is one the pictures
script makes (``tests.docs_pictures.PICTURES``, checked both ways), every ``skattisch …``
command a document shows answers ``--help``, the command-line reference names every subcommand,
action and option ``--help`` lists, the configuration reference every key of the example
config, and the README fits on a few screens."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import unicodedata
from functools import cache
from pathlib import Path

import pytest

from tests.docs_pictures import PICTURES
from ui.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {".git", ".venv", "build", "node_modules", "artifacts", ".pytest_cache", ".mypy_cache"}
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
LINK = re.compile(r"(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_IMAGE = re.compile(r"<img\s[^>]*src=\"([^\"]+)\"", re.IGNORECASE)
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
COMMAND = re.compile(r"(?<![-\w/.])(?<!-u )skattisch ([a-z][a-z-]*)(?![\w/])")


def markdown_files() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.md") if not SKIPPED & set(p.relative_to(ROOT).parts))


def prose(text: str) -> str:
    """The text without code blocks and code spans: links and headings there are not links."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def code(text: str) -> str:
    """Only the code: fenced blocks and code spans, where commands are shown."""
    return "\n".join([m.group(0) for m in FENCE.finditer(text)] +
                     [m.group(0) for m in INLINE_CODE.finditer(FENCE.sub("", text))])


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the rendered text in lower case, punctuation dropped (but
    hyphens and underscores), each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"<[^>]+>", "", text).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    found = set()
    for match in HEADING.finditer(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def links(path: Path) -> list[tuple[bool, str]]:
    """(is an image, target) for every relative link in ``path``."""
    text = prose(path.read_text(encoding="utf-8"))
    found = [(bool(m.group(1)), m.group(2)) for m in LINK.finditer(text)]
    found += [(True, m.group(1)) for m in HTML_IMAGE.finditer(text)]
    return [(image, target) for image, target in found if not re.match(r"[a-z][a-z0-9+.-]*:", target)]


def test_the_markdown_files_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in markdown_files()}
    assert {"README.md", "docs/am-tisch.md", "docs/reference/cli.md"} <= names


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_and_anchor_resolves(path: Path) -> None:
    broken = []
    for _image, target in links(path):
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading #{anchor} in {linked.relative_to(ROOT)}")
    assert not broken, f"{path.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_slug_follows_github() -> None:
    assert slug("Bad input: one line, a documented exit code, never a traceback") == \
        "bad-input-one-line-a-documented-exit-code-never-a-traceback"
    assert slug("Tournée-Skat: `--profile tournee`") == "tournée-skat---profile-tournee"
    assert slug("8. Stromausfall und schreibgeschütztes System") == "8-stromausfall-und-schreibgeschütztes-system"
    assert slug("The club laptop → the league server (`skattisch league`)") == \
        "the-club-laptop--the-league-server-skattisch-league"


def shown_pictures() -> dict[Path, list[Path]]:
    """Every picture a document shows -> the documents showing it."""
    shown: dict[Path, list[Path]] = {}
    for path in markdown_files():
        for image, target in links(path):
            if image:
                shown.setdefault((path.parent / target.partition("#")[0]).resolve(), []).append(path)
    return shown


def test_every_picture_a_document_shows_exists_and_is_made_by_a_script() -> None:
    scripts = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))
    problems = []
    for picture, documents in shown_pictures().items():
        where = ", ".join(sorted(d.relative_to(ROOT).as_posix() for d in documents))
        if not picture.exists():
            problems.append(f"{picture.relative_to(ROOT)} (shown in {where}) does not exist")
        elif picture.parent == ROOT / "docs" / "img" and picture.name not in PICTURES:
            problems.append(f"{picture.name} (shown in {where}) is not one tests.docs_pictures makes")
        elif picture.stem not in scripts:
            problems.append(f"{picture.relative_to(ROOT)} (shown in {where}) is named by no script under tests/")
    assert not problems, "; ".join(problems)


def test_every_picture_the_script_makes_is_kept_and_shown() -> None:
    shown = shown_pictures()
    for name in PICTURES:
        picture = ROOT / "docs" / "img" / name
        assert picture.exists(), f"docs/img/{name}: run python -m tests.docs_pictures"
        assert picture.resolve() in shown, f"docs/img/{name} is made but no document shows it"
    kept = {p.name for p in (ROOT / "docs" / "img").glob("*.png")}
    assert kept <= set(PICTURES), f"pictures no script makes: {sorted(kept - set(PICTURES))}"


def test_the_pictures_are_small() -> None:
    total = sum(p.stat().st_size for p in (ROOT / "docs" / "img").rglob("*.png"))
    assert total < 4_000_000, f"docs/img/ holds {total // 1024} kB of pictures"


@cache
def parser() -> argparse.ArgumentParser:
    return build_parser()


def subparsers(of: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in of._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def answers_help(*words: str) -> bool:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            parser().parse_args([*words, "--help"])
        except SystemExit as done:
            return done.code == 0 and "usage: skattisch" in out.getvalue()
    return False


def test_every_skattisch_command_a_document_shows_exists() -> None:
    commands = subparsers(parser())
    unknown = []
    for path in markdown_files():
        for word in COMMAND.findall(code(path.read_text(encoding="utf-8"))):
            if word not in commands or not answers_help(word):
                unknown.append(f"{path.relative_to(ROOT)}: skattisch {word}")
    assert not unknown, "commands that do not answer --help: " + ", ".join(sorted(set(unknown)))


def named(of: argparse.ArgumentParser) -> set[str]:
    """Every long option, every choice of a positional argument, and every sub-subcommand."""
    words: set[str] = set()
    for action in of._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                words |= {name} | named(sub)
        elif action.option_strings:
            words |= {o for o in action.option_strings if o.startswith("--") and o != "--help"}
        elif action.choices:
            words |= {str(c) for c in action.choices}
    return words


def test_the_command_line_reference_names_every_subcommand_action_and_option() -> None:
    reference = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    words = set(re.findall(r"--?[\w-]+|[\w-]+", code(reference)))
    missing = []
    for name, sub in subparsers(parser()).items():
        if f"skattisch {name}" not in reference:
            missing.append(f"skattisch {name}")
        missing += [f"skattisch {name}: {word}" for word in sorted(named(sub)) if word not in words]
    assert not missing, "not in docs/reference/cli.md: " + ", ".join(missing)


def test_the_readme_fits_on_a_few_screens() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 300, f"README.md has {lines} lines"


def test_the_configuration_reference_names_every_key_of_the_example_config() -> None:
    example = (ROOT / "deploy" / "skattisch.example.toml").read_text(encoding="utf-8")
    reference = code((ROOT / "docs" / "reference" / "configuration.md").read_text(encoding="utf-8"))
    section, missing = "", []
    for line in example.splitlines():
        header = re.match(r"^\[(\w+)\]", line)
        key = re.match(r"^#?\s?(\w+) = ", line)
        if header:
            section = header.group(1)
            missing += [] if f"`[{section}]`" in reference else [f"[{section}]"]
        elif key and section and key.group(1) != "default" and f"`{key.group(1)}`" not in reference:
            missing.append(f"[{section}] {key.group(1)}")
    assert section and not missing, f"not in docs/reference/configuration.md: {missing}"
