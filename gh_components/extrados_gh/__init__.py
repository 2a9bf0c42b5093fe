"""Extrados inside Grasshopper: the logic behind the component folders in ``gh_components/components``.

Standard library only, in the syntax Python 2.7 and 3 share, so one source serves Rhino 8
(CPython 3 script components) and Rhino 7 (GhPython, IronPython 2.7):

- `client`: the HTTP client of the Extrados service,
- `conversions`: Rhino geometry <-> model and result documents,
- `items`: the values that travel along Grasshopper wires (blocks, materials, loads, results),
- `runtime`: what differs between a Grasshopper canvas and a plain Python process,
- `model_components`, `run_components`, `result_components`: one function per component,
- `stress`: principal stresses of a 3 x 3 tensor without numpy.

Each component's ``code.py`` is a few lines that hand its inputs to one of those functions
through `runtime.run_component`.
"""
__version__ = "0.1.0"
