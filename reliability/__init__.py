"""Attacks on a running server, kept as scripts a maintainer can rerun.

Each module is a script (``python -m reliability.NAME --help``) and a function the test
suite calls with small sizes. They start their own Redis and server processes on free
ports, play over real sockets and print their counts as a table (docs/reliability.md).
"""
