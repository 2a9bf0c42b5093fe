"""The embedded cluster's workers keep numba able to compile, whatever the driver's script imported.

A worker process first imports the driver's main module (multiprocessing's spawn), then applies the
cluster's environment. A script that imports extrados at its top has imported numba by then; had the
environment set NUMBA_NUM_THREADS, numba's configuration would contradict it, and the worker's first
compilation after its threads started would fail ("Cannot set NUMBA_NUM_THREADS to a different value
once the threads have been launched"): the CI failure of the batch benchmark on a fresh kernel cache.
"""
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import os

    import extrados  # noqa: F401 - imports numba before a worker applies its environment, as a user's script does
    from distributed import Client, LocalCluster

    from extrados.batch.runner import WORKER_ENVIRONMENT


    def numba_threads_as_configured_and_as_set():
        import numba

        return numba.config.NUMBA_NUM_THREADS, int(os.environ.get("NUMBA_NUM_THREADS", numba.config.NUMBA_NUM_THREADS))


    if __name__ == "__main__":
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                          env=WORKER_ENVIRONMENT) as cluster, Client(cluster) as client:
            (configured, environment), = client.run(numba_threads_as_configured_and_as_set).values()
        print(configured, environment)
''')


def test_a_worker_environment_agrees_with_the_numba_it_imported(tmp_path):
    script = tmp_path / "batch_script.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    configured, environment = map(int, done.stdout.split())
    assert configured == environment
