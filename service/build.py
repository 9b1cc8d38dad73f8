"""What is running: the version (pyproject.toml's) and the source revision, for the start-up line
and the `boardroom_build_info` metric. The image writes the revision it was built from into a
file named REVISION (Dockerfile); a git checkout has it in .git."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@cache
def version() -> str:
    try:
        with (ROOT / "pyproject.toml").open("rb") as fh:
            return str(tomllib.load(fh)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


@cache
def revision() -> str:
    """The commit (12 hex digits), or "unknown"."""
    try:
        written = (ROOT / "REVISION").read_text().strip()
        if written:
            return written[:12]
    except OSError:
        pass
    git = ROOT / ".git"
    try:
        if git.is_file():  # a worktree: "gitdir: <path>"
            git = Path(git.read_text().split(":", 1)[1].strip())
        head = (git / "HEAD").read_text().strip()
        if head.startswith("ref: "):
            ref = head[5:]
            loose = git / ref
            if not loose.exists():  # a worktree keeps branches in the common folder
                common = git / "commondir"
                base = (git / common.read_text().strip()).resolve() if common.exists() else git
                loose = base / ref
                if not loose.exists():
                    packed = (base / "packed-refs").read_text()
                    return next((line.split()[0][:12] for line in packed.splitlines() if line.endswith(ref)),
                                "unknown")
            head = loose.read_text().strip()
        return head[:12]
    except (OSError, IndexError):
        return "unknown"
