"""The ground motions of a batch: its record files, inline and stochastic records at each scale, as support motions.

Records are read and generated in the driver, so that workers on other machines need no files; each
becomes a ``record`` support motion with ``baseline: end_at_rest`` (engine.ground_motion.baseline),
so every record ends with the ground at rest.
"""
import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.ground_motion import kanai_tajimi_record, read_record_file
from extrados.engine.ground_motion.record_files import ACCELERATION_UNITS


def ground_motions(motions, folder):
    """(inputs, support_motion) of every record at every scale, one at a time (the caller may stop early):
    files, inline records, then stochastic seeds.

    Parameters
    ----------
    motions : dict
        The spec's checked ``ground_motions``.
    folder : Path
        Where relative file paths start.

    Returns
    -------
    iterator of (dict, dict)
        The table's inputs (``motion``: the file's path, the inline record's name or ``stochastic:SEED``;
        ``scale_factor`` or ``target_pga`` in m/s^2) and the model's ``support_motion``.
    """
    direction = np.asarray(motions["direction"], dtype=float)
    norm = np.linalg.norm(direction)
    if not norm > 0:
        raise ModelError("the direction is zero", path="ground_motions.direction")
    records = [(entry["path"], read_record_file(folder / entry["path"], entry["unit"],
                                                field=f"ground_motions.files[{index}].path"))
               for index, entry in enumerate(motions["files"])]
    records += [(entry["name"], (entry["dt"], np.asarray(entry["accelerations"]) * ACCELERATION_UNITS[entry["unit"]]))
                for entry in motions["records"]]
    records += _stochastic_records(motions.get("stochastic"))
    scale_name, column = ("scale_factors", "scale_factor") if "scale_factors" in motions else ("target_pga",) * 2
    return (({"motion": name, column: scale},
             _support_motion(dt, accelerations, _factor(scale_name, scale, accelerations), direction / norm))
            for name, (dt, accelerations) in records for scale in motions[scale_name])


def _stochastic_records(stochastic):
    """[(name, (dt, accelerations))] of the spec's stochastic records, one per seed."""
    if stochastic is None:
        return []
    seeds = stochastic.get("seeds") or range(stochastic["count"])
    return [(f"stochastic:{seed}", kanai_tajimi_record(seed, **stochastic["parameters"])) for seed in seeds]


def _factor(scale_name, scale, accelerations):
    """The factor on a record: the scale factor, or the target PGA over the record's peak |a|."""
    if scale_name == "scale_factors":
        return scale
    return scale / float(np.max(np.abs(accelerations)))


def _support_motion(dt, accelerations, factor, direction):
    """A ``record`` support motion of samples ``factor * a`` along the unit ``direction``."""
    return {"kind": "record", "dt": float(dt), "baseline": "end_at_rest",
            "accelerations": np.outer(factor * np.asarray(accelerations), direction).tolist()}
