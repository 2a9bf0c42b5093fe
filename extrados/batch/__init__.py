"""Batches of analyses on Dask: a spec of the cases that vary, run as one task each, a table of their results.

``load_spec`` reads and checks a batch spec (batch_schema.json), ``expand`` turns it into its cases,
``run`` computes them on a Dask cluster (embedded or given) into a results table that resumes,
``report`` writes the statistics and fragility of a table (report.json and figures).
"""
from extrados.batch.cases import expand
from extrados.batch.report import report
from extrados.batch.runner import run
from extrados.batch.spec import load_spec

__all__ = ["expand", "load_spec", "report", "run"]
