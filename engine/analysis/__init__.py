"""Analyses: static (seed 000 sec. 2.4), collapse load factor (NSCD bisection and limit analysis), dynamic runs."""
from extrados.engine.analysis.run import analyze

__all__ = ["analyze"]
