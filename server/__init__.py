"""Extrados HTTP service: a small Flask app in front of the engine (DESIGN sec. 1, 6).

``create_app(config)`` builds the app; ``python -m extrados.server`` or ``extrados serve`` runs it under
waitress. The service knows nothing of contact mechanics: it checks requests, runs the engine
(at once for static and load factor analyses, as jobs for dynamic and construction runs) and
answers JSON.
"""
from extrados.server.app import create_app
from extrados.server.config import Config

__all__ = ["create_app", "Config"]
