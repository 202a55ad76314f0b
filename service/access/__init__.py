"""Who may do what, how often: the service key and battle tokens, stream tickets, both rate limits."""
