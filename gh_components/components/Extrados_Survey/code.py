"""Survey: The stones of a survey (points on each stone's visible face, labelled by stone) as blocks, each face
extruded into the wall by its type's depth (seed 002).

    Args:
        points: The surveyed points of the stones' faces, m.
        stone_ids: The stone each point belongs to: one id per point.
        stones: The stone table as CSV or JSON text: stone, type (header, stretcher, ...), the other entity fields,
            depth (m, optional).
        depths: The depth of each stone type, one TYPE DEPTH item each (e.g. stretcher 0.25), m.
        viewpoint: The survey station the faces were seen from; the wall lies beyond the faces.
        outline: hull (default): each face's convex hull; quad: the blocky simplification, hexahedra.
        service: The Service component's connection; the local service (http://127.0.0.1:8765) when unconnected.
    Returns:
        blocks: The blocks, for Supports and Analyze (their entities from the stone table).
        meshes: The blocks as meshes, to see them.
        ids: The blocks' ids: the stones'.
        report: Per stone: the face plane's RMS residual (mm) and the depth it was extruded by (m).
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.model_components import survey
from extrados_gh.runtime import run_component


class ExtradosSurveyComponent(component):
    def RunScript(self, points, stone_ids, stones, depths, viewpoint, outline, service):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, survey, points, stone_ids, stones, depths, viewpoint, outline, service)
