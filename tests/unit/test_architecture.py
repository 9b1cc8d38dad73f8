"""The floors of the house hold (pyproject.toml's import contracts, docs/ARCHITECTURE.md), and
the check is not vacuous: an import planted against them, or a circle, is caught."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("cogs", "engine", "local", "locales", "play", "render", "service", "store")
MODULES = ("app.py", "bot.py", "config.py", "pyproject.toml")


def lint_imports(where: Path) -> subprocess.CompletedProcess:
    """import-linter's own command (installed beside this Python), run in `where`."""
    command = Path(sys.executable).parent / "lint-imports"
    return subprocess.run([str(command), "--config", str(where / "pyproject.toml")], cwd=where,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """The house's sources in a folder of their own, to plant imports in."""
    where = tmp_path_factory.mktemp("house")
    for name in PACKAGES:
        shutil.copytree(ROOT / name, where / name, ignore=shutil.ignore_patterns("__pycache__", "*.png", "*.ttf",
                                                                                 "*.otf", "*.md"))
    for name in MODULES:
        shutil.copy(ROOT / name, where / name)
    return where


def test_the_import_contracts_hold():
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def plant(copy: Path, module: str, line: str) -> str:
    path = copy / module
    original = path.read_text(encoding="utf-8")
    path.write_text(original + "\n" + line + "\n", encoding="utf-8")
    return original


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("play/plan.py", "from cogs.kit import codec  # noqa", "The runtime knows no Discord"),
    ("play/games.py", "import discord  # noqa", "The runtime knows no Discord"),
    ("store/rows.py", "from play import settings  # noqa", "The floors point one way"),
    ("engine/core.py", "from store import rows  # noqa", "The rules are pure"),
    ("cogs/kit/codec.py", "from cogs.table import keeper  # noqa", "wings point one way"),
    ("play/games.py", "from play import house  # noqa", "No import circles"),
    ("cogs/table/pending.py", "import app  # noqa", "Nothing below app.py imports it"),
])
def test_an_import_against_the_floors_is_caught(copy, module, line, contract):
    original = plant(copy, module, line)
    try:
        run = lint_imports(copy)
    finally:
        (copy / module).write_text(original, encoding="utf-8")
    assert run.returncode != 0, run.stdout
    broken = run.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken, run.stdout


def test_no_source_file_over_500_lines_nor_function_over_80():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "sizes.py")], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout


def test_the_size_check_holds_test_files_to_500_lines_but_not_their_functions(tmp_path):
    """A test file over 500 lines fails the check; a long test function (a whole game told as
    one story) does not."""
    (tmp_path / "tools").mkdir()
    shutil.copy(ROOT / "tools" / "sizes.py", tmp_path / "tools" / "sizes.py")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_story.py").write_text("def test_story():\n" + "    x = 1\n" * 100, encoding="utf-8")
    (tmp_path / "tests" / "test_long.py").write_text("x = 1\n" * 501, encoding="utf-8")
    run = subprocess.run([sys.executable, str(tmp_path / "tools" / "sizes.py")], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1
    assert "test_long.py: 501 lines" in run.stdout and "test_story" not in run.stdout
    (tmp_path / "tests" / "test_long.py").unlink()
    run = subprocess.run([sys.executable, str(tmp_path / "tools" / "sizes.py")], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout
