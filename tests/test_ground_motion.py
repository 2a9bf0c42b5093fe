"""Ground motions: record files, stochastic records from a seed, baseline correction (issue 17)."""
from pathlib import Path

import numpy as np
import pytest

from extrados.engine.errors import ModelError
from extrados.engine.ground_motion import (baseline_corrected, integrate_record, kanai_tajimi_density,
                                           kanai_tajimi_record, read_record_file)
from extrados.engine.ground_motion.record_files import STANDARD_GRAVITY
from extrados.engine.tolerance import TOL

AT2 = Path(__file__).parent / "data" / "ground_motion_sample.AT2"
#: The hand-made file's record: a(t) = 0.05 g e^(-0.5 t) sin(2 pi 5 t), 32 samples every 0.01 s,
#: written with 7 significant digits (PEER's E format): values below 0.1 g are off by at most half a
#: unit of their last digit, 5e-9 g; the test allows one unit, 1e-8 g.
AT2_COUNT, AT2_DT = 32, 0.01
AT2_PRINT_G = 1e-8
FIRM_SOIL = {"ground_frequency": 15.6, "ground_damping": 0.6, "t_rise": 0.5, "t_strong": 3.0, "decay": 0.5}


def at2_closed_form():
    times = AT2_DT * np.arange(AT2_COUNT)
    return 0.05 * STANDARD_GRAVITY * np.exp(-0.5 * times) * np.sin(2.0 * np.pi * 5.0 * times)


def test_peer_at2_file_reads_its_step_and_accelerations_in_m_per_s2():
    dt, acc = read_record_file(AT2)
    assert dt == AT2_DT
    assert acc.shape == (AT2_COUNT,)
    expected = at2_closed_form()
    assert np.allclose(acc, expected, rtol=0.0, atol=AT2_PRINT_G * STANDARD_GRAVITY)


def test_an_older_at2_step_line_reads_the_same(tmp_path):
    lines = AT2.read_text().splitlines()
    lines[3] = "   32    .0100    NPTS, DT"
    old = tmp_path / "old.at2"
    old.write_text("\n".join(lines) + "\n")
    assert read_record_file(old)[0] == AT2_DT
    assert np.array_equal(read_record_file(old)[1], read_record_file(AT2)[1])


@pytest.mark.parametrize("line, text, expected", [
    (5, "  .1000000E+00  abc", r"line 5: 'abc' is not a number"),
    (4, "NPTS=   33, DT=   .0100 SEC", r"line 4: NPTS is 33 but the file holds 32 values"),
    (4, "DT=0.01", r"line 4: expected 'NPTS= <count>, DT= <step> SEC'"),
    (3, "VELOCITY TIME SERIES IN UNITS OF CM/S", r"line 3: expected 'ACCELERATION TIME SERIES IN UNITS OF G'"),
])
def test_a_bad_at2_file_names_the_file_and_the_line(tmp_path, line, text, expected):
    lines = AT2.read_text().splitlines()
    lines[line - 1] = text
    bad = tmp_path / "bad.AT2"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(ModelError, match=expected) as error:
        read_record_file(bad, field="motions[2].file")
    assert str(bad) in error.value.message
    assert error.value.path == "motions[2].file"


def test_two_column_text_and_csv_read_alike(tmp_path):
    times = 0.02 * np.arange(6)
    values = np.array([0.0, 0.1, -0.2, 0.3, -0.1, 0.0])
    text = tmp_path / "record.txt"
    text.write_text("# t (s)  a (g)\n" + "".join(f"{t:.2f} {a}\n" for t, a in zip(times, values)))
    table = tmp_path / "record.csv"
    table.write_text("time_s,acceleration_g\n" + "".join(f"{t:.2f},{a}\n" for t, a in zip(times, values)))
    for path in (text, table):
        dt, acc = read_record_file(path, unit="g")
        assert dt == pytest.approx(0.02, rel=TOL.record_step_relative)
        assert np.allclose(acc, values * STANDARD_GRAVITY, rtol=1e-15, atol=0.0)
    assert np.array_equal(read_record_file(text)[1], values)   # m/s^2 by default


@pytest.mark.parametrize("body, expected", [
    ("0 0\n0.01 0.1\n0.03 0.2\n", r"line 3: times must increase evenly"),
    ("0 0\n0.01 0.1 7\n", r"line 2: expected two columns"),
    ("0 0\n", r"at least two samples"),
    ("0 0\n0.01 nan\n", r"line 2: values must be finite"),
])
def test_a_bad_text_record_names_the_file_and_the_line(tmp_path, body, expected):
    bad = tmp_path / "bad.txt"
    bad.write_text(body)
    with pytest.raises(ModelError, match=expected):
        read_record_file(bad)


def test_three_components_a_line_when_asked(tmp_path):
    """t, ax, ay, az lines give (n, 3) accelerations along x, y, z; a reader that takes one or three
    components reads a two-column file as before, and a line unlike the first is refused at its number."""
    four = tmp_path / "xyz.txt"
    four.write_text("0 0 0 0\n0.01 0.1 -0.2 0.3\n0.02 0 0 0\n")
    dt, acc = read_record_file(four, components=(1, 3))
    assert dt == pytest.approx(0.01, rel=TOL.record_step_relative)
    assert acc.shape == (3, 3) and np.array_equal(acc[1], [0.1, -0.2, 0.3])
    two = tmp_path / "x.txt"
    two.write_text("0 0\n0.01 0.1\n")
    assert read_record_file(two, components=(1, 3))[1].shape == (2,)
    with pytest.raises(ModelError, match="line 1: expected two columns"):
        read_record_file(four)
    for body, expected in [("0 0 0\n0.01 0 0\n", "line 1: expected two or four columns"),
                           ("0 0 0 0\n0.01 0.1\n", r"line 2: expected four columns \(t, ax, ay, az\), found 2")]:
        four.write_text(body)
        with pytest.raises(ModelError, match=expected):
            read_record_file(four, components=(1, 3))


