# Boardroom in a container: the bot alone, its database on the /data volume.
#   docker build -t boardroom .
#   docker run -d --name boardroom --env-file .env -v boardroom-data:/data boardroom
# or with compose (SQLite or PostgreSQL): see compose.yaml and the README.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Only what the bot needs to run (no pytest, no SimCord): its own layer, rebuilt only when the
# runtime requirements change. Every package is a binary wheel: no compiler in the image.
COPY requirements-runtime.txt ./
RUN pip install --no-cache-dir -r requirements-runtime.txt

# The code (tests, docs and tools are left out by .dockerignore). The fonts are bundled in
# render/fonts: the bot needs nothing from the internet but Discord.
COPY . .

# A user without a login shell or rights over the code; it owns only the data volume.
RUN groupadd --system --gid 10001 boardroom \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin boardroom \
    && mkdir -p /data \
    && chown 10001:10001 /data
USER 10001:10001

# The SQLite database (and its write-ahead log) on the volume. With PostgreSQL, BOARDROOM_DB
# is a postgresql:// URL instead and the volume stays empty.
ENV BOARDROOM_DB=/data/boardroom.db \
    BOARDROOM_METRICS_PORT=9108
VOLUME ["/data"]

# The health and metrics endpoint listens on 127.0.0.1:9108 inside the container (set
# BOARDROOM_METRICS_HOST=0.0.0.0 to let Prometheus scrape it from another container).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "service.healthcheck"]

# SIGTERM (docker stop) is the graceful stop: up to 20 s, so give `docker stop` -t 30.
STOPSIGNAL SIGTERM
CMD ["python", "bot.py"]
