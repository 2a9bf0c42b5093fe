"""Ground motions for the supports: record files, stochastic records and their baseline correction.

Every function takes and returns plain values (a time step in s, numpy arrays of accelerations in
m/s^2), so that a batch runner can call them on any worker.
"""
from extrados.engine.ground_motion.baseline import baseline_corrected, integrate_record
from extrados.engine.ground_motion.record_files import read_record_file
from extrados.engine.ground_motion.stochastic import (jennings_envelope, kanai_tajimi_density,
                                                      kanai_tajimi_record)

__all__ = ["baseline_corrected", "integrate_record", "read_record_file", "jennings_envelope",
           "kanai_tajimi_density", "kanai_tajimi_record"]