def test_a_missing_file_or_unit_is_a_model_error(tmp_path):
    with pytest.raises(ModelError, match="cannot read record file"):
        read_record_file(tmp_path / "absent.AT2")
    with pytest.raises(ModelError, match="unit 'cm/s' is not one of"):
        read_record_file(AT2, unit="cm/s")


def test_integration_of_a_sine_matches_its_closed_form():
    # a = -A w^2 sin(w t) from rest: v = A w (cos(w t) - 1), d = A (sin(w t) - w t); the trapezoid's
    # velocity error is below (w dt)^2 A w, its displacement error below that times the duration T
    amplitude, omega, dt, end = 0.01, 2.0 * np.pi, 1e-3, 2.0
    times = dt * np.arange(int(round(end / dt)) + 1)
    vel, disp = integrate_record(dt, -amplitude * omega ** 2 * np.sin(omega * times))
    velocity_error = (omega * dt) ** 2 * amplitude * omega
    assert np.allclose(vel, amplitude * omega * (np.cos(omega * times) - 1.0), rtol=0.0, atol=velocity_error)
    assert np.allclose(disp, amplitude * (np.sin(omega * times) - omega * times), rtol=0.0, atol=velocity_error * end)


def test_baseline_correction_brings_a_record_with_an_offset_to_rest():
    # a sine record on an accelerometer whose zero is off by 0.05 m/s^2 (and drifts by 0.01 m/s^3):
    # uncorrected it ends moving at 0.2 m/s; corrected, at rest, and the offset is gone
    dt = 0.01
    times = dt * np.arange(401)
    record = 2.0 * np.sin(2.0 * np.pi * 2.0 * times)
    offset = 0.05 + 0.01 * times
    vel, disp = integrate_record(dt, record + offset)
    assert abs(vel[-1]) > 0.2
    corrected = baseline_corrected(dt, np.column_stack([record + offset, np.zeros_like(times), offset]))
    vel, disp = integrate_record(dt, corrected)
    assert np.all(np.abs(vel[-1]) < TOL.baseline_velocity)
    assert np.all(np.abs(disp[-1]) < TOL.baseline_displacement)
    assert np.allclose(corrected[:, 2], 0.0, atol=1e-12)   # a linear drift alone is removed exactly
    assert np.array_equal(corrected[:, 1], np.zeros_like(times))


def test_a_stochastic_record_is_fixed_by_its_seed_and_has_its_target_peak():
    first = kanai_tajimi_record(7, 3.0, 10.0, 0.01, **FIRM_SOIL)
    again = kanai_tajimi_record(7, 3.0, 10.0, 0.01, **FIRM_SOIL)
    other = kanai_tajimi_record(8, 3.0, 10.0, 0.01, **FIRM_SOIL)
    assert np.array_equal(first[1], again[1])
    assert not np.allclose(first[1], other[1])
    dt, acc = first
    assert dt == 0.01 and acc.shape == (1001,)
    assert np.abs(acc).max() == pytest.approx(3.0, rel=1e-15)
    vel, disp = integrate_record(dt, acc)
    assert abs(vel[-1]) < TOL.baseline_velocity and abs(disp[-1]) < TOL.baseline_displacement


def test_the_stochastic_records_spectrum_has_the_kanai_tajimi_shape():
    # the stationary part (no envelope) over many seeds: the periodogram averaged over bands follows
    # S(w) of eq. (2) relative to its low-frequency level within 15 % (400 records, ~5 % sampling error a band)
    dt, duration = 0.01, 40.0
    stationary = {**FIRM_SOIL, "t_rise": 1e-9, "t_strong": 2.0 * duration}
    spectra = [np.abs(np.fft.rfft(kanai_tajimi_record(seed, 1.0, duration, dt, **stationary)[1])) ** 2
               for seed in range(40)]
    power = np.mean(spectra, axis=0)
    omega = 2.0 * np.pi * np.fft.rfftfreq(int(round(duration / dt)) + 1, dt)
    bands = [(2.0, 5.0), (10.0, 13.0), (15.0, 17.0), (25.0, 30.0), (40.0, 50.0)]
    measured = np.array([power[(omega > lo) & (omega < hi)].mean() for lo, hi in bands])
    theory = np.array([kanai_tajimi_density(omega[(omega > lo) & (omega < hi)], 15.6, 0.6).mean()
                       for lo, hi in bands])
    assert np.allclose(measured / measured[0], theory / theory[0], rtol=0.15)


@pytest.mark.parametrize("change, path", [({"duration": 0.001}, "dt"), ({"t_rise": 4.0}, "t_rise")])
def test_stochastic_parameters_that_contradict_each_other_are_refused(change, path):
    parameters = {"seed": 1, "peak_acceleration": 3.0, "duration": 10.0, "dt": 0.01, **FIRM_SOIL, **change}
    with pytest.raises(ModelError) as error:
        kanai_tajimi_record(**parameters)
    assert error.value.path == path
