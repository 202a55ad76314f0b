"""Worker jobs against a real store: coalesced projection, reconciliation, replay and verification."""
