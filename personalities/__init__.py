"""The .rul personality language: reader, condition engine, rule players, traces."""
