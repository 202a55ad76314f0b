"""The real processes: gunicorn, RQ workers, the reconciler and the launcher, killed and restarted."""
