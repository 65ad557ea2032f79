"""frazil: a lazy DataFrame query engine in C++ with a Polars-compatible API."""
from frazil import _frazil

__version__ = _frazil.version()
