"""One module per ``skattisch`` subcommand."""
