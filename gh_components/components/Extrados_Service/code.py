"""Service: Where the Extrados service listens; checks that it answers. Start it with `extrados serve`.

    Args:
        url: The service's address (default http://127.0.0.1:8765).
        token: The service's access token, when it was started with one (default: $EXTRADOS_TOKEN).
        timeout: Seconds to wait for each answer (default 120: the first analysis after installing
            compiles the engine).
    Returns:
        service: The connection, for Analyze, Simulate and the generators.
        version: The service's version.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.run_components import service
from extrados_gh.runtime import run_component


class ExtradosServiceComponent(component):
    def RunScript(self, url, token, timeout):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, service, url, token, timeout)
