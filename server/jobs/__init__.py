"""Jobs of the service: a SQLite store, worker processes and the runner that dispatches them."""
