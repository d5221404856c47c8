"""The `president` command's subcommands, one module per family."""
