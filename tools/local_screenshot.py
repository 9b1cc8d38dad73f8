"""Take the README's picture of the local page (docs/images/local.png): `python bot.py --local`
on a fresh database, a game of Filthy Rich with two AI seats started from the page and the
private panel opened (the picture shows the table), as a person does in headless Chromium.

    python tools/local_screenshot.py [--out docs/images/local.png]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.local.page import Page, Server, browser  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "local.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "boardroom-local.db")
        driver = browser(1280, 1500)
        try:
            page = Page(driver, server.url)
            page.command("/game new", "Filthy Rich")
            page.click("Add AI seat")
            page.click("Add AI seat")
            page.click("Start")
            page.quiet()
            page.click("My hand")
            page.quiet()
            # The table's picture, with the start of the panel below it.
            page.js("arguments[0].scrollIntoView({block: 'start'})", page.table())
            page.quiet(still=1.5)
            page.screenshot(args.out)
        finally:
            driver.quit()
            server.stop()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
