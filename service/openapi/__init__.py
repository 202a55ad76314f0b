"""The API describing itself: an OpenAPI 3.1 document built from the code, served as JSON, YAML and /docs."""
