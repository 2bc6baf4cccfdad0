"""A task module for the fan-out's start-up test: it records which process imported it."""

import os

IMPORTED_IN = os.getpid()


def where(_shared, _item) -> tuple[int, int]:
    """(this worker's pid, the pid of the process that imported this module)."""
    return os.getpid(), IMPORTED_IN
