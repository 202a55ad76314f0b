"""Live outcomes: the process's stream reader (hub), what each subscription gets, Server-Sent Events."""
