"""The marshmallow wire contract: bodies in, views and problems out; shape only, never game legality."""
