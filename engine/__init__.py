"""Extrados engine: Non-Smooth Contact Dynamics of rigid masonry blocks.

Public API (DESIGN sec. 6): ``Model``, ``analyze``, ``ModelError``, ``generators``.
"""
from engine import generators
from engine.analysis import analyze
from engine.errors import ModelError
from engine.model import Model
from engine.result import Result

__all__ = ["Model", "analyze", "ModelError", "Result", "generators"]
__version__ = "0.1.0"
