"""Analyses: static (seed 000 sec. 2.4); load factor and dynamics follow in their own modules."""
from engine.analysis.run import analyze

__all__ = ["analyze"]
