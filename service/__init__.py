"""The HTTP API process: a Flask app whose wings append commands, guard access, stream and show outcomes."""
