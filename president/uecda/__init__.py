"""UECda, the computer Daifugo competition's protocol: our server (`server.py`) and client (`client.py`)
over the tables of `wire.py`, playing the engine's `uecda` preset (docs/uecda.md)."""
