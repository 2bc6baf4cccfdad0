"""The app under the crowd benchmark: ``streamlit run app.py`` as the README starts it (one process),
or ``serve.py``'s nginx in front of N of them; every process through ``_stats_server.py`` (cache
hit counts, each run's CPU), the process trees' RSS sampled each second. Loopback only; every
process stopped by PID. (A leading underscore: not a benchmark of its own.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from serve import Cluster, free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[1]
STATS_RUNNER = [sys.executable, str(Path(__file__).with_name("_stats_server.py"))]
TRACEBACK = "Traceback (most recent call last)"


class Servers:
    """``processes`` app processes; with ``proxy`` (always when there are several) nginx in front."""

    def __init__(self, *, processes: int, proxy: bool, root: Path = ROOT):
        self.folder = Path(tempfile.mkdtemp(prefix="crowd-"))
        self.stats_dir = self.folder / "stats"
        self.stats_dir.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith("LAB_DATA_DIR")}
        env["LAB_STATS_DIR"] = str(self.stats_dir)
        self.proxy = proxy or processes > 1
        self.cluster: Cluster | None = None
        self.proc: subprocess.Popen | None = None
        if self.proxy:
            self.cluster = Cluster(processes=processes, port=free_port(), runner=STATS_RUNNER, env=env,
                                   logs=self.folder, root=root)
        else:
            self.port = free_port()
            self.log = open(self.folder / f"streamlit-{self.port}.log", "wb")
            self.proc = subprocess.Popen(  # the README's command, on a free loopback port
                [*STATS_RUNNER, "run", "app.py", "--server.port", str(self.port), "--server.address", "127.0.0.1"],
                cwd=root, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.samples: list[tuple[float, float]] = []  # (monotonic, RSS MiB of every process tree)
        self._stop = threading.Event()

    def start(self, timeout: float = 180.0) -> Servers:
        if self.cluster is not None:
            self.cluster.start(timeout)
        else:
            wait_healthy(self.base, self.proc, timeout, "streamlit")
        threading.Thread(target=self._sample, daemon=True).start()
        return self

    @property
    def base(self) -> str:
        return self.cluster.base if self.cluster else f"http://127.0.0.1:{self.port}"

    @property
    def backends(self) -> list[str]:
        """Each app process's own address (the warm-up visits each one)."""
        ports = self.cluster.backends if self.cluster else [self.port]
        return [f"http://127.0.0.1:{p}" for p in ports]

    def roots(self) -> list[int]:
        return self.cluster.pids() if self.cluster else [self.proc.pid]

    def processes(self) -> list[psutil.Process]:
        out = []
        for pid in self.roots():
            try:
                p = psutil.Process(pid)
                out += [p, *p.children(recursive=True)]
            except psutil.Error:
                pass
        return out

    def rss_mib(self) -> float:
        total = 0
        for p in self.processes():
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total / 2**20

    def cpu_s(self) -> float:
        total = 0.0
        for p in self.processes():
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.Error:
                pass
        return total

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.samples.append((time.monotonic(), self.rss_mib()))
            self._stop.wait(1.0)

    def rss_at(self, t: float) -> float:
        """The RSS sample nearest to monotonic time ``t``."""
        return min(self.samples, key=lambda s: abs(s[0] - t))[1] if self.samples else float("nan")

    def stats(self) -> dict:
        """Every process's cache counts, summed by kind, and every run: ``{"caches": …, "runs": […]}``."""
        caches: dict[str, dict[str, int]] = {}
        runs: list = []
        for f in self.stats_dir.glob("*.json"):
            try:
                s = json.loads(f.read_text())
            except (OSError, ValueError):
                continue
            for k, v in s["caches"].items():
                c = caches.setdefault(k, {"hits": 0, "misses": 0})
                c["hits"] += v["hits"]
                c["misses"] += v["misses"]
            runs += s["runs"]
        return {"caches": caches, "runs": runs}

    def tracebacks(self) -> int:
        return sum(p.read_text(errors="replace").count(TRACEBACK) for p in self.folder.glob("streamlit-*.log"))

    def dead(self) -> str | None:
        if self.cluster is not None:
            return self.cluster.dead()
        return None if self.proc.poll() is None else f"streamlit exited with {self.proc.returncode}"

    def stop(self) -> None:
        self._stop.set()
        if self.cluster is not None:
            self.cluster.stop()
        elif self.proc is not None:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(5)
            self.log.close()
