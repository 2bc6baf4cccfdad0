"""Many people in one demo, measured without browsers: ``python -m benchmarks crowd [--sessions N]
[--seconds T] [--processes P] [--arrival once|staggered|both] [--sweep N,N,…]``.

Starts the app on a free loopback port — ``streamlit run app.py`` as the README starts it (one
process; ``.streamlit/config.toml`` applies), or with ``--processes P`` (P > 1, or ``--proxy``)
``serve.py``'s nginx in front of P of them, sticky sessions — and drives it with visitors that speak
Streamlit's websocket protocol (``benchmarks/_st_client.py``) and draw nothing, so the server gets
the machine. Each visitor downloads the page shell (HTML and static files), opens one page by its
address, waits for its first run, then moves a random enabled sidebar slider one step, thinks
0.5–1 s, and again, for T seconds. The pages, in turn: the five families' leaderboards (Custom
opened with ``?across=weighted``, whose sliders all act), then Rank intervals, Stability map,
Compare settings and Shake-up, each on another family (``?family=``).

1. warm-up: one visitor per app process (at its own port) opens every page and moves once on each:
   each process's data loading and first answers (its first page: reported, not judged); behind
   nginx, the page shell once through it (into its cache, as a deployment's first visitor does);
2. ``once``: N new visitors arrive at the same moment; ``staggered``: N new visitors arrive evenly
   over ``--stagger`` seconds (default 30), each staying T seconds. ``--sweep 10,20,30``: one
   ``once`` round per N instead, for the ceiling (the most sessions at which every target holds).

Reported per round: each first page (arrival → its first run's end, the shell included), the moves
(message sent → the run chain's end on the wire: the server's part of a visitor's wait; a browser
adds its drawing), per page; errors (an exception on a page, a page not found, a timeout or dropped
connection, a traceback in a server's log, a page without a movable slider); moves the app did not
take (its main area and its address unchanged); the server's RSS (every process tree, nginx
included) and CPU; each script run's CPU (its own thread) and wall time; the hit rate of the caches
shared by the sessions of a process (computed results and figures, ``lab.data.shared``; the
scorers' caches); the load average, as the machine may be shared. Targets (exit 1 when one is
missed): every first page ≤ 3 s up to 10 sessions and ≤ 6 s beyond; move median ≤ 1.0 s and p90
≤ 2.5 s; no errors; RSS flat (at the end ≤ 1.10 × its value once every visitor has been in for
20 s, or a third of T when shorter).

Bounded: N ≤ 40, T ≤ 600 s, P ≤ 4, a watchdog stops everything past the rounds' time plus 5
minutes; loopback only; every process stopped by its PID.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import shutil
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import _st_client as client
from ._crowd_server import ROOT, Servers

#: (name, address, query string of the link it is opened with)
PAGES = (
    ("Shovel-Ready leaderboard", "", ""),
    ("spotGEO leaderboard", "spotgeo_leaderboard", ""),
    ("QA leaderboard", "qa_leaderboard", ""),
    ("difficulty leaderboard", "difficulty_leaderboard", ""),
    ("Custom leaderboard", "custom_leaderboard", "across=softmin"),  # α drawn (the weights fold)
    ("Rank intervals (QA)", "robustness_intervals", "family=qa"),
    ("Stability map (spotGEO)", "robustness_stability", "family=spotgeo"),
    ("Compare settings (difficulty)", "robustness_compare", "family=difficulty"),
    ("Shake-up (Shovel-Ready)", "robustness_shakeup", "family=shovel-ready"),
)
THINK = (0.5, 1.0)
MAX_SESSIONS, MAX_SECONDS, MAX_PROCESSES, MAX_STAGGER = 40, 600, 4, 300
TARGET_MEDIAN, TARGET_P90, RSS_GROWTH = 1.0, 2.5, 1.10
TIMEOUT = 120.0  # a run that takes longer is an error


def first_page_target(sessions: int) -> float:
    return 3.0 if sessions <= 10 else 6.0


def q(values: list[float], p: float) -> float:
    """The value at rank ``round(p · (n − 1))`` of the sorted values (one that was seen)."""
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p * (len(s) - 1))))] if s else float("nan")


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):.2f} s, p90 {q(values, 0.9):.2f} s, max {max(values):.2f} s"


@dataclass
class Tally:
    first: list[float] = field(default_factory=list)
    first_by_page: dict[str, list[float]] = field(default_factory=dict)
    shell: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    by_page: dict[str, list[float]] = field(default_factory=dict)
    not_taken: int = 0
    address_only: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    biggest: dict[str, int] = field(default_factory=dict)  # the largest message seen, per page
    processes: dict[str, int] = field(default_factory=dict)  # visitors per app process (serve.py's cookie)

    def run(self, who: str, page: str, run: client.Run) -> None:
        self.errors += [f"{who}: an exception on the page: {e}" for e in run.exceptions]
        if run.not_found:
            self.errors.append(f"{who}: page not found")
        self.biggest[page] = max(self.biggest.get(page, 0), run.biggest)

    def move(self, page: str, moved: tuple, query_before: str, query_after: str) -> None:
        slider, run, changed = moved
        self.moves.append(run.seconds)
        self.by_page.setdefault(page, []).append(run.seconds)
        if not changed:
            if query_after == query_before or run.deltas == 0:
                self.not_taken += 1
            else:
                k = f"{page}: {slider.label}"
                self.address_only[k] = self.address_only.get(k, 0) + 1


async def _moves(v: client.Visitor, name: str, who: str, until: float, rng: random.Random, t: Tally,
                 *, at_least: int = 0) -> None:
    n = 0
    while n < at_least or time.monotonic() < until:
        await asyncio.sleep(rng.uniform(*THINK))
        if n >= at_least and time.monotonic() >= until:
            return
        before = v.query
        moved = await v.move(rng)
        if moved is None:
            t.errors.append(f"{who}: no movable slider in the sidebar")
            return
        t.move(name, moved, before, v.query)
        t.run(who, name, moved[1])
        n += 1


async def visitor(base: str, i: int, delay: float, seconds: float, t: Tally) -> None:
    name, page, query = PAGES[i % len(PAGES)]
    who = f"visitor {i} ({name})"
    rng = random.Random(1000 + i)
    await asyncio.sleep(delay)
    v = client.Visitor(base, page, query, timeout=TIMEOUT)
    try:
        run = await v.open()
        t.first.append(run.seconds)
        t.first_by_page.setdefault(name, []).append(run.seconds)
        t.shell.append(v.shell_seconds)
        where = v.http.cookies.get("lab_backend", "")
        t.processes[where] = t.processes.get(where, 0) + 1
        t.run(who, name, run)
        await _moves(v, name, who, time.monotonic() + seconds, rng, t)
    except Exception as err:  # noqa: BLE001 - counted and named; the other visitors go on
        t.errors.append(f"{who}: {type(err).__name__}: {str(err)[:160]}")
    finally:
        try:
            await v.close()
        except Exception:  # noqa: BLE001
            pass


async def warm(base: str, t: Tally) -> float | None:
    """One visitor on one process: every page by the navigation, one move on each; returns its
    (cold) first page."""
    rng = random.Random(7)
    name, page, query = PAGES[0]
    v = client.Visitor(base, page, query, timeout=TIMEOUT * 2)
    cold = None
    try:
        run = await v.open()
        cold = run.seconds
        t.run("warm-up", name, run)
        for k, (name, page, query) in enumerate(PAGES):
            if k and "=" in query and not query.startswith("family="):
                # a link's own parameters are read on the page it opens (a later page of the session
                # keeps the session's values): a visitor of its own, as the rounds' visitors arrive
                w = client.Visitor(base, page, query, timeout=TIMEOUT * 2)
                try:
                    t.run("warm-up", name, await w.open())
                    await _moves(w, name, f"warm-up ({name})", 0, rng, t, at_least=1)
                finally:
                    await w.close()
                continue
            if k:
                t.run("warm-up", name, await v.goto(page, query))
            await _moves(v, name, f"warm-up ({name})", 0, rng, t, at_least=1)
    except Exception as err:  # noqa: BLE001
        t.errors.append(f"warm-up: {type(err).__name__}: {str(err)[:160]}")
    finally:
        await v.close()
    return cold


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cache_line(before: dict, after: dict) -> str:
    parts = []
    for k in sorted(after):
        h = after[k]["hits"] - before.get(k, {}).get("hits", 0)
        m = after[k]["misses"] - before.get(k, {}).get("misses", 0)
        if h + m:
            parts.append(f"{k} {h} hits / {m} misses ({h / (h + m):.0%})")
    return "; ".join(parts) or "no lookups"


def round_(servers: Servers, sessions: int, seconds: float, stagger: float, label: str) -> list[str]:
    """One round of ``sessions`` visitors; prints its report, returns the targets it missed."""
    load0 = load()
    t = Tally()
    tb0, started = servers.tracebacks(), time.time()
    cpu0, me0, stats0 = servers.cpu_s(), resource.getrusage(resource.RUSAGE_SELF), servers.stats()
    t0 = time.monotonic()

    async def crowd():
        await asyncio.gather(*(visitor(servers.base, i, stagger * i / sessions, seconds, t) for i in range(sessions)))

    asyncio.run(crowd())
    wall = time.monotonic() - t0
    cpu1, me1 = servers.cpu_s(), resource.getrusage(resource.RUSAGE_SELF)
    stats1 = servers.stats()
    time.sleep(1.2)
    tb = servers.tracebacks() - tb0
    if tb:
        t.errors.append(f"{tb} traceback(s) in the server's log ({servers.folder})")
    gone = servers.dead()
    if gone:
        t.errors.append(gone)
    settled = t0 + stagger + min(20.0, seconds / 3)
    rss_mid, rss_end = servers.rss_at(settled), servers.rss_at(t0 + stagger + seconds)
    runs = [r for r in stats1["runs"] if r[0] >= started]
    client_cpu = (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)
    target_first = first_page_target(sessions)

    print(f"\n{sessions} sessions {label}, {seconds:.0f} s each ({wall:.0f} s in all) — load average {load0} at the start")
    print(f"  first page (arrival -> first run's end): {spread(t.first)} (target: every one <= {target_first:g} s); "
          f"the shell (HTML + static files) median {statistics.median(t.shell) if t.shell else float('nan'):.2f} s")
    slow = sorted(((x, k) for k, v in t.first_by_page.items() for x in v), reverse=True)[:3]
    print("    the slowest first pages: " + ", ".join(f"{k} {x:.2f} s" for x, k in slow))
    print(f"  moves: {len(t.moves)}, {spread(t.moves)} (targets: median <= {TARGET_MEDIAN:g} s, p90 <= {TARGET_P90:g} s)")
    for name, _, _ in PAGES:
        if name in t.by_page:
            print(f"    {name:<30} {len(t.by_page[name]):4d} moves, {spread(t.by_page[name])}")
    top = sorted(t.address_only.items(), key=lambda kv: -kv[1])[:4]
    print(f"  moves the app did not take: {t.not_taken}; moves that changed only the address: "
          f"{sum(t.address_only.values())}" + (" (" + ", ".join(f"{k} {n}" for k, n in top) + ")" if top else ""))
    print(f"  errors: {len(t.errors)}" + "".join(f"\n    {e}" for e in t.errors[:10]))
    trace = [servers.rss_at(t0 + k) for k in range(0, int(wall) + 1, 10)]
    print(f"  server RSS (every process, nginx included): {rss_mid:.0f} MiB once all were in, {rss_end:.0f} MiB at "
          f"the end (target: <= {RSS_GROWTH:.2f} x); every 10 s: {', '.join(f'{m:.0f}' for m in trace)} MiB")
    if servers.proxy:
        print("  visitors per app process (port: visitors): "
              + ", ".join(f"{k or '?'}: {n}" for k, n in sorted(t.processes.items())))
    cpu_runs = [r[2] for r in runs]
    print(f"  CPU: server {cpu1 - cpu0:.1f} s over {wall:.0f} s ({(cpu1 - cpu0) / wall:.2f} of {os.cpu_count()} cores), "
          f"visitors {client_cpu / wall:.2f} cores; {len(runs)} script runs: CPU (their own thread) median "
          f"{statistics.median(cpu_runs) if runs else float('nan'):.3f} s, mean "
          f"{statistics.fmean(cpu_runs) if runs else float('nan'):.3f} s; wall median "
          f"{statistics.median([r[1] for r in runs]) if runs else float('nan'):.2f} s")
    print(f"  caches shared by the sessions: {cache_line(stats0['caches'], stats1['caches'])}")
    print(f"  load average at the end {load()}")

    missed = []
    med, p90 = (statistics.median(t.moves), q(t.moves, 0.9)) if t.moves else (float("inf"), float("inf"))
    if len(t.first) < sessions:
        missed.append(f"{sessions - len(t.first)} visitor(s) never got a first page")
    if t.first and max(t.first) > target_first:
        missed.append(f"first page max {max(t.first):.2f} s > {target_first:g} s")
    if med > TARGET_MEDIAN:
        missed.append(f"move median {med:.2f} s > {TARGET_MEDIAN:g} s")
    if p90 > TARGET_P90:
        missed.append(f"move p90 {p90:.2f} s > {TARGET_P90:g} s")
    if t.errors:
        missed.append(f"{len(t.errors)} error(s)")
    if t.not_taken > 0.01 * max(1, len(t.moves)):
        missed.append(f"{t.not_taken} of {len(t.moves)} moves not taken by the app")
    if not rss_end <= RSS_GROWTH * rss_mid:
        missed.append(f"RSS grew {rss_mid:.0f} -> {rss_end:.0f} MiB")
    print(f"crowd {sessions} {label}: {'ok' if not missed else 'MISSED: ' + '; '.join(missed)} | first page max "
          f"{max(t.first) if t.first else float('nan'):.2f} s; moves median {med:.2f} s p90 {p90:.2f} s; errors "
          f"{len(t.errors)}; RSS {rss_mid:.0f}->{rss_end:.0f} MiB; load {load0.split()[0]}->{load().split()[0]}")
    return missed


def parse(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m benchmarks crowd", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=20, help=f"visitors per round, 1-{MAX_SESSIONS} (default 20)")
    ap.add_argument("--seconds", type=float, default=60, help=f"each visitor's time, 5-{MAX_SECONDS} s (default 60)")
    ap.add_argument("--processes", type=int, default=1,
                    help=f"app processes, 1-{MAX_PROCESSES} (default 1: streamlit run app.py; more: serve.py)")
    ap.add_argument("--proxy", action="store_true", help="nginx in front even of one process")
    ap.add_argument("--arrival", choices=("once", "staggered", "both"), default="both")
    ap.add_argument("--stagger", type=float, default=30, help=f"the staggered arrivals' span, 0-{MAX_STAGGER} s")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    ap.add_argument("--sweep", default="", help="one 'once' round per number of sessions, e.g. 10,20,30")
    a = ap.parse_args(argv)
    try:
        a.sweep = [int(x) for x in a.sweep.split(",") if x.strip()]
    except ValueError:
        ap.error(f"expected --sweep as numbers with commas, got {a.sweep!r}")
    if not (1 <= a.sessions <= MAX_SESSIONS and 5 <= a.seconds <= MAX_SECONDS and 1 <= a.processes <= MAX_PROCESSES
            and 0 <= a.stagger <= MAX_STAGGER and len(a.sweep) <= 8
            and all(1 <= n <= MAX_SESSIONS for n in a.sweep)):
        ap.error(f"expected --sessions 1-{MAX_SESSIONS}, --seconds 5-{MAX_SECONDS}, --processes 1-{MAX_PROCESSES}, "
                 f"--stagger 0-{MAX_STAGGER}, --sweep at most 8 numbers of sessions")
    return a


def main(argv: list[str] | None = None) -> int:
    a = parse(list(sys.argv[1:] if argv is None else argv))
    rounds = ([(n, 0.0, "at once") for n in a.sweep] if a.sweep else
              [(a.sessions, 0.0, "at once")] * (a.arrival != "staggered")
              + [(a.sessions, a.stagger, f"arriving over {a.stagger:g} s")] * (a.arrival != "once"))
    budget = 300 + sum(a.seconds + s + 60 for _, s, _ in rounds)
    servers = Servers(processes=a.processes, proxy=a.proxy, root=a.root.resolve())

    def watchdog(*_):
        print(f"crowd: over {budget:.0f} s, stopping", flush=True)
        servers.stop()
        os._exit(1)

    signal.signal(signal.SIGALRM, watchdog)
    signal.alarm(int(budget))
    missed: dict[str, list[str]] = {}
    try:
        t0 = time.monotonic()
        servers.start()
        how = ("streamlit run app.py" if not servers.proxy else
               f"serve.py: nginx in front of {a.processes} streamlit process(es), sticky sessions")
        print(f"server {servers.base} ({how}) healthy after {time.monotonic() - t0:.1f} s; {os.cpu_count()} cores; "
              f"load average {load()}")
        for base in servers.backends:
            t = Tally()
            cold = asyncio.run(warm(base, t))
            print(f"warm-up at {base}: cold first page {cold if cold is None else round(cold, 2)} s (data loading; "
                  f"not judged), then every page: {len(t.moves)} moves, {spread(t.moves)}; errors {len(t.errors)}"
                  + "".join(f"\n    {e}" for e in t.errors[:5]))
            if t.errors:
                missed["warm-up"] = [f"{len(t.errors)} error(s)"]
            big = max(t.biggest.items(), key=lambda kv: kv[1], default=("", 0))
        print(f"largest message of the warm-up: {big[1] / 2**20:.2f} MiB ({big[0]})")
        if servers.proxy:  # the page shell once through nginx, as a deployment's first visitor fetches it
            print(f"the page shell through nginx once: {client.fetch_shell(servers.base) / 1e6:.1f} MB (into its cache)")
        for n, stagger, label in rounds:
            missed[f"{n} {label}"] = round_(servers, n, a.seconds, stagger, label)
        if a.sweep:
            held = [n for n in a.sweep if not missed[f"{n} at once"]]
            broke = [n for n in a.sweep if missed[f"{n} at once"]]
            print(f"\nceiling ({a.processes} process(es)): every target held at {held or 'none'} sessions; "
                  f"missed at {broke or 'none'}")
    except RuntimeError as err:
        print(f"crowd: {err}")
        return 1
    finally:
        signal.alarm(0)
        servers.stop()
        if any(missed.values()):
            print(f"the servers' logs: {servers.folder}")
        else:
            shutil.rmtree(servers.folder, ignore_errors=True)
    return 0 if not any(missed.values()) else 1
