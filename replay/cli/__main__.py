"""`python -m replay.cli`: the `siege` command without its console script (a checkout not installed)."""

from replay.cli import main

main()
