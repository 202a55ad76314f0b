"""`python -m service.cli`: the `siege` command without its console script (a checkout not installed)."""

from service.cli import main

main()
