"""Folding a battle's history out of the store, and what is built on it: the state at any version, audit,
verify, export, drift, replay jobs and the `siege` command line."""
