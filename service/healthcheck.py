"""`python -m service.healthcheck`: exit 0 if the running bot's /healthz says it is healthy, 1 if
not (or if nothing answers). The container's HEALTHCHECK; also handy from a shell or a
systemd watchdog script. Reads BOARDROOM_METRICS_PORT (default 9108) and asks 127.0.0.1, or
BOARDROOM_METRICS_HOST when it names an address other than "all interfaces"."""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request


def main(env: dict[str, str] | None = None) -> int:
    env = dict(os.environ) if env is None else env
    port = (env.get("BOARDROOM_METRICS_PORT") or "9108").strip()
    host = (env.get("BOARDROOM_METRICS_HOST") or "").strip()
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    url = f"http://{host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=8) as response:
            body = response.read().decode("utf-8", "replace")
            ok = response.status == 200
    except urllib.error.HTTPError as error:  # 503: the endpoint says what is wrong
        body, ok = error.read().decode("utf-8", "replace"), False
    except OSError as error:
        body, ok = f"no answer from {url} ({error})", False
    print(body.strip())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
