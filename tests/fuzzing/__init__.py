"""The fuzz harness (inputs, mutators and oracles): development code, kept out of the installed packages.
`inputs` fuzzes the readers of `.rul` and RECYCLE files, `commands` both command lines and the files they
read back. Used by the fuzz tests and by `bench/fuzz.py`."""
