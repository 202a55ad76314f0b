"""The HTTP API: app factory, endpoints, problem responses; it appends commands and reads projections."""
