"""`make bench`: bounded benchmarks of ingest, Prefer-wait latency, folding, time travel and replay memory."""
