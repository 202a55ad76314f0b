"""JSON log lines, one object a line, shared by the API (one line per request) and the workers (per job).

Here, not in service/ or workers/, because neither may import the other and a log line is no
business of the event store's; this package imports only the standard library and prometheus-client."""

from __future__ import annotations

import json
import logging
import sys
import time
from contextvars import ContextVar

# set per request by service/http/logs
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
EXTRAS = ("http", "job")  # structured parts a record may carry (`extra={"job": {...}}`), copied as they are
# built once: json.dumps with options builds a new encoder for every line
_ENCODE = json.JSONEncoder(separators=(",", ":"), default=str).encode


class JsonFormatter(logging.Formatter):
    """`{"ts", "level", "logger", "message", "request_id"?, "http"?, "job"?, "exc"?}`, one line per record."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "ts": self._timestamp(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        current = request_id.get()
        if current is not None:
            line["request_id"] = current
        for extra in EXTRAS:
            value = getattr(record, extra, None)
            if value is not None:
                line[extra] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return _ENCODE(line)

    _second: tuple[int, str] = (0, "")

    def _timestamp(self, record: logging.LogRecord) -> str:
        """UTC ISO 8601 to the millisecond; the part up to the second is built once a second."""
        second, prefix = self._second
        if int(record.created) != second:
            second = int(record.created)
            prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
            self._second = (second, prefix)  # one tuple, swapped whole: threads never see half of it
        return f"{prefix}.{int(record.msecs):03d}Z"


def log_json(level: int = logging.INFO) -> None:
    """A process's logging as JSON lines on stderr (what gunicorn_conf's logconfig_dict does for the API)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
