"""Storage of battle logs and their derived projections in Redis Streams (and in memory, for tests)."""
