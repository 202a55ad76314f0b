"""`make run`: the embedded store, RQ workers, the reconciler and gunicorn as one foreground process."""
