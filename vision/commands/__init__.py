"""The `spinner` subcommands of the camera side: `read` (read, eval, train, export) and `watch`."""
