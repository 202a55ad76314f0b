# One image for the api, the RQ workers and the reconciler (see docker-compose.yml for their commands).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY pyproject.toml ./
COPY rules ./rules
COPY eventstore ./eventstore
COPY schemas ./schemas
COPY service ./service
COPY workers ./workers
COPY launcher ./launcher
COPY telemetry ./telemetry
RUN pip install . && useradd --system --no-create-home siege

USER siege
EXPOSE 8000
CMD ["gunicorn", "-c", "python:service.gunicorn_conf", "-b", "0.0.0.0:8000", "service.wsgi:app"]
