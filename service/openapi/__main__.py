"""`python -m service.openapi > openapi.yaml`: write the generated document."""

import sys

from service.openapi.document import render

sys.stdout.write(render())
