"""The program's version: shown by ``--version`` and written in every file the program saves.

A module of its own, importing nothing, so that the package's modules name their version
without importing the package itself (which names them all).
"""

__version__ = "0.2.0"
