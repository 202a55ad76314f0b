"""The front `make run` puts before gunicorn when the service is exposed (HOST not loopback): nginx with
deploy/front.conf.template, the same file the compose file's front renders, so slow and idle clients cost
nginx an event each and never a gunicorn thread."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "deploy" / "front.conf.template"
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
TEMP_DIRS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
WORKER_USER = "nobody"  # when started as root: nginx's workers drop to it, and own their temp files


def exposed(host: str) -> bool:
    return host not in LOOPBACK and not host.startswith("127.")


def wanted(setting: str, host: str) -> bool:
    """SIEGE_FRONT: `auto` (a front exactly when the bind is not loopback), `on` or `off`."""
    word = setting.strip().lower() or "auto"
    if word not in ("auto", "on", "off"):
        raise ValueError(f"SIEGE_FRONT must be auto, on or off, not {setting!r}")
    return word == "on" or (word == "auto" and exposed(host))


def binary() -> str:
    found = shutil.which(
        "nginx", path=f"{os.environ.get('PATH', '')}{os.pathsep}/usr/sbin"
    )  # root's sbin too
    if found is None:
        raise ValueError(
            "the service is exposed (HOST is not loopback) and its front, nginx, is not installed: "
            "apt-get install nginx-light (make install does, as root), or SIEGE_FRONT=off to expose "
            "gunicorn itself, whose threads slow clients can then take"
        )
    return found


def configure(folder: Path, listen: str, upstream: str) -> Path:
    """nginx.conf in `folder` (made afresh), around the rendered template; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    server = Template(TEMPLATE.read_text()).safe_substitute(
        SIEGE_FRONT_LISTEN=listen, SIEGE_FRONT_UPSTREAM=upstream
    )
    (folder / "front.conf").write_text(server)
    temps = "\n".join(f"  {name}_temp_path {_temp(folder / name)};" for name in TEMP_DIRS)
    user = f"user {WORKER_USER} {_group_of(WORKER_USER)};\n" if os.geteuid() == 0 else ""
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}daemon off;\nworker_processes 1;\nworker_rlimit_nofile 16384;\n"
        f"pid {folder / 'nginx.pid'};\nerror_log stderr warn;\n"
        f"events {{ worker_connections 4096; }}\n"
        f"http {{\n  access_log off;\n{temps}\n  include {folder / 'front.conf'};\n}}\n"
    )
    return conf


def command(conf: Path) -> list[str]:
    return [binary(), "-c", str(conf), "-p", str(conf.parent), "-e", "stderr"]


def _group_of(user: str) -> str:
    return grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name  # Debian's `nobody` is in `nogroup`


def _temp(path: Path) -> Path:
    path.mkdir(exist_ok=True)
    if os.geteuid() == 0:  # the workers run as WORKER_USER and write request bodies here
        nobody = pwd.getpwnam(WORKER_USER)
        os.chown(path, nobody.pw_uid, nobody.pw_gid)
    return path
