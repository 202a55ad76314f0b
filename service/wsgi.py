"""The WSGI entry point (`gunicorn service.wsgi:app`): the only module that reads the environment."""

from service.app import create_app
from service.config import ServiceConfig

app = create_app(ServiceConfig.from_env())
