"""The app under load: ``streamlit run`` on a free loopback port (through ``_timed_server.py``,
which logs each script run), its process tree's RSS sampled each second (``benchmarks.load``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


# ---- the server ---------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(proc: subprocess.Popen, base: str, timeout: float, log: str = "") -> None:
    """Wait until the Streamlit server ``proc`` answers its health check at ``base`` (raises
    ``RuntimeError`` when it exits first or does not answer within ``timeout`` seconds; ``log``
    names where its output went). The browser tests start their servers with it too."""
    from serve import wait_healthy as healthy  # the production server's own wait (serve.py)

    try:
        healthy(base, proc, timeout, "streamlit")
    except RuntimeError as err:
        raise RuntimeError(f"{err}; see {log}" if log else str(err)) from None


class Server:
    """``streamlit run <script>`` on a free loopback port, its process tree's RSS sampled each second."""

    def __init__(self, root: Path, script: str = "app.py", log: Path | None = None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("LAB_DATA_DIR")}
        fd, name = tempfile.mkstemp(prefix="load-bench-runs-")
        os.close(fd)
        self.runs_file = Path(name)
        env["LAB_RUN_LOG"] = str(self.runs_file)
        self.log = open(log or os.devnull, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("_timed_server.py")), "run", script, "--server.headless", "true",
             "--server.port", str(self.port), "--server.address", "127.0.0.1",
             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
            cwd=root, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.rss: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self.t0 = time.monotonic()

    def wait_healthy(self, timeout: float = 120.0) -> None:
        wait_healthy(self.proc, self.base, timeout)
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self) -> None:
        import psutil

        proc = psutil.Process(self.proc.pid)
        while not self._stop.is_set():
            try:
                total = sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)])
            except psutil.Error:
                break
            self.rss.append((time.monotonic() - self.t0, total / 2**20))
            self._stop.wait(1.0)

    def runs(self) -> list[tuple[str, float, float]]:
        """Every script run so far: (session, start, end), wall clock."""
        out = []
        for line in self.runs_file.read_text().splitlines():
            sid, start, end = line.split("\t")
            out.append((sid, float(start), float(end)))
        return out

    def stop(self) -> None:
        self._stop.set()
        self.runs_file.unlink(missing_ok=True)
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
