"""Pin the Dockerfile's base image by digest: `python tools/pin_base_image.py` asks the registry
(through `docker buildx imagetools inspect`, which needs no running engine, only the network) for
the digest of the multi-platform index behind the tag, and rewrites the Dockerfile's
`ARG PYTHON_IMAGE=python:<tag>` as `python:<tag>@sha256:<digest>`. Run it where the registry can
be reached, review the diff, rebuild, commit (docs/OPERATIONS.md, "Upgrading")."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

DOCKERFILE = Path(__file__).resolve().parents[1] / "Dockerfile"
LINE = re.compile(r"^ARG PYTHON_IMAGE=(?P<tag>[^@\s]+)(@sha256:[0-9a-f]{64})?$", re.M)


def digest(tag: str) -> str:
    done = subprocess.run(["docker", "buildx", "imagetools", "inspect", tag, "--format", "{{json .Manifest.Digest}}"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"cannot ask the registry for {tag}: {done.stderr.strip() or done.stdout.strip()}")
    value = done.stdout.strip().strip('"')
    if not re.fullmatch(r"sha256:[0-9a-f]{64}", value):
        raise SystemExit(f"unexpected answer for {tag}: {value!r}")
    return value


def main() -> int:
    text = DOCKERFILE.read_text()
    found = LINE.search(text)
    if found is None:
        raise SystemExit("no `ARG PYTHON_IMAGE=` line in the Dockerfile")
    tag = found.group("tag")
    pinned = f"ARG PYTHON_IMAGE={tag}@{digest(tag)}"
    DOCKERFILE.write_text(text[:found.start()] + pinned + text[found.end():])
    print(pinned)
    return 0


if __name__ == "__main__":
    sys.exit(main())
