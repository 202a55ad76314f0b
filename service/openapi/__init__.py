"""The OpenAPI document generated from the code, and the interactive docs that serve it."""
