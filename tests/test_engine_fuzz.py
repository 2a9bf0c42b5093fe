"""Fuzzing the engine's doors with the magnitude and nesting classes of issue 16 (items 4 and 6).

Hypothesis puts one value of a hostile class (integers past the float range, floats at the
extremes of the double, tiny steps, lists nested hundreds deep, wrong types) into one field of a
small model or request. Through the Python API `analyze` raises ModelError or returns a result
whose document is strict JSON; through the CLI the exit status is 0 or 2, never a traceback.
"""
import copy
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from blocks import box_block, document, ground
from extrados import analyze
from extrados.cli import main
from extrados.engine.errors import ModelError

CUBE = document([ground(), box_block("cube", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0))],
                loads=[{"kind": "point", "block": "cube", "point": [0.5, 0.5, 1.0], "force": [10.0, 0.0, 0.0],
                        "live": True}])
#: Fields of the model (paths into CUBE) and of the request that a value replaces.
MODEL_FIELDS = [("materials", "stone", "density"), ("joints", "dry", "friction"), ("gravity", 2),
                ("blocks", 1, "vertices", 6, 2), ("blocks", 1, "faces", 0, 0), ("loads", 0, "force", 0),
                ("settings",), ("blocks",), ("blocks", 1, "faces")]
SETTINGS_FIELDS = ["compliance", "envelope", "max_iterations", "tolerance"]
REQUEST_FIELDS = ["duration", "time_step", "output_interval", "max_steps", "collapse_displacement"]
ANALYSES = [{"type": "static"}, {"type": "load_factor", "max_factor": 2.0},
            {"type": "dynamic", "duration": 0.003, "time_step": 1e-3}]


def nested(depth):
    value = [1.0]
    for _ in range(depth):
        value = [value]
    return value


HOSTILE = st.one_of(
    # up to 4000 digits: json.dumps writes them (test_magnitudes reads 5000-digit text)
    st.integers(min_value=300, max_value=4000).map(lambda digits: 10 ** digits),
    st.sampled_from([1e308, -1e308, 1e300, 1e200, 1e16, 1e-300, 5e-324, 0.0, -0.0, -1.0, 1e15, 10 ** 30]),
    st.integers(min_value=30, max_value=1200).map(nested),
    st.sampled_from(["1", None, True, [], {}]),
)


@st.composite
def hostile_inputs(draw):
    """(model document, analysis request) with one hostile value in one field."""
    model = copy.deepcopy(CUBE)
    analysis = copy.deepcopy(draw(st.sampled_from(ANALYSES)))
    value = draw(HOSTILE)
    where = draw(st.sampled_from(["model", "settings", "request"]))
    if where == "model":
        path = draw(st.sampled_from(MODEL_FIELDS))
        target = model
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    elif where == "settings":
        model["settings"] = {draw(st.sampled_from(SETTINGS_FIELDS)): value}
    else:
        analysis = {"type": "dynamic", "duration": 0.003, draw(st.sampled_from(REQUEST_FIELDS)): value}
    return model, analysis


FUZZ = settings(max_examples=60, deadline=None, database=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@FUZZ
@given(hostile_inputs())
def test_analyze_refuses_or_answers_strict_json(case):
    model, analysis = case
    try:
        result = analyze(model, analysis)
    except ModelError:
        return
    json.dumps(result.to_dict(), allow_nan=False)


@settings(FUZZ, max_examples=25)
@given(case=hostile_inputs())
def test_cli_exits_0_or_2(case, tmp_path_factory, capsys):
    model, analysis = case
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "model.json").write_text(json.dumps(model))
    args = ["analyze", str(folder / "model.json"), "--analysis", analysis["type"], "--quiet",
            "--out", str(folder / "result.json")]
    for name in ("duration", "time_step", "max_steps"):
        if name in analysis and isinstance(analysis[name], (int, float)) and not isinstance(analysis[name], bool):
            args += [f"--{name.replace('_', '-')}", str(analysis[name])]
    assert main(args) in (0, 2)
    capsys.readouterr()
