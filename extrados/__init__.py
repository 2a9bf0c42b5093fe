"""Extrados: Non-Smooth Contact Dynamics analysis of masonry built of rigid blocks.

Public API (DESIGN sec. 6): ``Model``, ``analyze``, ``ModelError``, ``Result``, ``generators``.
Inside: ``extrados.engine`` (the headless engine), ``extrados.server`` (the HTTP service and its
viewer) and ``extrados.cli`` (the ``extrados`` command, above both). The repository keeps the
folders ``engine/`` and ``server/`` at its top; pyproject.toml maps them into this namespace.
"""
from extrados.engine import generators
from extrados.engine.analysis import analyze
from extrados.engine.errors import ModelError
from extrados.engine.model import Model
from extrados.engine.result import Result

__all__ = ["Model", "analyze", "ModelError", "Result", "generators"]
__version__ = "0.1.0"
