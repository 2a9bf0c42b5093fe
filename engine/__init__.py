"""The Extrados engine: Non-Smooth Contact Dynamics of rigid masonry blocks, headless.

Installed as ``extrados.engine``; its public API is re-exported by ``extrados`` (``Model``,
``analyze``, ``ModelError``, ``Result``, ``generators``). It never imports ``extrados.server``.
"""
