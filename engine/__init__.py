"""The Extrados engine: Non-Smooth Contact Dynamics of rigid masonry blocks, headless.

Installed as ``extrados.engine``; its public API is re-exported by ``extrados`` (``Model``,
``analyze``, ``ModelError``, ``Result``, ``generators``). It never imports ``extrados.server``.
Importing it chooses where numba caches the compiled kernels (engine.kernel_cache), before any
kernel is defined.
"""
from extrados.engine.kernel_cache import use_kernel_cache

use_kernel_cache()
