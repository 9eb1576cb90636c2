"""One module per ``reasonjudge`` subcommand; see ``judge.cli``."""
