"""Regenerate docs/validation.md from fresh runs of the examples (`make validate`).

Runs every example of RUNS with this interpreter, each into out/validation/<run>/ (its output
in stdout.txt and stderr.txt there, as it runs), reads the JSON documents it writes, fills the
section templates docs/validation/<section>.md and writes docs/validation.md, with the figures
it shows copied into docs/ (each re-encoded under FIGURE_LIMIT_BYTES if larger).

Templates are Markdown with placeholders ``{{name}}``. Each Section names its template, the
runs it reads and a function of the runs' documents that maps every placeholder of the
template to a function formatting its value. A placeholder without a value, a value without
a placeholder, or a key missing from a run's JSON stops the fill with a TemplateError that
names the template and the placeholder.

    .venv/bin/python examples/validate.py [--quick] [--allow-missing] [--only RUN ...]

``--quick`` passes each example its quick options (shorter runs, coarser bisections): a
check that everything runs, whose numbers do not match the prose; the document says so at
its top and must not be committed. The first example that fails stops validate with exit
status 1 (its stderr tail is printed) before anything is written; with ``--allow-missing``
the others still run and the document is written from the runs that finished, each section
that lacks one replaced by a marked stub, and the exit status is still 1. ``--only`` reruns
the named runs and reads the others from out/validation/ (they must have run in the same mode).
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from extrados.engine.generators import GENERATORS

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "out" / "validation"
DOCS = ROOT / "docs"
TEMPLATES = DOCS / "validation"
#: validate's own record of a run, in the run's folder: options, mode, seconds, cores.
RUN_RECORD = "validate_run.json"
#: Figures this large or larger are re-encoded (palette, then smaller) on their way into docs/.
FIGURE_LIMIT_BYTES = 250_000
#: Lines of a failed example's stderr that are printed.
STDERR_TAIL_LINES = 30
#: {{name}}: a placeholder of a template.
PLACEHOLDER = re.compile(r"\{\{\s*([\w.]+)\s*\}\}")
G = 9.81                        # m/s^2, as in the examples
#: Free rocking: impacts over which the energy ratio per impact is averaged, and the impact after
#: which the amplitude is compared with Housner's.
ENERGY_RATIO_IMPACTS = 5
AMPLITUDE_IMPACT = 5
#: Peak ground accelerations (g) of the spandrel wall's in-plane sweep and of its Housner comparison.
SPANDREL_SWEEP = ("0.3", "0.45")
SPANDREL_HOUSNER = ("0.2", "0.3")
#: Peak ground accelerations (g) of the in-plane sweep of settings (examples/spandrel_collapse_study.py).
SPANDREL_STUDY = ("0.2", "0.3")
#: Peak ground acceleration (g) of the sweep of block layouts, in plane and through the thickness: the seed's.
SPANDREL_LAYOUT_PGA = "0.2"
#: The settings' variants shaken through the wall's thickness (the rounded corners' fillets are in plane: not these).
SPANDREL_OUT_OF_PLANE_SETTINGS = ("baseline", "from_rest", "non_associated", "soft_joints", "stiff_joints",
                                  "loose_solver", "capped_solver", "time_step_2ms", "time_step_0.5ms",
                                  "plastic_impacts")
#: Cases of the strain indicator's study (examples/seed001_kappa_study.py).
KAPPA_CASES = ("settlement", "x", "y", "z", "x@0.25", "x@0.5", "x@0.7")
#: examples/hht_rocking.py's free-rocking and harmonic studies (its ensemble is a run of its own).
HHT_STUDIES = ("concept", "steps", "amplitudes", "harmonic")


class TemplateError(Exception):
    """A template and its section function disagree, or a run's JSON lacks what a placeholder needs."""


# --- the runs ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """One invocation of an example: its folder under out/validation/, script, and options (full, --quick)."""
    name: str
    script: str
    options: tuple = ()
    quick_options: tuple = ()


#: Fast runs first; the spandrel wall's (minutes to a quarter of an hour) last.
RUNS = (
    Run("arch_minimum_thickness", "arch_minimum_thickness.py", ("--iterations", "12"), ("--iterations", "6")),
    Run("free_rocking", "free_rocking.py", ("--duration", "4", "--steps", "2e-3", "1e-3", "5e-4", "2.5e-4"),
        ("--duration", "1", "--steps", "2e-3", "1e-3", "5e-4", "2.5e-4")),
    Run("load_factor_arch", "load_factor_arch.py", ("--tolerance", "0.005"), ("--tolerance", "0.05")),
    Run("arch_thrust_lines", "arch_thrust_lines.py", ("--thickness", "0.15", "--voussoirs", "20", "--friction", "0.8"),
        ("--thickness", "0.15", "--voussoirs", "20", "--friction", "0.8")),
    Run("seed000_arch_point_loads", "seed000_arch_point_loads.py", (), ("--quick",)),
    Run("seed000_arch_pairs_10", "seed000_arch_point_loads.py", ("--load-angles", "-10", "10"),
        ("--load-angles", "-10", "10", "--quick")),
    Run("seed000_arch_pairs_15", "seed000_arch_point_loads.py", ("--load-angles", "-15", "15"),
        ("--load-angles", "-15", "15", "--quick")),
    Run("seed000_arch_fit", "seed000_arch_fit.py", (), ("--quick",)),
    Run("seed000_spandrel_arch", "seed000_spandrel_arch.py", (), ("--quick",)),
    Run("seed000_wall_unsupported_base", "seed000_wall_unsupported_base.py", (), ("--quick",)),
    Run("seed000_cylinder_dome", "seed000_cylinder_dome.py", (), ("--quick",)),
    Run("seed001_strain_maps", "seed001_strain_maps.py", (), ("--quick",)),
    Run("construction_wall", "construction_wall.py", (), ("--courses", "4", "--blocks-per-course", "5")),
    Run("diagonal_compression", "diagonal_compression.py", (), ("--sets", "2", "--max-displacement", "2e-4")),
    Run("spandrel_wall_ground_motion", "spandrel_wall_ground_motion.py",
        ("--steps-study", "--pga-sweep", *SPANDREL_SWEEP, "--housner", *SPANDREL_HOUSNER),
        ("--duration", "0.2", "--steps-study", "--pga-sweep", *SPANDREL_SWEEP, "--housner", *SPANDREL_HOUSNER)),
    Run("spandrel_collapse_study", "spandrel_collapse_study.py", ("--pga", *SPANDREL_STUDY),
        ("--duration", "0.2", "--pga", SPANDREL_STUDY[0], "--variants", "baseline", "non_associated")),
    Run("spandrel_layout_study", "spandrel_collapse_study.py", ("--layouts", "--pga", SPANDREL_LAYOUT_PGA),
        ("--duration", "0.2", "--layouts", "--pga", SPANDREL_LAYOUT_PGA)),
    Run("spandrel_out_of_plane_study", "spandrel_collapse_study.py",
        ("--layouts", "--direction", "out_of_plane", "--pga", SPANDREL_LAYOUT_PGA),
        ("--duration", "0.2", "--layouts", "--direction", "out_of_plane", "--pga", SPANDREL_LAYOUT_PGA)),
    Run("spandrel_out_of_plane_settings", "spandrel_collapse_study.py",
        ("--direction", "out_of_plane", "--pga", SPANDREL_LAYOUT_PGA, "--variants", *SPANDREL_OUT_OF_PLANE_SETTINGS),
        ("--duration", "0.2", "--direction", "out_of_plane", "--pga", SPANDREL_LAYOUT_PGA, "--variants", "baseline",
         "capped_solver")),
    Run("seed001_kappa_study", "seed001_kappa_study.py", ("--cases", *KAPPA_CASES),
        ("--cases", *KAPPA_CASES, "--quick")),
    Run("hht_rocking", "hht_rocking.py", ("--studies", *HHT_STUDIES, "--duration", "20"),
        ("--studies", *HHT_STUDIES, "--duration", "4")),
    Run("hht_rocking_ensemble", "hht_rocking.py",
        ("--studies", "ensemble", "--count", "100", "--batch-dir", "out/validation_batches/hht_rocking"),
        ("--studies", "ensemble", "--count", "4", "--batch-dir", "out/validation_batches/hht_rocking")),
)


def command(run, quick):
    """The command line of a run, paths relative to the repository root."""
    options = run.quick_options if quick else run.options
    return [sys.executable, f"examples/{run.script}", *options, "--out", f"out/validation/{run.name}"]


def stderr_tail(text, lines=STDERR_TAIL_LINES):
    """The last lines of an example's stderr, each progress bar (carriage returns) cut to its last state."""
    kept = [line.rsplit("\r", 1)[-1] for line in text.splitlines()]
    return "\n".join(kept[-lines:])


