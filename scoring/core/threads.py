"""BLAS threads on a shared machine.

numpy's OpenBLAS starts one thread per core for a matrix product and its threads wait for
work by spinning. When the cores are busy with other work, those threads spin through their
time slices: a (4 × 20,000) @ (20,000 × 104) product measured 91 ms of CPU with two BLAS
threads against 3.6 ms with one, at a load average of 9 on two cores (issue 42). The
engine's products are thin (teams × units, replicates × units), where a second thread gains
little even on an idle machine, so the command line and the bootstrap's sums run with one
BLAS thread. (The fan-out's worker processes get one already: loky sets it.)
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext

_controller = None  # threadpoolctl's view of the loaded BLAS libraries, found once per process


def _limiter(n: int):
    global _controller
    try:
        if _controller is None:
            from threadpoolctl import ThreadpoolController  # installed with scikit-learn

            _controller = ThreadpoolController()
        return _controller.limit(limits=n, user_api="blas")
    except Exception:  # no threadpoolctl, or a BLAS it does not know: leave the threads as they are
        return nullcontext()


@contextmanager
def blas_threads(n: int = 1):
    """Run the block with at most ``n`` BLAS threads (restored afterwards).

    >>> import numpy as np
    >>> with blas_threads(1):
    ...     float((np.ones((2, 3)) @ np.ones((3, 2)))[0, 0])
    3.0
    """
    with _limiter(n):
        yield
