"""Checks the house's size rules: no source file over 500 lines, no function over 80. Prints
each one over and exits 1, so .ci/run fails on them. The tests are held to the file rule only: a
whole game played through the bot reads best as one long test function, but a test file over 500
lines is several jobs (split it, with its helpers in tests/support/).

    python tools/sizes.py [PATHS...]     default: the bot, its tools, its benchmarks and its tests
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_FILE = 500
MAX_FUNCTION = 80
SKIP = {".git", ".venv", "venv", "artifacts", "node_modules", "__pycache__"}
#: What the rule covers by default.
SOURCE = ("app.py", "bot.py", "config.py", "bench", "cogs", "engine", "local", "locales", "play", "render", "service",
          "store", "tools")
#: Held to the file rule only.
TESTS = ("tests",)


def sources(paths: list[Path]) -> list[Path]:
    out = []
    for path in paths:
        if path.is_file() and path.suffix == ".py":
            out.append(path)
        elif path.is_dir():
            out += [p for p in sorted(path.rglob("*.py")) if not SKIP & set(p.relative_to(path).parts)]
    return out


def too_long(path: Path, *, functions: bool = True) -> list[str]:
    text = path.read_text(encoding="utf-8")
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    found = []
    lines = text.count("\n") + (not text.endswith("\n") and bool(text))
    if lines > MAX_FILE:
        found.append(f"{where}: {lines} lines (at most {MAX_FILE})")
    for node in ast.walk(ast.parse(text, filename=str(path))) if functions else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION:
                found.append(f"{where}:{node.lineno}: function {node.name} is {length} lines (at most {MAX_FUNCTION})")
    return found


def main(argv: list[str]) -> int:
    if argv:
        found = [line for path in sources([Path(a).resolve() for a in argv]) for line in too_long(path)]
    else:
        found = [line for path in sources([ROOT / p for p in SOURCE]) for line in too_long(path)]
        found += [line for path in sources([ROOT / p for p in TESTS]) for line in too_long(path, functions=False)]
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
