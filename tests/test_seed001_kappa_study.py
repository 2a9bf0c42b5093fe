"""examples/seed001_kappa_study.py on the small wall: kappa recomputed at the engine's thresholds is the engine's
own (seed 001 eq. 59), it cannot grow with the threshold, a wall shaken vertically below 1 g moves as one body
and gains no strain, and a case it cannot read is refused with exit status 2."""
import math
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))
import seed001_kappa_study as study  # noqa: E402
from seed001_strain_maps import FREQUENCY  # noqa: E402

from extrados.engine.post.strain import DILATION_THRESHOLD, SHEAR_THRESHOLD  # noqa: E402

THRESHOLDS = (1e-3, 3e-3, 1e-2, 3e-2)
INTERVAL = 0.01  # s


@pytest.fixture(scope="module")
def settlement():
    return study.run_case("settlement", study.QUICK_WALL, INTERVAL, THRESHOLDS)


def test_kappa_at_the_engine_s_thresholds_is_the_engine_s_and_falls_as_the_threshold_rises(settlement):
    assert DILATION_THRESHOLD == SHEAR_THRESHOLD == THRESHOLDS[0]
    kappa = [settlement["kappa"][f"{threshold:g}"] for threshold in THRESHOLDS]
    assert kappa[0] == pytest.approx(settlement["engine_kappa"], rel=1e-12, abs=1e-12)
    assert kappa[0] > 0.0                               # the settlement strains the wall (measured 67.0)
    assert all(a >= b for a, b in zip(kappa, kappa[1:]))
    assert kappa[0] > kappa[-1]                         # measured 67.0 against 2.0
    assert settlement["unconverged_steps"] == 0


def test_a_wall_shaken_vertically_below_one_g_gains_no_strain():
    """Base velocity 0.3 m/s sin(2 pi 2 t) along z: the base accelerates at 3.8 m/s^2 at most, under g, so every
    block keeps its bed joints closed and the wall moves with its base as one body: no joint opens or slides.
    What strain there is, is the joints' elastic breathing under (1 +- 0.38) g (compliance 1e-10 m/N; measured
    1.3e-5 of cumulated shear, 7e-7 of dilation), two orders below the critical 1e-3."""
    row = study.run_case("z@0.3", study.QUICK_WALL, INTERVAL, THRESHOLDS[:1])
    assert 0.3 * 2.0 * math.pi * FREQUENCY < 9.81
    assert row["max_dilation"] < 1e-5 and row["max_shear"] < 0.1 * THRESHOLDS[0]
    assert row["kappa"]["0.001"] == 0.0


@pytest.mark.parametrize("case, said", [("w", "'settlement' or one of"), ("x@fast", "must be a number"),
                                        ("z@-1", "must be positive")])
def test_a_case_it_cannot_read_is_refused(tmp_path, case, said):
    done = subprocess.run([sys.executable, str(EXAMPLES / "seed001_kappa_study.py"), "--cases", case,
                           "--out", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert not list(tmp_path.iterdir())
