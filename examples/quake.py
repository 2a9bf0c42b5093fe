"""Write examples/quake.txt, the synthetic ground motion that README's dynamic example reads.

Not a recorded earthquake and no third party's data: a deterministic series shaped like one, so
that it can ship with the code. The horizontal ground acceleration is

    a(t) = PGA e(t) s(t) / max_t |e(t) s(t)|,

a stationary part s(t) = sum_k A_k sin(w_k t + phi_k) under an envelope e(t). The N_SINES
frequencies w_k lie evenly over [F_MIN, F_MAX] Hz with amplitudes A_k = sqrt(2 S(w_k) dw) from the
Kanai-Tajimi spectrum of a firm soil (ground frequency W_G, damping ZETA_G),

    S(w) = (1 + 4 zeta_g^2 (w/w_g)^2) / ((1 - (w/w_g)^2)^2 + 4 zeta_g^2 (w/w_g)^2),

and phases phi_k = 2 pi frac(k PHASE_STEP) from the golden ratio (no random generator, so the same
numbers on every machine). The envelope of Jennings, Housner and Tsai rises as (t/T_RISE)^2, holds
1 until T_STRONG and decays as exp(-DECAY (t - T_STRONG)), tapered to 0 at the end by a cosine over
the last T_TAPER. The file has two columns, t in s and a in g, sampled every TIME_STEP over DURATION:
the record `extrados analyze --ground-record examples/quake.txt --ground-scale 9.81` expects.

    .venv/bin/python examples/quake.py [--out examples/quake.txt]
"""
import argparse
import math
from pathlib import Path

from extrados.engine.ground_motion import jennings_envelope, kanai_tajimi_density

#: g; the peak ground acceleration, above the 0.25 g that uplifts the default rocking block (tan alpha = 0.25).
PGA = 0.35
DURATION, TIME_STEP = 4.0, 0.01           # s
N_SINES, F_MIN, F_MAX = 40, 0.5, 10.0     # count, Hz, Hz
W_G, ZETA_G = 15.6, 0.6                   # rad/s and damping ratio of the Kanai-Tajimi filter (firm soil)
PHASE_STEP = (math.sqrt(5.0) - 1.0) / 2.0  # golden ratio conjugate: evenly spread, never repeating phases
T_RISE, T_STRONG, DECAY, T_TAPER = 0.5, 2.0, 1.0, 0.5  # s, s, 1/s, s
DEFAULT_OUT = Path(__file__).resolve().parent / "quake.txt"


def envelope(t):
    """Jennings-Housner-Tsai envelope at t (s), in [0, 1], tapered to 0 at DURATION."""
    shape = float(jennings_envelope(t, T_RISE, T_STRONG, DECAY))
    to_end = DURATION - t
    return shape * (0.5 - 0.5 * math.cos(math.pi * to_end / T_TAPER) if to_end < T_TAPER else 1.0)


def ground_acceleration():
    """(t, a) pairs: times in s from 0 to DURATION, accelerations in g with max |a| = PGA."""
    step = 2.0 * math.pi * (F_MAX - F_MIN) / (N_SINES - 1)
    omegas = [2.0 * math.pi * F_MIN + k * step for k in range(N_SINES)]
    sines = [(math.sqrt(2.0 * kanai_tajimi_density(w, W_G, ZETA_G) * step), w,
              2.0 * math.pi * ((k * PHASE_STEP) % 1.0)) for k, w in enumerate(omegas)]
    times = [k * TIME_STEP for k in range(round(DURATION / TIME_STEP) + 1)]
    shaped = [envelope(t) * sum(a * math.sin(w * t + phi) for a, w, phi in sines) for t in times]
    peak = max(abs(value) for value in shaped)
    return [(t, PGA * value / peak) for t, value in zip(times, shaped)]


def record_text():
    """The record file's text: a comment naming its origin, then one 't a' line per sample."""
    header = (f"# Synthetic ground motion written by examples/quake.py (not a recorded earthquake): "
              f"PGA {PGA} g, {DURATION} s at {TIME_STEP} s\n# t (s)  a (g)\n")
    # round first, then add 0.0: no "-0.00000" where the envelope is near zero
    return header + "".join(f"{t:.2f} {round(a, 5) + 0.0:.5f}\n" for t, a in ground_acceleration())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="file to write")
    args = parser.parse_args()
    args.out.write_text(record_text(), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
