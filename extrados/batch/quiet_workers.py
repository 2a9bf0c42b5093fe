"""A Dask worker plugin of the embedded cluster (extrados.batch.runner): no heartbeat traceback as it closes.

When the driver closes its cluster (at the end, or on Ctrl-C) a worker's heartbeat in flight meets the
scheduler's closed connection, and the worker logs that as an error with a traceback in the user's
terminal. The cluster is ours and is closing: there is nothing to report.
"""
import logging

from distributed.diagnostics.plugin import WorkerPlugin

#: The start of the worker's log record for a heartbeat the scheduler did not answer.
HEARTBEAT_FAILURE = "Failed to communicate with scheduler during heartbeat"


def not_a_heartbeat_failure(record):
    """logging filter: False for the worker's heartbeat-failure record."""
    return not str(record.msg).startswith(HEARTBEAT_FAILURE)


class QuietHeartbeats(WorkerPlugin):
    """Filters the heartbeat failure out of each worker's ``distributed.worker`` log."""

    name = "extrados-quiet-heartbeats"

    def setup(self, worker):
        logging.getLogger("distributed.worker").addFilter(not_a_heartbeat_failure)
