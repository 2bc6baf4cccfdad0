"""How the benchmarks time things (issue 42): interleaved repetitions in one process, the
minimum and the median of wall and CPU time, the load average beside every figure, and the
peak memory of a whole process tree. (A leading underscore: not a benchmark of its own.)

On a shared machine absolute times move with the other work; two things timed alternately in
one process see the same busy spells, so their ratio holds better than either figure. CPU
time counts every thread of this process (``time.process_time``) and of the worker processes
a call fans out to (:func:`timed`), so it is steadier than the wall clock and says how much
work a call did, however the cores were shared.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


def load_line() -> str:
    """``load average 1.2 / 0.9 / 0.7 (1, 5, 15 min) on 2 CPUs``."""
    a, b, c = os.getloadavg()
    return f"load average {a:.1f} / {b:.1f} / {c:.1f} (1, 5, 15 min) on {os.cpu_count()} CPUs"


@dataclass
class Times:
    """Wall and CPU seconds of repeated runs of one thing."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)  # 1-minute load average after each run

    def add(self, wall: float, cpu: float) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)
        self.loads.append(os.getloadavg()[0])

    @property
    def min_wall(self) -> float:
        return float(min(self.wall))

    @property
    def med_wall(self) -> float:
        return float(np.median(self.wall))

    @property
    def min_cpu(self) -> float:
        return float(min(self.cpu))

    @property
    def med_cpu(self) -> float:
        return float(np.median(self.cpu))

    def text(self, unit: str = "s") -> str:
        """``wall min 1.23 / median 1.40 s, CPU min 1.10 / median 1.12 s``."""
        k = 1000.0 if unit == "ms" else 1.0
        return (f"wall min {self.min_wall * k:.{_digits(self.min_wall * k)}f} / median "
                f"{self.med_wall * k:.{_digits(self.med_wall * k)}f} {unit}, CPU min "
                f"{self.min_cpu * k:.{_digits(self.min_cpu * k)}f} / median {self.med_cpu * k:.{_digits(self.med_cpu * k)}f} "
                f"{unit}")

    def load_range(self) -> str:
        return f"{min(self.loads):.1f}-{max(self.loads):.1f}" if self.loads else "?"


def _digits(x: float) -> int:
    return 0 if x >= 100 else 1 if x >= 10 else 2 if x >= 0.1 else 3


def worker_cpu() -> float:
    """CPU seconds so far of this process's descendants (worker processes), from ``/proc``
    (in clock ticks: 10 ms each here)."""
    me = os.getpid()
    return sum(_cpu_ticks(p) for p in tree_pids(me) if p != me) / os.sysconf("SC_CLK_TCK")


def timed(fn: Callable[[], object]) -> tuple[float, float, object]:
    """``(wall, cpu, result)`` of one call; ``cpu`` counts every thread of this process and
    the worker processes it keeps (a call that fans out to them is charged their work)."""
    w, c, k = time.perf_counter(), time.process_time(), worker_cpu()
    out = fn()
    return time.perf_counter() - w, time.process_time() - c + worker_cpu() - k, out


def interleaved(fns: dict[str, Callable[[], object]], repeats: int, *, warm: bool = True,
                check: Callable[[str, object], None] | None = None, say: Callable[[str], None] | None = None
                ) -> dict[str, Times]:
    """Each of ``fns`` run ``repeats`` times, alternately (a, b, a, b, …), after one untimed
    warm-up call each (``warm``: imports and first-call costs then land outside the figures;
    without it the first repetition includes them). ``check(name, result)`` sees every result."""
    out = {k: Times() for k in fns}
    if warm:
        for k, fn in fns.items():
            r = fn()
            if check:
                check(k, r)
    for rep in range(repeats):
        for k, fn in fns.items():
            w, c, r = timed(fn)
            out[k].add(w, c)
            if check:
                check(k, r)
            if say:
                say(f"  [{rep + 1}/{repeats}] {k}: {w:.3f} s wall, {c:.3f} s CPU (load {os.getloadavg()[0]:.1f})")
    return out


def tree_pids(pid: int) -> list[int]:
    """``pid`` and every process descending from it (from ``/proc/*/task/*/children``)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
    return out


def _cpu_ticks(pid: int) -> int:
    """utime + stime of a process and of its children it waited for, in clock ticks."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    except (OSError, IndexError, ValueError):
        return 0


def tree_cpu(pid: int | None = None) -> float:
    """CPU seconds so far of a process tree (default: this process): every live process in
    it, with what each has collected from its ended children. A worker that ended without
    being waited for is missed; sample before and after and take the difference."""
    pid = os.getpid() if pid is None else pid
    return sum(_cpu_ticks(p) for p in tree_pids(pid)) / os.sysconf("SC_CLK_TCK")


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except (OSError, IndexError, ValueError):
        return 0


class TreeMemory:
    """Samples the summed resident memory of a process tree every ``every`` seconds while
    running (a thread): ``peak_mib`` is the largest sum seen (workers included)."""

    def __init__(self, pid: int | None = None, every: float = 0.05):
        self.pid = os.getpid() if pid is None else pid
        self.every = every
        self.peak_kib = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.every)

    def sample(self) -> None:
        self.peak_kib = max(self.peak_kib, sum(_rss_kib(p) for p in tree_pids(self.pid)))

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()

    @property
    def peak_mib(self) -> float:
        return self.peak_kib / 1024


@dataclass
class Run:
    """One command run: wall seconds, CPU seconds of it and its children, the peak summed RSS
    of its process tree (MiB), its exit code and output."""

    wall: float
    cpu: float
    peak_mib: float
    code: int
    stdout: str
    stderr: str


def run_command(cmd: Sequence[str], *, cwd: Path | str | None = None, env: dict | None = None,
                timeout: float | None = None) -> Run:
    """Run ``cmd`` (a new process, as a user would) and measure it (:class:`Run`). CPU time is
    the user + system time of the process and of every child it waited for."""
    before = os.times()
    t = time.perf_counter()
    proc = subprocess.Popen(list(cmd), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with TreeMemory(proc.pid) as mem:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
    wall = time.perf_counter() - t
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return Run(wall, cpu, mem.peak_mib, proc.returncode, out, err)
