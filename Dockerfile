# One image for the api, the RQ workers, the reconciler and the optional dashboard (their commands are in
# docker-compose.yml). Slim and pinned: the base image by its full version, every Python dependency by
# constraints.txt (the versions the test suite ran on); it runs as an unprivileged user.
# The in-browser verifier's runtime (GET /verify): the pyodide npm package at the version
# service/verify_files/pyodide.json pins; the image below checks each file against the digests recorded there.
FROM node:20.20.2-bookworm-slim AS pyodide
WORKDIR /npm
COPY service/verify_files/pyodide.json ./
RUN npm install --silent --no-audit --no-fund --save-exact "pyodide@$(node -p 'require("./pyodide.json").version')"

FROM python:3.11.13-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# the slim image has no compiler for the mypyc build of rules/ (workers/rules_build.py): its workers run the
# pure Python, said here rather than warned at every start
ENV SIEGE_COMPILED_RULES=0
WORKDIR /app

COPY pyproject.toml constraints.txt ./
COPY rules ./rules
COPY eventstore ./eventstore
COPY replay ./replay
COPY schemas ./schemas
COPY service ./service
COPY workers ./workers
COPY launcher ./launcher
COPY telemetry ./telemetry
COPY summaries ./summaries
COPY webhooks ./webhooks
# the viewer serves clients/js/siege.js through a link in service/viewer_files: the build copies the file
COPY clients ./clients
COPY --from=pyodide /npm /tmp/npm
# then the zip of the Python /verify runs, built from these very sources, beside the checked Pyodide files and
# the msgspec wheel (WebAssembly) pip downloads for it, checked against the same pin
RUN pip install -c constraints.txt ".[dashboard]" \
    && rm -rf build ./*.egg-info \
    && python -m service.pyodide_runtime /tmp/npm /app/build/verifier \
    && python -m replay.in_browser.bundle /app/build/verifier \
    && rm -rf /tmp/npm \
    && useradd --system --no-create-home --uid 10001 siege

USER siege
EXPOSE 8000
# the API's readiness (the event store and the queue answer); compose gives the other services their own
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=6 \
    CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/readyz', timeout=3)"]
STOPSIGNAL SIGTERM
CMD ["gunicorn", "-c", "python:service.gunicorn_conf", "-b", "0.0.0.0:8000", "service.wsgi:app"]
