# Boardroom in a container: the bot alone, its database on the /data volume.
#   docker build --build-arg REVISION="$(git rev-parse HEAD)" -t boardroom .
#   docker run -d --name boardroom --init --stop-timeout 30 --env-file .env -v boardroom-data:/data boardroom
# or with compose (SQLite or PostgreSQL): see compose.yaml and the README.
#
# The base image: Python 3.12, because every dependency has a CPython 3.12 wheel, the runtime's
# (requirements-runtime.lock) and the tests' (requirements.lock), checked with `pip download
# --only-binary=:all: --python-version 3.12`; 3.13 has every runtime wheel but not the tests'
# PostgreSQL (pgserver 0.1.4 ships none), so the image would run a Python the tests cannot.
# 3.11 ends in October 2027. Debian trixie, named explicitly so that a new Debian release never
# slips in under the same tag. Pinned by digest where the registry can be reached
# (docs/OPERATIONS.md, "Upgrading"): `python tools/pin_base_image.py` rewrites PYTHON_IMAGE as
# python:3.12-slim-trixie@sha256:<digest> from `docker buildx imagetools inspect`.
ARG PYTHON_IMAGE=python:3.12-slim-trixie
FROM ${PYTHON_IMAGE}
ARG PYTHON_IMAGE

# What this image is (OCI annotations); REVISION is the source commit it was built from.
ARG REVISION=unknown
LABEL org.opencontainers.image.title="Boardroom" \
      org.opencontainers.image.description="A Discord bot that hosts four money-and-business board games." \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="NOASSERTION" \
      org.opencontainers.image.base.name="${PYTHON_IMAGE}"

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Only what the bot needs to run (no pytest, no SimCord), every package and every transitive one
# at the version and hash of the lock file: its own layer, rebuilt only when the lock changes.
# Every package is a binary wheel: no compiler in the image.
COPY requirements-runtime.lock ./
RUN pip install --no-cache-dir --require-hashes --only-binary :all: -r requirements-runtime.lock

# The code (tests, docs and tools are left out by .dockerignore). The fonts are bundled in
# render/fonts: the bot needs nothing from the internet but Discord. Compiled once here (the
# user below cannot write /app): each start then imports the bytecode instead of the sources.
COPY . .
RUN echo "${REVISION}" > REVISION \
    && python -m compileall -q -j 0 /app

# A user without a login shell or rights over the code; it owns only the data volume.
RUN groupadd --system --gid 10001 boardroom \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin boardroom \
    && mkdir -p /data \
    && chown 10001:10001 /data \
    && chmod 700 /data
USER 10001:10001

# The SQLite database (and its write-ahead log) on the volume, created 0600. With PostgreSQL,
# BOARDROOM_DB is a postgresql:// URL instead and the volume stays empty.
ENV BOARDROOM_DB=/data/boardroom.db \
    BOARDROOM_METRICS_PORT=9108
VOLUME ["/data"]

# The health and metrics endpoint listens on 127.0.0.1:9108 inside the container (set
# BOARDROOM_METRICS_HOST=0.0.0.0 to let Prometheus scrape it from another container).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "service.healthcheck"]

# SIGTERM (docker stop) is the graceful stop: up to 20 s, so give `docker stop` -t 30 (or
# `docker run --stop-timeout 30`; compose's stop_grace_period). Run it with an init (`--init`,
# compose's `init: true`): the bot also obeys a signal during its own start-up (bot.py), but an
# init reaps the picture workers' processes and forwards every signal.
STOPSIGNAL SIGTERM
CMD ["python", "bot.py"]
