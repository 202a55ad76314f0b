"""Logs and metrics that the API and the workers share: JSON lines, Prometheus; no package of ours."""