def execute(run, quick, index, count):
    """Run one example into out/validation/<name>/ (emptied first); returns whether it succeeded.

    Its stdout and stderr go to stdout.txt and stderr.txt there as it runs (to follow a long
    run), beside RUN_RECORD, which is written only on success.
    """
    folder = OUT / run.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    line = command(run, quick)
    print(f"[{index}/{count}] {run.name}: {' '.join(line[1:-2])}", flush=True)
    start = time.perf_counter()
    with open(folder / "stdout.txt", "w") as stdout, open(folder / "stderr.txt", "w") as stderr:
        returncode = subprocess.run(line, cwd=ROOT, stdout=stdout, stderr=stderr,
                                    env={**os.environ, "PYTHONUNBUFFERED": "1"}).returncode
    seconds = time.perf_counter() - start
    if returncode != 0:
        print(f"FAILED: examples/{run.script} ({run.name}) exited with {returncode} after {seconds:.0f} s; "
              f"stderr, last {STDERR_TAIL_LINES} lines:\n{stderr_tail((folder / 'stderr.txt').read_text())}",
              file=sys.stderr, flush=True)
        return False
    record = {"run": run.name, "script": run.script, "options": line[2:-2], "quick": quick,
              "seconds": seconds, "cpu_count": os.cpu_count()}
    (folder / RUN_RECORD).write_text(json.dumps(record, indent=1))
    print(f"    done in {seconds:.1f} s", flush=True)
    return True


# --- their documents -----------------------------------------------------------------------------------------
class JsonObject(dict):
    """A JSON object that names its file when a key is missing."""

    def __init__(self, pairs, source):
        super().__init__(pairs)
        self.source = source

    def __missing__(self, key):
        raise KeyError(f"{self.source} has no key {key!r}")


def load_document(path, source):
    """A JSON file as nested JsonObjects that name ``source`` in their errors."""
    return json.loads(path.read_text(), object_hook=lambda pairs: JsonObject(pairs, source))


def load_run(folder):
    """{file stem: document} of every JSON file under a run's folder (RUN_RECORD as "validate_run")."""
    documents = {}
    for path in sorted(folder.rglob("*.json")):
        if path.stem in documents:
            raise ValueError(f"{folder}: two JSON files named {path.name}")
        documents[path.stem] = load_document(path, f"{folder.name}/{path.relative_to(folder)}")
    return JsonObject(documents, f"out/validation/{folder.name}/")


def load_runs(out, names):
    """{run name: load_run(out / name)} of the named runs that finished (their RUN_RECORD exists)."""
    return {name: load_run(out / name) for name in names if (out / name / RUN_RECORD).exists()}


def option(data, run, flag):
    """The value given to an option on a run's command line (the word after ``flag``)."""
    options = data[run]["validate_run"]["options"]
    if flag not in options:
        raise KeyError(f"{run} ran without {flag}")
    return options[options.index(flag) + 1]


def options_text(data, run):
    """A run's options as one string."""
    return " ".join(data[run]["validate_run"]["options"])


def seconds_text(data, run):
    """A run's wall-clock seconds, as validate measured them."""
    return f"{data[run]['validate_run']['seconds']:.0f}"


# --- formatting ----------------------------------------------------------------------------------------------
def minus(text):
    """Typographic minus signs."""
    return text.replace("-", "−")


def fixed(value, digits):
    """A number with ``digits`` decimals and a typographic minus."""
    return minus(f"{value:.{digits}f}")


def percent(fraction, digits=1):
    """A fraction as a percentage: 0.17 -> "17.0 %"."""
    return f"{100.0 * fraction:.{digits}f} %"


def signed_percent(value, reference, digits=2):
    """The relative difference of value from reference: "−0.42 %", "+0.10 %"."""
    return minus(f"{100.0 * (value / reference - 1.0):+.{digits}f} %")


def cell(text):
    """Text for a Markdown table cell: its vertical bars escaped ("v0|v1" names a joint)."""
    return text.replace("|", "\\|")


