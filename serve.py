"""Serve the app on every core: ``python serve.py [--processes N] [--port 8501] [--address 127.0.0.1]``.

One ``streamlit run app.py`` runs every session's script in threads of one Python process, so it
uses one core however many the machine has. This starts N of them (default: one per core) on
loopback ports and nginx in front, on one address:

* **sticky sessions**: a new visitor goes to the next process in turn (round robin) and gets a
  cookie (``lab_backend``) naming it; every later request of that browser — the websocket, uploads,
  downloads, media — goes to the same process, which holds its session. If that process is gone,
  another one answers (a new session);
* the websocket ``/_stcore/stream`` is passed through (HTTP/1.1 upgrade, no read timeout);
* the page shell's static files (``/static/…``, immutable, named by their content) are fetched
  from a process once and then served by nginx from its cache, gzipped;
* uploads up to the app's limit (``server.maxUploadSize`` in ``.streamlit/config.toml``) are
  streamed through, not buffered.

Each process reads ``.streamlit/config.toml`` (file watcher off, limits, no usage statistics), as
``streamlit run app.py`` does, and loads its own copy of each family's data: its first visitor
waits for the loading (about 10 s on the samples), and memory is about N times one process's.
Results are shared by content among the sessions of one process (``lab.data.shared``), not
between processes. nginx is Debian's (``apt-get install nginx-light``) or any nginx on ``PATH``
(``--nginx``); its configuration and logs go to a temporary folder, removed at exit. Ctrl-C (or
SIGTERM) stops nginx and every process; if one of them exits, all are stopped (exit 1).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent
MAX_PROCESSES = 16
#: the cookie naming a visitor's process
COOKIE = "lab_backend"


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def upload_mib(root: Path = ROOT) -> int:
    """``server.maxUploadSize`` from ``.streamlit/config.toml`` (Streamlit's default, 200, without one)."""
    import tomllib

    path = root / ".streamlit" / "config.toml"
    if not path.is_file():
        return 200
    return int(tomllib.loads(path.read_text()).get("server", {}).get("maxUploadSize", 200))


def nginx_conf(*, port: int, address: str, backends: Sequence[int], folder: Path, upload: int) -> str:
    """nginx's configuration: ``address:port`` in front of the loopback ``backends`` (ports),
    sticky by the ``lab_backend`` cookie, new visitors in turn; files under ``folder``."""
    if not backends:
        raise ValueError(f"expected at least one backend port, got {list(backends)}")
    pools = "\n".join(
        f"    upstream lab_{p} {{\n        server 127.0.0.1:{p};\n"
        + "".join(f"        server 127.0.0.1:{q} backup;\n" for q in backends if q != p)
        + "    }" for p in backends)
    by_cookie = "".join(f"        {p} lab_{p};\n" for p in backends)
    served = "".join(f"        127.0.0.1:{p} {p};\n" for p in backends)
    every = "".join(f"        server 127.0.0.1:{p};\n" for p in backends)
    return f"""# written by serve.py: nginx in front of {len(backends)} streamlit process(es)
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    proxy_cache_path {folder}/cache levels=1:2 keys_zone=lab_static:4m max_size=256m inactive=7d use_temp_path=off;
    types {{ text/html html; text/css css; application/javascript js; application/json json; image/png png; }}

    # new visitors in turn; a visitor with the cookie to its process (its backup: the others)
    upstream lab_new {{
{every}    }}
{pools}
    map $cookie_{COOKIE} $lab_pool {{
        default lab_new;
{by_cookie}    }}
    map $upstream_addr $lab_served {{
        default "";
{served}    }}
    map $http_upgrade $lab_connection {{
        default upgrade;
        "" "";
    }}

    gzip on;
    gzip_comp_level 1;
    gzip_proxied any;
    gzip_types text/css application/javascript application/json text/plain image/svg+xml;

    server {{
        listen {address}:{port};
        client_max_body_size {upload}m;
        proxy_request_buffering off;
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $lab_connection;
        proxy_read_timeout 1d;
        proxy_send_timeout 1d;

        location /static/ {{
            proxy_pass http://$lab_pool;
            proxy_cache lab_static;
            proxy_cache_valid 200 7d;
            proxy_cache_lock on;
            add_header X-Cache-Status $upstream_cache_status always;
        }}
        location / {{
            proxy_pass http://$lab_pool;
            add_header Set-Cookie "{COOKIE}=$lab_served; Path=/; HttpOnly; SameSite=Lax" always;
        }}
    }}
}}
"""


def wait_healthy(base: str, proc: subprocess.Popen, timeout: float, what: str) -> None:
    """Wait until ``base``'s ``/_stcore/health`` answers 200 (raise ``RuntimeError`` when ``proc``
    exits first or ``timeout`` seconds pass)."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not answer within {timeout:.0f} s")
        time.sleep(0.25)


class Cluster:
    """nginx on ``address:port`` in front of ``processes`` ``streamlit run app.py`` on loopback ports.

    ``runner`` is the command that runs Streamlit (default ``python -m streamlit``; the load
    benchmark passes one that also records cache statistics); ``env`` the processes' environment;
    ``logs`` a folder for each process's output (default: the temporary folder of nginx's files).
    ``start()`` returns once every process and nginx answer; ``stop()`` ends them by PID.
    """

    def __init__(self, *, processes: int, port: int, address: str = "127.0.0.1", nginx: str = "nginx",
                 runner: Sequence[str] | None = None, env: dict[str, str] | None = None, logs: Path | None = None,
                 root: Path = ROOT):
        if not 1 <= processes <= MAX_PROCESSES:
            raise ValueError(f"expected 1 to {MAX_PROCESSES} processes, got {processes}")
        self.processes, self.port, self.address, self.root = processes, port, address, root
        self.nginx = shutil.which(nginx) or nginx
        self.runner = list(runner or [sys.executable, "-m", "streamlit"])
        self.env = dict(os.environ if env is None else env)
        self.folder = Path(tempfile.mkdtemp(prefix="lab-serve-"))
        self.folder.chmod(0o755)  # nginx's workers (another user when started as root) write its cache here
        self.logs = logs or self.folder
        self.backends: list[int] = []
        self.procs: list[subprocess.Popen] = []
        self.proxy: subprocess.Popen | None = None
        self._files: list = []

    @property
    def base(self) -> str:
        host = "127.0.0.1" if self.address in ("0.0.0.0", "") else self.address
        return f"http://{host}:{self.port}"

    def start(self, timeout: float = 120.0) -> Cluster:
        if not Path(self.nginx).is_file():
            raise RuntimeError(f"nginx not found ({self.nginx}): apt-get install nginx-light, or pass --nginx PATH")
        try:
            for _ in range(self.processes):
                port = free_port()
                out = open(self.logs / f"streamlit-{port}.log", "wb")
                self._files.append(out)
                self.procs.append(subprocess.Popen(
                    [*self.runner, "run", "app.py", "--server.port", str(port), "--server.address", "127.0.0.1"],
                    cwd=self.root, env=self.env, stdout=out, stderr=subprocess.STDOUT))
                self.backends.append(port)
            conf = self.folder / "nginx.conf"
            conf.write_text(nginx_conf(port=self.port, address=self.address, backends=self.backends,
                                       folder=self.folder, upload=upload_mib(self.root)))
            for port, proc in zip(self.backends, self.procs, strict=True):
                wait_healthy(f"http://127.0.0.1:{port}", proc, timeout, f"streamlit on port {port}")
            self.proxy = subprocess.Popen([self.nginx, "-p", str(self.folder), "-c", str(conf), "-e",
                                           str(self.folder / "error.log"), "-g", "daemon off;"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
            wait_healthy(self.base, self.proxy, 20, f"nginx (see {self.folder / 'error.log'})")
        except BaseException:
            self.stop()
            raise
        return self

    def pids(self) -> list[int]:
        return [p.pid for p in [*self.procs, *([self.proxy] if self.proxy else [])]]

    def dead(self) -> str | None:
        """What has exited, if anything has."""
        for port, p in zip(self.backends, self.procs, strict=True):
            if p.poll() is not None:
                return f"streamlit on port {port} exited with {p.returncode}"
        if self.proxy is not None and self.proxy.poll() is not None:
            return f"nginx exited with {self.proxy.returncode} (see {self.folder / 'error.log'})"
        return None

    def stop(self) -> None:
        for p in [*([self.proxy] if self.proxy else []), *self.procs]:
            if p.poll() is None:
                p.terminate()
        for p in [*([self.proxy] if self.proxy else []), *self.procs]:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        for f in self._files:
            f.close()
        shutil.rmtree(self.folder, ignore_errors=True)  # nginx's files (and the logs, unless given a folder)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python serve.py", description=__doc__.split("\n\n")[0].split(": ", 1)[0]
                                 + ": N app processes behind nginx, sticky sessions.")
    ap.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                    help=f"app processes, 1-{MAX_PROCESSES} (default: one per core, {os.cpu_count()})")
    ap.add_argument("--port", type=int, default=8501, help="the address's port (default 8501)")
    ap.add_argument("--address", default="127.0.0.1",
                    help="where to listen (default 127.0.0.1; 0.0.0.0 for every interface)")
    ap.add_argument("--nginx", default="nginx", help="the nginx program (default: nginx on PATH)")
    a = ap.parse_args(argv)
    if not 1 <= a.processes <= MAX_PROCESSES or not 1 <= a.port <= 65535:
        ap.error(f"expected --processes 1-{MAX_PROCESSES} and --port 1-65535, got {a.processes} and {a.port}")
    cluster = Cluster(processes=a.processes, port=a.port, address=a.address, nginx=a.nginx)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    try:
        cluster.start()
        print(f"Leaderboard Lab: {cluster.base} — nginx in front of {a.processes} streamlit process(es) on ports "
              f"{', '.join(map(str, cluster.backends))}; files in {cluster.folder}. Ctrl-C stops.", flush=True)
        while not stopping:
            gone = cluster.dead()
            if gone:
                print(f"{gone}: stopping; the end of its output:", file=sys.stderr)
                for log in sorted(cluster.logs.glob("*.log")):
                    print(f"--- {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:]),
                          file=sys.stderr)
                return 1
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    except RuntimeError as err:
        print(f"serve.py: {err}", file=sys.stderr)
        return 1
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
