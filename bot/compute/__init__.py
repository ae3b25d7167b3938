"""Running the engine off the event loop: the runner that owns the pools, and its worker jobs."""
