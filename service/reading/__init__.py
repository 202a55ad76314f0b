"""What readers are shown: the wire views of battles and log entries, hidden orders and their reveals."""
