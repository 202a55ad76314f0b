"""The command line that regenerates openapi.yaml: `python -m service.openapi > openapi.yaml`."""

import sys

from service.openapi.document import render

sys.stdout.write(render())