def markdown_table(header, rows):
    """A Markdown table of strings, escaped for their cells."""
    lines = ["| " + " | ".join(map(cell, header)) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    return "\n".join(lines + ["| " + " | ".join(map(cell, row)) + " |" for row in rows])


def milliseconds(step):
    """A time step in s written in ms: 0.00025 -> "0.25"."""
    return f"{1e3 * step:g}"


def verdict(stable):
    """A static analysis's outcome in a word."""
    return "stands" if stable else "collapses"


def verdict_source(verdict_by):
    """What decided a static verdict, for "decided by the ..."."""
    return "static analysis" if verdict_by == "static" else verdict_by


def mechanism_text(hinges, sliding):
    """Hinged and sliding joints ("a|b" strings) of a mechanism."""
    text = f"hinges at {', '.join(hinges)}" if hinges else "no hinge"
    return text + ("; no sliding" if not sliding else f"; sliding at {', '.join(sliding)}")


# --- sections: each maps the placeholders of docs/validation/<name>.md to formatters --------------------------
def intro_values(data):
    """docs/validation/intro.md: what made the document, and a warning when --quick did."""
    def note():
        made = ("Generated by `make validate` (`examples/validate.py`) from the templates in `docs/validation/` and "
                "fresh runs of the examples (their output in `out/validation/`): edit the templates, not this file.")
        if any(run["validate_run"]["quick"] for run in data.values()):
            return ("> **`--quick` check, not for committing:** the numbers below come from shortened runs "
                    "and do not match the prose.\n\n" + made)
        return made
    return {"generated_note": note}


def static_values(data):
    """docs/validation/static.md: minimum thickness and friction of the semicircular arch."""
    doc = data["arch_minimum_thickness"]["arch_minimum_thickness"]

    def t_min(n):
        return lambda: f"{doc['t_min'][n]:.5f} ({signed_percent(doc['t_min'][n], doc['t_min_reference'])})"
    return {
        "bisection_steps": lambda: option(data, "arch_minimum_thickness", "--iterations"),
        "solver": lambda: doc["result_at_1.02_t_min"]["solver"]["name"].upper(),
        "t_min_reference": lambda: f"{doc['t_min_reference']:.5f}",
        "t_min_10": t_min("10"), "t_min_20": t_min("20"), "t_min_40": t_min("40"),
        "mu_springing": lambda: f"{doc['mu_springing_at_1.02_t_min']:.3f}",
        "mu_any_thickness": lambda: f"{doc['mu_at_t_0.3']:.4f}",
    }


def energy_ratio(amplitudes, impacts):
    """Mean ratio of the rocking energy after and before each of the first impacts (Housner's r).

    Seed 003 eq. 3: r^n [1 - (1 - theta_0/alpha)^2] = 1 - (1 - theta_n/alpha)^2, so the energy
    after n impacts is proportional to 1 - (1 - theta_n/alpha)^2.
    """
    energy = [1.0 - (1.0 - a) ** 2 for a in amplitudes[:impacts + 1]]
    ratios = [after / before for before, after in zip(energy[:-1], energy[1:])]
    return sum(ratios) / len(ratios)


def dynamic_values(data):
    """docs/validation/dynamic.md: free rocking against Housner."""
    doc = data["free_rocking"]["free_rocking"]

    def runs():
        return sorted(doc["runs"], key=lambda run: -run["time_step"])

    def by_step(text):
        return ", ".join(f"{text(run)} at h = {milliseconds(run['time_step'])} ms" for run in runs())

    def amplitude(run):
        ours, exact = run["amplitudes_over_alpha"], doc["housner_exact"]["amplitudes_over_alpha"]
        if len(ours) <= AMPLITUDE_IMPACT or len(exact) <= AMPLITUDE_IMPACT:
            return "— (fewer impacts)"
        return f"{ours[AMPLITUDE_IMPACT] / exact[AMPLITUDE_IMPACT]:.3f}"

    def design(run):
        check = run["first_impacts_vs_exact"]
        return (f"{percent(check['amplitude_max_rel_error'], 2)} and {percent(check['impact_time_max_rel_error'], 2)}"
                f" ({'pass' if check['within_design_tolerance'] else 'FAIL'})")
    return {
        "impacts": lambda: ", ".join(sorted({str(run["errors_vs_exact"]["N"]) for run in runs()})),
        "e_g_by_step": lambda: by_step(lambda run: f"{run['errors_vs_exact']['e_G']:.3f}"),
        "ratio_impacts": lambda: str(ENERGY_RATIO_IMPACTS),
        "energy_ratios": lambda: by_step(
            lambda run: f"{energy_ratio(run['amplitudes_over_alpha'], ENERGY_RATIO_IMPACTS):.3f}"),
        "r": lambda: f"{doc['r']:.4f}",
        "amplitude_5_coarse": lambda: amplitude(runs()[0]),
        "amplitude_5_fine": lambda: f"{amplitude(runs()[-1])} at {milliseconds(runs()[-1]['time_step'])} ms",
        "design_check": lambda: by_step(design),
    }


def housner_outcome(report):
    """How the wall and Housner's rigid body fare against alpha and overturning, in words."""
    wall, body = report["extrados"], report["housner"]
    wall_passes, body_passes = wall["beyond_alpha_s"], body["beyond_alpha_s"]
    if wall_passes is not None and body_passes is not None:
        text = f"both pass α ({wall_passes:.2f} s, Housner {body_passes:.2f} s)"
    elif wall_passes is None and body_passes is None:
        text = "neither passes α"
    else:
        text = (f"the wall passes α at {wall_passes:.2f} s, Housner's body does not" if body_passes is None
                else f"Housner's body passes α at {body_passes:.2f} s, the wall does not")
    wall_falls, body_falls = wall["collapse_s"] is not None, body["overturned_s"] is not None
    if wall_falls and body_falls:
        return text + " and overturn"
    if not wall_falls and not body_falls:
        return text + "; neither overturns"
    return text + ("; only the wall overturns" if wall_falls else "; only Housner's body overturns")


def solver_text(solver):
    """How the last step's solve ended: "takes N iterations" or unconverged at the cap."""
    if solver["converged"]:
        return f"takes {solver['iterations']:,} iterations"
    return f"stops unconverged at {solver['iterations']:,} iterations (residual {solver['residual']:.1e})"


def drop_text(report, duration):
    """When the key stone first dropped by 1 cm and how far it dropped at most, in words."""
    first = report["keystone_drop_times_s"]["0.01"]
    reached = "never 1 cm" if first is None else f"1 cm at {first:.2f} s"
    return f"{reached}, {100.0 * report['keystone_largest_drop_m']:.0f} cm at most by {duration} s"


def spandrel_values(data):
    """docs/validation/spandrel_ground_motion.md: the spandrel wall under the seed's sine ground motion."""
    run = data["spandrel_wall_ground_motion"]
    summary = run["spandrel_summary"]
    low, high = SPANDREL_HOUSNER
    sweep_low, sweep_high = SPANDREL_SWEEP
    friction = GENERATORS["spandrel_wall"].parameter("friction").default

    def inplane():
        return summary["x"]

    def outplane():
        return summary["y"]

    def housner(pga):
        return next(entry for entry in summary["housner"] if f"{entry['pga_g']:g}" == pga)

    def sweep(pga):
        return next(entry for entry in summary["pga_sweep"] if f"{entry['pga_g']:g}" == pga)

    def body():
        return housner(low)["equivalent_body"]

    def duration():
        return f"{inplane()['duration_s']:g}"

    def pga():
        return f"{inplane()['ground_motion']['peak_acceleration_m_s2'] / G:g}"

    def ground_speed():
        """Speed of the seed's sine displacement at t = 0: A 2 pi f, m/s."""
        motion = inplane()["ground_motion"]
        return motion["amplitude_m"] * 2.0 * math.pi * motion["frequency_hz"]

    def steps(direction):
        study = summary[direction]["steps_study"]
        return [study[h] for h in sorted(study, key=float)]

    def step_column(direction, component, sign=1.0):
        return " / ".join(fixed(1e3 * sign * step["keystone_displacement_end_m"][component], 1)
                          for step in steps(direction))

    def coarse_step():
        return max(inplane()["steps_study"], key=float)

    def coarse_solver(direction):
        return solver_text(run[f"spandrel_{direction}_h{coarse_step()}"]["solver_at_end"])

    def collapse(report):
        time_s = report["events"]["collapse"]
        return "no collapse event" if time_s is None else f"collapse event at {time_s:.2f} s"

    return {
        "options": lambda: options_text(data, "spandrel_wall_ground_motion"),
        "duration": duration,
        "friction": lambda: f"{friction:g}",
        "alpha": lambda: f"{body()['alpha_rad']:.4f}",
        "uplift_g": lambda: f"{housner(low)['uplift_acceleration_g']:.3f}",
        "p": lambda: f"{body()['p_1_s']:.3f}",
        "restitution": lambda: f"{body()['restitution']:.3f}",
        "low_pga": lambda: low,
        "low_largest": lambda: f"{housner(low)['extrados']['largest_rad']:.4f}",
        "low_housner": lambda: f"{housner(low)['housner']['largest_rad']:.4f}",
        "high_pga": lambda: high,
        "high_outcome": lambda: housner_outcome(housner(high)),
        "ground_speed": lambda: f"{ground_speed():.2f}",
        "slide_estimate_mm": lambda: f"{1e3 * ground_speed() ** 2 / (2.0 * friction * G):.1f}",
        "y_outcome": lambda: ("without overturning" if outplane()["events"]["collapse"] is None
                              else f"and overturns ({collapse(outplane())})"),
        "pga": pga,
        "y_static": lambda: verdict(outplane()["equivalent_static"]["stable"]),
        "x_static": lambda: verdict(inplane()["equivalent_static"]["stable"]),
        "x_slide_mm": lambda: f"{1e3 * abs(inplane()['keystone_displacement_end_m'][0]):.1f}",
        "x_drop_mm": lambda: f"{1e3 * inplane()['keystone_largest_drop_m']:.1f}",
        "x_outcome": lambda: (f"nothing more happens in {duration()} s: the seed's progressive collapse at "
                              f"{pga()} g is **not** reproduced"
                              if inplane()["events"]["collapse"] is None
                              else f"the wall collapses ({collapse(inplane())}), as in the seed"),
        "sweep_low_pga": lambda: sweep_low,
        "sweep_low_drop": lambda: drop_text(sweep(sweep_low), duration()),
        "sweep_high_pga": lambda: sweep_high,
        "sweep_high_cm": lambda: f"{100.0 * sweep(sweep_high)['keystone_largest_drop_m']:.0f}",
        "sweep_high_collapse": lambda: collapse(sweep(sweep_high)),
        "steps": lambda: " / ".join(sorted(inplane()["steps_study"], key=float)),
        "steps_x_mm": lambda: step_column("x", 0),
        "steps_drop_mm": lambda: step_column("x", 2, sign=-1.0),
        "steps_y_mm": lambda: step_column("y", 1),
        "coarse_step": coarse_step,
        "x_coarse_solver": lambda: coarse_solver("x"),
        "y_coarse_solver": lambda: coarse_solver("y"),
        "y_seconds": lambda: f"{outplane()['wall_clock_s']:.0f}",
        "y_ms_per_step": lambda: f"{1e3 * outplane()['seconds_per_step']:.1f}",
        "y_real_time": lambda: f"{outplane()['real_time_factor']:.3f}",
        "x_seconds": lambda: f"{inplane()['wall_clock_s']:.0f}",
        "cpu_count": lambda: str(run["validate_run"]["cpu_count"]),
    }


def load_factor_values(data):
    """docs/validation/load_factor.md: NSCD and LP load factors of the semicircular arch."""
    doc = data["load_factor_arch"]["load_factor_arch"]

    def optional(value, form):
        return "—" if value is None else format(value, form)

    def signed(value):
        return "—" if value is None else minus(f"{value:+.2f} %")

    def row(entry):
        hinges = " ".join("|".join(pair) for pair in entry["hinges"])
        sliding = " ".join("|".join(pair) for pair in entry["sliding"])
        return [f"{entry['thickness_over_radius']:.2f}", entry["load_at"], optional(entry["nscd"], ".4f"),
                optional(entry["limit_analysis"], ".4f"), optional(entry["published"], ".4f"),
                signed(entry["nscd_vs_lp_percent"]), signed(entry["lp_vs_published_percent"]),
                str(entry["solves"]), hinges + (f"; sliding {sliding}" if sliding else "")]

    def quarter_span_gap():
        entry = next(entry for entry in doc["rows"]
                     if entry["thickness_over_radius"] == 0.15 and entry["load_at"] == "quarter span")
        return f"{abs(entry['nscd_vs_lp_percent']):.2f} %"
    return {
        "radius": lambda: f"{doc['radius']:g}",
        "voussoirs": lambda: str(doc["voussoirs"]),
        "friction": lambda: f"{doc['friction']:g}",
        "tolerance": lambda: f"{doc['tolerance']:g}",
        "table": lambda: markdown_table(
            ["t/R", "load at", "NSCD λ", "LP λ", "published", "NSCD vs LP", "LP vs published", "solves",
             "hinges"], [row(entry) for entry in doc["rows"]]),
        "quarter_span_gap": quarter_span_gap,
    }


def thrust_lines_values(data):
    """docs/validation/thrust_lines.md: effective against conventional thrust of the semicircular arch."""
    doc = data["arch_thrust_lines"]["arch_thrust_lines"]

    def thrust(name):
        return doc["thrust"][name]

    def newtons(value):
        return "none fits" if value is None else f"{value:.1f}"

    def between():
        low, high = thrust("minimum"), thrust("maximum")
        inside = low is not None and high is not None and low <= thrust("effective") <= high
        return "lies between" if inside else "does not lie between"
    return {
        "options": lambda: options_text(data, "arch_thrust_lines"),
        "table": lambda: markdown_table(["line", "horizontal thrust H (N)"], [
            ["effective", newtons(thrust("effective"))],
            ["conventional, minimum thrust", newtons(thrust("minimum"))],
            ["conventional, maximum thrust", newtons(thrust("maximum"))],
            ["conventional, limit line (least thickness)", newtons(thrust("limit"))]]),
        "geometric_safety_factor": lambda: f"{thrust('geometric_safety_factor'):.3f}",
        "effective_between": between,
    }


def arch_weight(result):
    """W_arch (N), read off a load factor result on the arch.

    The live loads total W_arch at factor 1, so at the standing factor lambda the reactions
    carry (1 + lambda) W_arch.
    """
    return sum(reaction["force"][2] for reaction in result["reactions"]) / (1.0 + result["load_factor"])


def seed000_arch_values(data):
    """docs/validation/seed000_arch.md: the stand-alone arch under a crown load (figs. 6-7), and the ring depths
    and load layouts that would give the seed's 10 % (examples/seed000_arch_fit.py)."""
    doc = data["seed000_arch_point_loads"]["seed000_arch_point_loads"]
    fit = data["seed000_arch_fit"]["seed000_arch_fit"]

    def fit_row(entry):
        if "lp" not in entry:
            return [entry["layout"], "none: the factor jumps from failing to well above", "—", "—"]
        both = [percent(entry[kind][mu]) if kind in entry else "—" for mu in ("mu_0.8", "mu_0.4")
                for kind in ("lp", "nscd")]
        return [entry["layout"], f"{entry['depth_for_10_percent']:.3f}", " / ".join(both[:2]), " / ".join(both[2:])]

    def rows(run="seed000_arch_point_loads"):
        return {row["friction"]: row for row in data[run]["seed000_arch_point_loads"]["rows"]}

    def row(entry):
        demand = "—" if entry["friction_demand"] is None else f"{entry['friction_demand']:.3f}"
        return [f"{entry['friction']:g}", percent(entry["nscd"]), percent(entry["limit_analysis"]),
                percent(entry["conventional_limit"]), percent(entry["conventional_limit_with_friction"]),
                f"~{100.0 * entry['paper']:.0f} %", demand,
                mechanism_text(entry["hinges"], entry["sliding"])]
    return {
        "arch_weight_kn": lambda: f"{arch_weight(doc['results']['mu_0.8']) / 1e3:.1f}",
        "seconds": lambda: seconds_text(data, "seed000_arch_point_loads"),
        "tolerance": lambda: percent(doc["results"]["mu_0.8"]["load_factor_report"]["tolerance"]),
        "table": lambda: markdown_table(
            ["µ", "NSCD", "LP", "conventional (no sliding)", "conventional (sliding checked)", "seed",
             "least-thrust line |Ft|/Fn", "mechanism"],
            [row(entry) for entry in doc["rows"]]),
        "low_over_high": lambda: f"{rows()[0.4]['nscd'] / rows()[0.8]['nscd']:.2f}",
        "low_friction_demand": lambda: f"{rows()[0.4]['friction_demand']:.2f}",
        "high_nscd": lambda: percent(rows()[0.8]["nscd"]),
        "pairs_10": lambda: percent(rows("seed000_arch_pairs_10")[0.8]["nscd"]),
        "pairs_15": lambda: percent(rows("seed000_arch_pairs_15")[0.8]["nscd"]),
        "fit_table": lambda: markdown_table(
            ["load layout", "ring depth for 10 % at µ = 0.8 (m)", "µ = 0.8, LP / NSCD", "µ = 0.4, LP / NSCD"],
            [fit_row(entry) for entry in fit["fits"]]),
        "fit_low": lambda: " to ".join(sorted({percent(entry["lp"]["mu_0.4"])
                                               for entry in fit["fits"] if "lp" in entry})),
        "fit_jump": lambda: ", ".join(f"{entry['layout']} (t = {entry['jumps_at_depth']:.3f} m)"
                                      for entry in fit["fits"] if entry["jumps_at_depth"] is not None) or "none",
    }


def seed000_spandrel_arch_values(data):
    """docs/validation/seed000_spandrel_arch.md: the spandrel arch against its equivalent arch (fig. 8)."""
    doc = data["seed000_spandrel_arch"]["seed000_spandrel_arch"]

    def equivalent(key):
        return doc["equivalent_arch"][key]

    def shape(key):
        return doc["line_shape"][key]

    def effective_thrust(where):
        """Horizontal thrust (N) of the effective line at the springing (0) or the crown (1)."""
        return shape("effective_horizontal_thrust_springing_crown_n")[where]

    def assembly_nscd():
        whole = doc["assembly_load_factor"]
        return "not run (`--quick`)" if whole is None else percent(whole["nscd"], 0)
    return {
        "seconds": lambda: seconds_text(data, "seed000_spandrel_arch"),
        "spandrel_weight": lambda: f"{equivalent('spandrel_weight_over_arch'):.2f}",
        "friction": lambda: f"{doc['friction']:g}",
        "equivalent_nscd": lambda: percent(equivalent("nscd")),
        "equivalent_mechanism": lambda: cell(mechanism_text(equivalent("hinges"), equivalent("sliding"))),
        "equivalent_lp": lambda: percent(equivalent("limit_analysis")),
        "equivalent_conventional": lambda: percent(equivalent("conventional_limit")),
        "equivalent_conventional_friction": lambda: percent(equivalent("conventional_limit_with_friction")),
        "equivalent_demand": lambda: f"{equivalent('conventional_friction_demand'):.3f}",
        "failing_factor": lambda: percent(doc["assembly_static"]["factor"]),
        "assembly_verdict": lambda: "stands" if doc["assembly_static"]["stable"] else "fails",
        "assembly_nscd": assembly_nscd,
        "effective_eccentricity": lambda: f"{shape('effective_eccentricity_ratio'):.2f}",
        "conventional_eccentricity": lambda: f"{shape('conventional_eccentricity_ratio'):.2f}",
        "conventional_thrust_kn": lambda: f"{shape('conventional_horizontal_thrust_n') / 1e3:.1f}",
        "conventional_angle": lambda: f"{shape('conventional_springing_angle_deg'):.0f}",
        "effective_thrust_springing_kn": lambda: f"{effective_thrust(0) / 1e3:.1f}",
        "effective_thrust_crown_kn": lambda: f"{effective_thrust(1) / 1e3:.1f}",
        "effective_angle": lambda: f"{shape('effective_springing_angle_deg'):.0f}",
    }


def triangle_match(courses):
    """Up to which course the fallen blocks are exactly the corbelling triangle's, in words."""
    matching = 0
    while matching < len(courses) and sorted(courses[matching]["fallen"]) == sorted(courses[matching]["triangle"]):
        matching += 1
    if matching == len(courses):
        return "In every course the fallen blocks are exactly the corbelling triangle."
    if matching == 0:
        return "Already in course 0 the fallen blocks differ from the corbelling triangle."
    above = courses[matching:]
    more = sum(len(c["fallen"]) for c in above) > sum(len(c["triangle"]) for c in above)
    return (f"Up to course {courses[matching - 1]['course']} the fallen blocks are exactly the corbelling "
            "triangle; above it " + ("the falling blocks pull out a steeper, taller triangle." if more
                                     else "fewer blocks fall than the triangle holds."))


def seed000_wall_values(data):
    """docs/validation/seed000_wall.md: the wall over an unsupported span (fig. 9)."""
    doc = data["seed000_wall_unsupported_base"]["seed000_wall_unsupported_base"]

    def params(key):
        return doc["parameters"][key]

    def table():
        courses = doc["courses"]
        return markdown_table(
            ["course"] + [str(c["course"]) for c in courses],
            [["blocks fallen"] + [str(len(c["fallen"])) for c in courses],
             ["inside the corbelling triangle (half a block per course)"] + [str(len(c["triangle"])) for c in courses]])

    def apex():
        fallen = [c["course"] for c in doc["courses"] if c["fallen"]]
        return str(max(fallen)) if fallen else "— (none fell)"
    return {
        "seconds": lambda: seconds_text(data, "seed000_wall_unsupported_base"),
        "gap": lambda: f"{params('gap'):g}",
        "blocks": lambda: str(doc["blocks"]),
        "friction": lambda: f"{params('friction'):g}",
        "duration": lambda: f"{doc['duration_s']:g}",
        "time_step_ms": lambda: milliseconds(doc["time_step_s"]),
        "table": table,
        "fallen": lambda: str(len(doc["fallen"])),
        "apex_course": apex,
        "remaining": lambda: "stands" if doc["remaining_stands"] else "does not stand",
        "verdict_by": lambda: verdict_source(doc["static_verdict_by"]),
        "largest_support_kn": lambda: f"{doc['largest_support_joint_force_n'] / 1e3:.0f}",
        "triangle_match": lambda: triangle_match(doc["courses"]),
    }


def seed000_cylinder_values(data):
    """docs/validation/seed000_cylinder.md: the partially supported cylinder (fig. 10)."""
    doc = data["seed000_cylinder_dome"]["seed000_cylinder_dome"]

    def params(key):
        return doc["parameters"][key]

    def radius(course):
        return f"{course['open_radius_m']:.2f}" if course["fallen"] else "—"

    def table():
        courses = doc["courses"]
        return markdown_table(
            ["course"] + [str(c["course"]) for c in courses],
            [["blocks (fallen)"] + [f"{c['blocks']} ({c['fallen']})" for c in courses],
             ["largest radius of a fallen block's centre (m)"] + [radius(c) for c in courses]])

    def outward():
        fraction = doc["outward_fraction"]
        return "—" if fraction is None else percent(fraction, 0)
    return {
        "radius": lambda: f"{params('radius'):g}",
        "height": lambda: f"{params('height'):g}",
        "courses": lambda: str(params("courses")),
        "gap_radius": lambda: f"{params('gap_radius'):g}",
        "blocks": lambda: str(doc["blocks"]),
        "duration": lambda: f"{doc['duration_s']:g}",
        "time_step_ms": lambda: milliseconds(doc["time_step_s"]),
        "dynamic_seconds": lambda: f"{doc['dynamic_seconds']:.0f}",
        "table": table,
        "fallen": lambda: str(len(doc["fallen"])),
        "top_open_radius": lambda: radius(doc["courses"][-1]),
        "remaining": lambda: "stands" if doc["remaining_stands"] else "does not stand",
        "verdict_by": lambda: verdict_source(doc["static_verdict_by"]),
        "outward_percent": outward,
    }


def seed001_strain_values(data):
    """docs/validation/seed001_strain.md: strain maps and kappa of a settlement and of base shaking (seed 001)."""
    doc = data["seed001_strain_maps"]["seed001_strain_maps"]
    cases, assumed = doc["cases"], doc["assumptions"]

    def case(name, key):
        return cases[name][key]
    return {
        "seconds": lambda: seconds_text(data, "seed001_strain_maps"),
        "blocks": lambda: str(case("settlement", "cells")),
        "courses": lambda: str(assumed["courses"]),
        "interval_ms": lambda: f"{1000 * assumed['output_interval']:g}",
        "kappa_settlement": lambda: f"{case('settlement', 'kappa'):.1f}",
        "kappa_shaking": lambda: f"{case('shaking', 'kappa'):.1f}",
        "ratio": lambda: f"{doc['ratio']:.2f}",
        "paper_ratio": lambda: f"{doc['paper']['ratio']:.2f}",
        "critical_settlement": lambda: f"{case('settlement', 'critical_cells')} of {case('settlement', 'cells')}",
        "critical_shaking": lambda: f"{case('shaking', 'critical_cells')} of {case('shaking', 'cells')}",
        "shear_settlement": lambda: f"{case('settlement', 'mean_shear'):.2g}",
        "shear_shaking": lambda: f"{case('shaking', 'mean_shear'):.2g}",
        "dilation_settlement": lambda: f"{case('settlement', 'mean_dilation'):.2g}",
        "dilation_shaking": lambda: f"{case('shaking', 'mean_dilation'):.2g}",
        "steps_settlement": lambda: str(case("settlement", "steps")),
        "steps_shaking": lambda: str(case("shaking", "steps")),
        **kappa_study_values(data),
    }


def kappa_study_values(data):
    """The strain indicator's study (examples/seed001_kappa_study.py): kappa by shaking and threshold."""
    doc = data["seed001_kappa_study"]["seed001_kappa_study"]
    cases = {row["case"]: row for row in doc["cases"]}
    shaking = [name for name in cases if name != "settlement"]
    keys = [f"{threshold:g}" for threshold in doc["thresholds"]]

    def ratio(name, key):
        settled = cases["settlement"]["kappa"][key]
        return cases[name]["kappa"][key] / settled if settled > 0.0 else None

    def table():
        rows = [[key] + [f"{cases[name]['kappa'][key]:.1f}" for name in cases]
                + ["—" if ratio(name, key) is None else f"{ratio(name, key):.2f}" for name in shaking]
                for key in keys]
        return markdown_table(["threshold"] + [f"κ {name}" for name in cases] + [f"ratio {name}" for name in shaking],
                              rows)

    def nearest():
        """The case and threshold whose ratio comes nearest the paper's."""
        found = [(abs(ratio(name, key) - doc["paper"]["ratio"]), name, key)
                 for name in shaking for key in keys if ratio(name, key) is not None]
        if not found:
            return "none: the settlement leaves no cell critical at any threshold"
        _, name, key = min(found)
        return f"{ratio(name, key):.2f} ({name} at {key})"
    return {
        "kappa_options": lambda: " ".join(data["seed001_kappa_study"]["validate_run"]["options"]),
        "kappa_seconds": lambda: seconds_text(data, "seed001_kappa_study"),
        "kappa_table": table,
        "kappa_nearest": nearest,
    }


def construction_values(data):
    """docs/validation/construction.md: a wall built all at once, layer by layer, then settled (seed 001)."""
    doc = data["construction_wall"]["construction_wall"]
    at_once, by_layer, settled = "scenario I", "scenario II", "scenario II + settlement"

    def assumed(key):
        return doc["assumptions"][key]

    def difference(key):
        return doc["scenario II vs I"][key]

    def fixed_slab(name):
        """Force (N) of the slab that does not settle on the wall, in scenario ``name``."""
        return doc["scenarios"][name]["reactions"]["ground_left"]

    def kpa(value):
        return f"{value / 1e3:.2f}"

    def row(label, text, paper="—"):
        return [label] + [text(doc["scenarios"][name]) for name in (at_once, by_layer, settled)] + [paper]

    def paper(key):
        return f"{kpa(doc['paper'][key]['I'])} / {kpa(doc['paper'][key]['II'])}"

    def table():
        return markdown_table(
            ["", "I: all at once", "II: layer by layer", "II, then the settlement", "Table I (I / II)"], [
                row("p (kPa)", lambda s: kpa(s["p_wall"])),
                row("q (kPa)", lambda s: kpa(s["q_wall"])),
                row("p_2d (kPa)", lambda s: kpa(s["p_2d_wall"]), paper("p_wall")),
                row("q_2d (kPa)", lambda s: kpa(s["q_2d_wall"]), paper("q_wall")),
                row("fixed slab's vertical reaction (kN)", lambda s: f"{s['reactions']['ground_left'][2] / 1e3:.1f}"),
                row("horizontal base thrust (N)", lambda s: f"{abs(s['reactions']['ground_left'][0]):.0f}"),
                row("largest block displacement (mm)", lambda s: f"{1e3 * s['max_displacement']:.2f}"),
                row("steps", lambda s: str(s["steps"])),
                row("seconds", lambda s: f"{s['seconds']:.0f}")])

    def differences():
        return (f"block by block p {percent(difference('blockwise_mean_difference_p'), 3)}, "
                f"q {percent(difference('blockwise_mean_difference_q'), 3)}; layer by layer "
                f"p {percent(difference('layer_difference_p'), 3)}, q {percent(difference('layer_difference_q'), 3)}")

    def upper_change_p():
        """Largest change of a layer's p from the fifth course up, or a dash when the wall is lower."""
        upper = [abs(change) for change in difference("layer_change_p")[4:]]
        return percent(max(upper), 3) if upper else "— (no fifth course)"

    def sigma_xx(name, course):
        """sigma_xx (Pa) of a course's layer mean in scenario ``name``."""
        return fixed(doc["scenarios"][name]["layers"][course]["sigma_xx"], 0)
    return {
        "seconds": lambda: seconds_text(data, "construction_wall"),
        "blocks": lambda: str(assumed("blocks")),
        "courses": lambda: str(assumed("courses")),
        "blocks_per_course": lambda: str(assumed("blocks_per_course")),
        "block_length": lambda: f"{assumed('block_length'):g}",
        "block_height": lambda: f"{assumed('block_height'):g}",
        "depth": lambda: f"{assumed('depth'):g}",
        "density": lambda: f"{assumed('density'):g}",
        "friction": lambda: f"{assumed('friction'):g}",
        "settled_blocks": lambda: str(assumed("settled_blocks_of_the_first_course")),
        "settlement_cm": lambda: f"{100.0 * assumed('settlement'):g}",
        "table": table,
        "difference": differences,
        "sigma_xx_at_once": lambda: sigma_xx(at_once, 0),
        "sigma_xx_third_at_once": lambda: sigma_xx(at_once, 2),
        "sigma_xx_by_layer": lambda: f"{sigma_xx(by_layer, 0)} and {sigma_xx(by_layer, 2)}",
        "base_change_p": lambda: percent(abs(difference("layer_change_p")[0]), 2),
        "upper_change_p": upper_change_p,
        "base_thrust_at_once": lambda: f"{abs(fixed_slab(at_once)[0]):.0f}",
        "base_thrust_by_layer": lambda: f"{abs(fixed_slab(by_layer)[0]):.0f}",
        "weight_kn": lambda: f"{doc['scenarios'][at_once]['weight'] / 1e3:.0f}",
        "fixed_reaction_before_kn": lambda: f"{fixed_slab(by_layer)[2] / 1e3:.0f}",
        "fixed_reaction_after_kn": lambda: f"{fixed_slab(settled)[2] / 1e3:.0f}",
        "settlement_layer_p": lambda: percent(doc["settlement vs scenario II"]["layer_difference_p"], 0),
    }


def mortar_panel_values(data):
    """docs/validation/mortar_panel.md: the panel under diagonal compression with Table 4's mortar (seed 004)."""
    doc = data["diagonal_compression"]["diagonal_compression"]
    geometry, sets = doc["panel_geometry"], doc["sets"]

    def row(name, text):
        return [name] + [text(sets[key]) for key in sorted(sets)]

    def centre(entry, key):
        return entry["centre_bed_joints_at_peak"][key]

    def table():
        return markdown_table([""] + [f"set {key}" for key in sorted(sets)], [
            row("peak force (kN)",
                lambda e: f"{e['peak_force_kN']:.0f}" + ("" if e["peak_passed"] else " (no peak yet)")),
            row("displacement at the peak (mm)", lambda e: f"{e['displacement_at_peak_mm']:.3f}"),
            row("bonds at the peak: intact / damaged / broken", lambda e: " / ".join(
                str(e["bonds_at_peak"].get(state, 0)) for state in ("intact", "damaged", "broken"))),
            row("centre bed joints at the peak: σ, τ (MPa)",
                lambda e: f"{centre(e, 'normal_stress_MPa'):.2f}, {centre(e, 'shear_stress_MPa'):.2f}"),
            row("their τ / σ (elastic continuum 1.89)",
                lambda e: f"{centre(e, 'shear_stress_MPa') / centre(e, 'normal_stress_MPa'):.2f}"),
            row("steps (unconverged)", lambda e: f"{e['steps']} ({e['unconverged_steps']})"),
            row("largest kinetic energy / work", lambda e: f"{e['max_kinetic_over_work']:.1e}"),
            row("seconds", lambda e: f"{e['runtime_s']:.0f}")])

    def ratios():
        return ", ".join(f"set {key} {sets[key]['peak_force_kN']:.0f} kN "
                         f"({sets[key]['peak_force_kN'] / doc['paper_peak_kN']:.2f}×)" for key in sorted(sets))
    return {
        "seconds": lambda: seconds_text(data, "diagonal_compression"),
        "size": lambda: " × ".join(f"{1e3 * geometry[k]:.0f}" for k in ("width", "height", "thickness")),
        "speed": lambda: f"{1e3 * doc['speed_m_per_s']:g}",
        "time_step": lambda: f"{1e3 * doc['time_step_s']:g}",
        "friction": lambda: f"{geometry['friction']:g}",
        "stiffness": lambda: f"{doc['panel']['joint_stiffness']:.1e}",
        "table": table,
        "paper_peak": lambda: f"{doc['paper_peak_kN']:g}",
        "ratios": ratios,
        "elastic_peak": lambda: f"{doc['closed_form_peaks_kN']['elastic_continuum']:.0f}",
        "no_tension_peak": lambda: f"{doc['closed_form_peaks_kN']['no_tension_across']:.0f}",
    }


def hht_rocking_values(data):
    """docs/validation/hht_rocking.md: HHT-alpha on a Winkler joint against Housner (seed 003 fig. 2-5, 17d-18)."""
    concept, steps = data["hht_rocking"]["concept"], data["hht_rocking"]["steps"]
    amplitudes, harmonic = data["hht_rocking"]["amplitudes"], data["hht_rocking"]["harmonic"]
    ensemble = data["hht_rocking_ensemble"]["ensemble"]

    def concept_row(name):
        run = concept["runs"][name]
        errors = run["errors_vs_eq3"]
        return [f"{name}: {milliseconds(run['time_step'])}", str(errors["N"]), f"{errors['e_theta']:.3f}",
                f"{errors['e_T']:.3f}", f"{errors['e_G']:.3f}", f"{run['mean_energy_ratio']:.4f}",
                f"{run['seconds']:.1f}"]

    def harmonic_row(row):
        fate = {True: "overturns", False: "survives"}
        error = "—" if row["largest_error"] is None else signed_percent(1.0 + row["largest_error"], 1.0, 1)
        return [f"{row['acceleration_over_g_tan_alpha']:g}", f"{row['frequency_over_p']:g}", str(row["cycles"]),
                milliseconds(row["time_step"]), fate[row["housner_overturned"]], fate[row["overturned"]],
                f"{row['housner_largest_over_alpha']:.3f}", f"{row['largest_over_alpha']:.3f}", error]

    def ensemble_row(restitution):
        figures = ensemble["by_restitution"][restitution]
        ours, housner = figures["nscd"], figures["housner"]
        return [restitution, milliseconds(figures["time_step"]), f"{figures['ks_distance']:.3f}",
                f"{figures['ks_pvalue']:.3f}", f"{ours['collapsed']} / {ours['cases']}",
                f"{housner['collapsed']} / {housner['cases']}", str(len(figures["failed"]))]

    def ratios(study):
        return ", ".join(f"{ratio:.4f}" for ratio in study["mean_energy_ratios"])
    return {
        "law": lambda: (f"A₁ = {fixed(concept['law']['A1'], 3)}, A₂ = {concept['law']['A2']:.3f}, "
                        f"A₃ = {fixed(concept['law']['A3'], 3)} ({concept['law']['source']})"),
        "concept_table": lambda: markdown_table(
            ["run: Δt (ms)", "N", "e_θ", "e_T", "e_G", "energy ratio per impact", "seconds"],
            [concept_row(name) for name in concept["runs"]]),
        "concept_r": lambda: f"{concept['restitution']:g}",
        "concept_eq2": lambda: f"{concept['eq2_restitution']:.4f}",
        "steps": lambda: ", ".join(milliseconds(step) for step in steps["steps"]),
        "steps_ratios": lambda: ratios(steps),
        "steps_ordering": lambda: "falls" if steps["dissipation_grows_with_step"] else "does not fall",
        "half_period_error": lambda: percent(steps["half_period_curve_max_error"], 1),
        "tilts": lambda: ", ".join(f"{tilt:g}" for tilt in amplitudes["tilts"]),
        "amplitude_step": lambda: milliseconds(amplitudes["time_step"]),
        "amplitude_ratios": lambda: ratios(amplitudes),
        "amplitude_spread": lambda: f"{amplitudes['spread']:.4f}",
        "harmonic_r": lambda: f"{harmonic['restitution']:.4f}",
        "harmonic_table": lambda: markdown_table(
            ["A / (g tan α)", "ω / p", "cycles", "Δt (ms)", "Housner", "HHT", "Housner θ_max/α", "HHT θ_max/α",
             "difference"], [harmonic_row(row) for row in harmonic["cases"]]),
        "ensemble_count": lambda: str(ensemble["count"]),
        "ensemble_pga": lambda: f"{ensemble['pga']:g}",
        "ensemble_table": lambda: markdown_table(
            ["r", "Δt (ms)", "KS distance", "p", "collapsed, HHT", "collapsed, Housner", "engine failed"],
            [ensemble_row(restitution) for restitution in ensemble["by_restitution"]]),
        "ensemble_seconds": lambda: f"{ensemble['seconds']:.0f}",
    }


def spandrel_study_values(data):
    """docs/validation/spandrel_collapse_study.md: the in-plane wall under each setting of the sweep."""
    rows = data["spandrel_collapse_study"]["study"]
    order = [row["variant"] for row in rows]

    def drop(variant, pga):
        row = next(r for r in rows if r["variant"] == variant and f"{r['pga_g']:g}" == pga)
        return f"{1e3 * row['largest_drop_m']:.1f}"

    def table():
        return markdown_table(
            ["variant", "PGA (g)", "key stone drop, largest (mm)", "at the end (mm)", "collapse (s)",
             "unconverged steps", "seconds"],
            [[row["variant"], f"{row['pga_g']:g}", f"{1e3 * row['largest_drop_m']:.1f}",
              f"{1e3 * row['final_drop_m']:.1f}", "—" if row["collapse_s"] is None else f"{row['collapse_s']:.2f}",
              str(row["unconverged_steps"]), f"{row['seconds']:.0f}"]
             for row in sorted(rows, key=lambda r: (order.index(r["variant"]), r["pga_g"]))])
    low = SPANDREL_STUDY[0]
    return {
        "options": lambda: " ".join(data["spandrel_collapse_study"]["validate_run"]["options"]),
        "duration": lambda: f"{rows[0]['duration_s']:g}",
        "table": table,
        "baseline_low": lambda: drop("baseline", low),
        "non_associated_low": lambda: drop("non_associated", low),
        "rounded_low": lambda: drop("rounded_25mm", low),
    }


def spandrel_layout_values(data):
    """docs/validation/spandrel_layouts.md: the wall's block layouts shaken in plane and through the thickness."""
    in_plane = {row["variant"]: row for row in data["spandrel_layout_study"]["study"]}
    out_of_plane = {row["variant"]: row for row in data["spandrel_out_of_plane_study"]["study"]}
    order = list(in_plane)                                  # the example writes its rows in its variants' order

    def collapse(row):
        return "—" if row["collapse_s"] is None else f"{row['collapse_s']:.2f}"

    def row(variant):
        inside, through = in_plane[variant], out_of_plane[variant]
        return [variant, str(inside["blocks"]), f"{1e3 * inside['largest_drop_m']:.1f}", collapse(inside),
                f"{1e3 * through['largest_drop_m']:.1f}", f"{1e3 * through['largest_sway_m']:.0f}", collapse(through),
                f"{inside['seconds']:.0f} / {through['seconds']:.0f}"]

    def standing(rows):
        return sum(r["collapse_s"] is None for r in rows.values())

    def options(run):
        return " ".join(data[run]["validate_run"]["options"])

    def settings_table():
        rows = data["spandrel_out_of_plane_settings"]["study"]
        return markdown_table(
            ["variant", "key stone drop, largest (mm)", "key stone sway, largest (mm)", "collapse (s)",
             "unconverged steps", "seconds"],
            [[r["variant"], f"{1e3 * r['largest_drop_m']:.1f}", f"{1e3 * r['largest_sway_m']:.0f}", collapse(r),
              str(r["unconverged_steps"]), f"{r['seconds']:.0f}"] for r in rows])
    return {
        "options_settings": lambda: options("spandrel_out_of_plane_settings"),
        "settings_table": settings_table,
        "options_in_plane": lambda: options("spandrel_layout_study"),
        "options_out_of_plane": lambda: options("spandrel_out_of_plane_study"),
        "pga": lambda: f"{next(iter(in_plane.values()))['pga_g']:g}",
        "layouts": lambda: str(len(in_plane) - 1),
        "table": lambda: markdown_table(
            ["layout", "movable blocks", "in plane: key stone drop, largest (mm)", "collapse (s)",
             "through the thickness: key stone drop, largest (mm)", "key stone sway, largest (mm)", "collapse (s)",
             "seconds (in / through)"], [row(variant) for variant in order if variant in out_of_plane]),
        "standing_in_plane": lambda: f"{standing(in_plane)} of {len(in_plane)}",
        "standing_out_of_plane": lambda: f"{standing(out_of_plane)} of {len(out_of_plane)}",
        "largest_drop_in_plane": lambda: f"{1e3 * max(r['largest_drop_m'] for r in in_plane.values()):.1f}",
    }


def runs_values(data):
    """docs/validation/runs.md: what ran, with which options, for how long."""
    def row(run):
        if run.name not in data:
            return [run.name, f"`examples/{run.script}`", "did not run"]
        record = data[run.name]["validate_run"]
        return [run.name, "`" + " ".join([f"examples/{run.script}", *record["options"]]) + "`",
                f"{record['seconds']:.0f}"]
    return {
        "table": lambda: markdown_table(["run", "command (`--out out/validation/<run>`)", "seconds"],
                                        [row(run) for run in RUNS]),
        "total_seconds": lambda: f"{sum(run['validate_run']['seconds'] for run in data.values()):.0f}",
        "cpu_count": lambda: ", ".join(sorted({str(run["validate_run"]["cpu_count"]) for run in data.values()})),
    }


def failures_text(failed):
    """The campaign's runs that failed with an error of the integrator, as a sentence."""
    if not failed:
        return "no run failed with an error of the integrator."
    return (f"{len(failed)} runs failed with an error of the integrator ("
            + "; ".join(f"{o['height']:g} x {o['width']:g} m k{o['k_n'] / 1e8:g} at {1e3 * o['dt']:g} ms: {o['error']}"
                        for o in failed) + ").")


def rocking_campaign_values(data):
    """docs/validation/rocking_campaign.md: the time-step law of our campaign, read from
    benchmarks/results/rocking_campaign.json (the campaign is too long for validate; the section is static)."""
    doc = json.loads((ROOT / "benchmarks/results/rocking_campaign.json").read_text())
    campaign, validation = doc["campaign"], doc["validation"]
    laws = markdown_table(["law", "A₁", "A₂", "A₃", "R² on its campaign"], [
        [name, f"{law['A1']:.4g}", f"{law['A2']:.3f}", f"{law['A3']:.3f}", f"{law['r_squared']:.3f}"]
        for name, law in (("seed 003 eq. 9", doc["paper"]), ("Extrados (ours)", doc["law"]))])

    def validation_text():
        if validation["r_squared"] is None:
            return (f"too few measured optima ({validation['optima']}) from the {validation['cases']} cases "
                    "finished to judge the law yet.")
        return (f"{validation['optima']} optima from {validation['cases']} cases; our law's R² = "
                f"{validation['r_squared']:.3f} (the paper's on its Table 2: {validation['paper_r_squared']:.3f}).")
    return {
        "cases_done": lambda: f"{campaign['done']}",
        "cases_per_minute": lambda: f"{campaign['cases_per_minute']:.1f}", "cores": lambda: f"{campaign['cores']}",
        "run_cases": lambda: f"{campaign['run_cases']:,}", "minutes": lambda: f"{campaign['minutes']:.1f}",
        "blocks_done": lambda: "; ".join(doc["blocks_done"]),
        "theta0": lambda: f"{doc['settings']['theta0_over_alpha']:g}",
        "optimum_error": lambda: percent(doc["settings"]["optimum_error"], 0),
        "optima": lambda: f"{campaign['optima']}", "searched": lambda: f"{campaign['searched']}",
        "laws": lambda: laws, "paper_on_ours": lambda: fixed(doc["paper"]["r_squared_on_our_optima"], 3),
        "validation": validation_text,
        "robustness": lambda: (f"Between impacts the blocks' centres slide {1e3 * doc['drift_m']['median']:.2f} mm "
                               f"(median) and {1e3 * doc['drift_m']['p95']:.1f} mm (95th percentile) at friction 0.8; "
                               f"{len(doc['overturned'])} runs overturned, the integrator gaining energy ("
                               + "; ".join(f"{o['height']:g} x {o['width']:g} m k{o['k_n'] / 1e8:g} at "
                                           f"{1e3 * o['dt']:g} ms" for o in doc["overturned"]) + "); "
                               + failures_text(campaign["failed"])),
        "a2_note": lambda: ("A₂ is held at the paper's value: the finished cases are of one block size, and one "
                            "R·H/B cannot tell A₂ from A₁." if doc["law"]["A2_held_at_paper"] else ""),
    }


@dataclass(frozen=True)
class Section:
    """A template docs/validation/<name>.md, the runs it reads, its placeholders' formatters and its figures.

    ``values(data)`` maps each placeholder name to a function of no argument returning its text;
    ``figures`` are (run, path in the run's folder, file name in docs/).
    """
    name: str
    values: Callable
    runs: tuple = ()
    figures: tuple = ()


SECTIONS = (
    Section("intro", intro_values),
    Section("summary", lambda data: {}),
    Section("static", static_values, ("arch_minimum_thickness",)),
    Section("dynamic", dynamic_values, ("free_rocking",),
            (("free_rocking", "free_rocking/theta.png", "free_rocking_theta.png"),)),
    Section("spandrel_ground_motion", spandrel_values, ("spandrel_wall_ground_motion",), (
        ("spandrel_wall_ground_motion", f"spandrel_rocking_{SPANDREL_HOUSNER[0]}g.png",
         f"spandrel-rocking-{SPANDREL_HOUSNER[0]}g.png"),
        ("spandrel_wall_ground_motion", "spandrel_x_sweep.png", "spandrel_x_sweep.png"),
        ("spandrel_wall_ground_motion", f"spandrel_x_{SPANDREL_SWEEP[-1]}g_snapshots.png",
         f"spandrel-in-plane-{SPANDREL_SWEEP[-1]}g.png"))),
    Section("spandrel_collapse_study", spandrel_study_values, ("spandrel_collapse_study",)),
    Section("spandrel_layouts", spandrel_layout_values,
            ("spandrel_layout_study", "spandrel_out_of_plane_study", "spandrel_out_of_plane_settings"),
            (("spandrel_out_of_plane_study", "keystone.png", "spandrel_out_of_plane_keystone.png"),)),
    Section("load_factor", load_factor_values, ("load_factor_arch",),
            (("load_factor_arch", "load_factor_arch.png", "load_factor_arch.png"),)),
    Section("thrust_lines", thrust_lines_values, ("arch_thrust_lines",),
            (("arch_thrust_lines", "arch_thrust_lines.png", "arch_thrust_lines.png"),)),
    Section("seed000_arch", seed000_arch_values,
            ("seed000_arch_point_loads", "seed000_arch_pairs_10", "seed000_arch_pairs_15", "seed000_arch_fit"),
            (("seed000_arch_point_loads", "seed000_arch_mu0.8.png", "seed000_arch_mu0.8.png"),
             ("seed000_arch_point_loads", "seed000_arch_mu0.4.png", "seed000_arch_mu0.4.png"))),
    Section("seed000_spandrel_arch", seed000_spandrel_arch_values, ("seed000_spandrel_arch",),
            (("seed000_spandrel_arch", "seed000_spandrel_arch.png", "seed000_spandrel_arch.png"),)),
    Section("seed000_wall", seed000_wall_values, ("seed000_wall_unsupported_base",),
            (("seed000_wall_unsupported_base", "seed000_wall_unsupported_base.png",
              "seed000_wall_unsupported_base.png"),)),
    Section("seed000_cylinder", seed000_cylinder_values, ("seed000_cylinder_dome",),
            (("seed000_cylinder_dome", "seed000_cylinder_dome.png", "seed000_cylinder_dome.png"),)),
    Section("seed001_strain", seed001_strain_values, ("seed001_strain_maps", "seed001_kappa_study"),
            (("seed001_strain_maps", "seed001_strain_maps.png", "seed001_strain_maps.png"),)),
    Section("construction", construction_values, ("construction_wall",),
            (("construction_wall", "construction_wall.png", "construction_wall.png"),)),
    Section("mortar_panel", mortar_panel_values, ("diagonal_compression",),
            (("diagonal_compression", "force_displacement.png", "diagonal_compression_force.png"),
             ("diagonal_compression", "broken_contacts.png", "diagonal_compression_bonds.png"))),
    Section("rocking_campaign", rocking_campaign_values),
    Section("hht_rocking", hht_rocking_values, ("hht_rocking", "hht_rocking_ensemble"), (
        ("hht_rocking", "hht_rocking/concept.png", "hht_rocking_concept.png"),
        ("hht_rocking", "hht_rocking/concept_phase.png", "hht_rocking_concept_phase.png"),
        ("hht_rocking", "hht_rocking/steps.png", "hht_rocking_steps.png"),
        ("hht_rocking", "hht_rocking/steps_half_periods.png", "hht_rocking_steps_half_periods.png"),
        ("hht_rocking", "hht_rocking/amplitudes.png", "hht_rocking_amplitudes.png"),
        ("hht_rocking", "hht_rocking/harmonic.png", "hht_rocking_harmonic.png"),
        ("hht_rocking_ensemble", "hht_rocking/ensemble_cdf.png", "hht_rocking_ensemble_cdf.png"),
        ("hht_rocking_ensemble", "hht_rocking/ensemble_phase.png", "hht_rocking_ensemble_phase.png"))),
    Section("runs", runs_values),
)


# --- filling the templates -----------------------------------------------------------------------------------
def placeholders(text):
    """The set of placeholder names in a template."""
    return set(PLACEHOLDER.findall(text))


def fill(text, values, template):
    """A template with every placeholder replaced by its formatter's text.

    Raises
    ------
    TemplateError
        A placeholder without a formatter, a formatter without a placeholder, or a formatter that
        fails on the runs' documents (a missing key, a missing list item, a None where a number is due).
    """
    names = placeholders(text)
    unfilled, unused = sorted(names - values.keys()), sorted(values.keys() - names)
    if unfilled:
        raise TemplateError(f"{template}: {{{{{unfilled[0]}}}}} has no value in its section function")
    if unused:
        raise TemplateError(f"{template}: its section function gives {unused[0]!r}, which the template does not use")

    def value(match):
        name = match.group(1)
        try:
            return values[name]()
        except (KeyError, IndexError, TypeError, ValueError, StopIteration) as error:
            reason = error.args[0] if error.args else type(error).__name__
            raise TemplateError(f"{template}: {{{{{name}}}}}: {reason}") from error
    return PLACEHOLDER.sub(value, text)


def fill_section(section, data, templates=TEMPLATES):
    """The text of one section filled from the runs' documents."""
    template = templates / f"{section.name}.md"
    try:
        values = section.values(data)
    except KeyError as error:
        raise TemplateError(f"{template.name}: {error.args[0]}") from error
    return fill(template.read_text(), values, template.name)


def missing_stub(section, absent, templates=TEMPLATES):
    """A section's heading and a marked note that its runs did not finish."""
    heading = next((line for line in (templates / f"{section.name}.md").read_text().splitlines()
                    if line.startswith("#")), f"## {section.name}")
    runs = ", ".join(f"`{name}`" for name in absent)
    return (f"{heading}\n\n> **Not generated:** {runs} did not finish in this `make validate` run "
            "(`--allow-missing`); rerun it to fill this section.")


def render(data, templates=TEMPLATES):
    """The document and the names of the sections left as stubs because their runs are missing."""
    parts, missing = [], []
    for section in SECTIONS:
        absent = [run for run in section.runs if run not in data]
        if absent:
            parts.append(missing_stub(section, absent, templates))
            missing.append(section.name)
        else:
            parts.append(fill_section(section, data, templates))
    return "\n\n".join(part.strip("\n") for part in parts) + "\n", missing


# --- writing the document ------------------------------------------------------------------------------------
def shrink_png(path, limit=FIGURE_LIMIT_BYTES):
    """Re-encode a PNG with a 256-colour palette, then smaller and smaller, until it is under limit bytes."""
    from PIL import Image

    image = Image.open(path).convert("RGB")
    scale = 1.0
    while path.stat().st_size >= limit:
        size = (round(image.width * scale), round(image.height * scale))
        image.resize(size, Image.LANCZOS).quantize(256).save(path, optimize=True)
        scale *= 0.85


def copy_figures(section, out, docs):
    """Copy the figures a section shows from its runs' folders into docs/, each under FIGURE_LIMIT_BYTES."""
    for run, source, name in section.figures:
        target = docs / name
        shutil.copyfile(out / run / source, target)
        if target.stat().st_size >= FIGURE_LIMIT_BYTES:
            shrink_png(target)


def write_document(data, out=OUT, docs=DOCS, templates=TEMPLATES):
    """Fill the templates, copy the filled sections' figures and write docs/validation.md; returns the stubs."""
    text, missing = render(data, templates)
    for section in SECTIONS:
        if section.name not in missing:
            copy_figures(section, out, docs)
    (docs / "validation.md").write_text(text)
    return missing


def check_modes(data, quick):
    """Stop when a run read from out/validation/ was made in the other mode (full vs --quick)."""
    other = [name for name, run in data.items() if run["validate_run"]["quick"] != quick]
    if other:
        sys.exit(f"validate: {', '.join(other)} in out/validation/ ran {'without' if quick else 'with'} --quick; "
                 "rerun them in this mode")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the examples' quick options: a fast check")
    parser.add_argument("--allow-missing", action="store_true",
                        help="write the document from the runs that finished, marking the missing sections")
    parser.add_argument("--only", nargs="+", choices=[run.name for run in RUNS], metavar="RUN",
                        help="rerun these runs only and read the others from out/validation/")
    args = parser.parse_args()
    start = time.perf_counter()
    chosen = [run for run in RUNS if args.only is None or run.name in args.only]
    failed = []
    for index, run in enumerate(chosen, 1):
        if not execute(run, args.quick, index, len(chosen)):
            if not args.allow_missing:
                sys.exit(f"validate: examples/{run.script} ({run.name}) failed, "
                         f"{time.perf_counter() - start:.0f} s in all; docs/validation.md not written")
            failed.append(run.name)
    elapsed = time.perf_counter() - start
    data = load_runs(OUT, [run.name for run in RUNS])
    check_modes(data, args.quick)
    absent = [run.name for run in RUNS if run.name not in data]
    if absent and not args.allow_missing:
        sys.exit(f"validate: no finished run of {', '.join(absent)} in out/validation/; docs/validation.md not written")
    try:
        missing = write_document(data)
    except TemplateError as error:
        sys.exit(f"validate: {error}")
    print(f"wrote docs/validation.md{' without ' + ', '.join(missing) if missing else ''}; examples ran "
          f"{elapsed:.0f} s, {time.perf_counter() - start:.0f} s in all"
          + (" (--quick: not for committing)" if args.quick else ""))
    if failed or missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
