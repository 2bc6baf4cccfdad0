"""``serve.py`` (issue 43): N ``streamlit run`` processes behind nginx on one address, sticky sessions.

nginx's own check (``nginx -t``) reads the configuration it writes; then two real processes (of a
one-line app that prints its process id) behind a real nginx: new visitors are dealt to the
processes in turn, a visitor's cookie keeps every request — the websocket and its runs included —
on its process, the static files come from nginx's cache after the first fetch, and stopping ends
every process. Without nginx these tests skip locally and fail when ``CI=true`` (``.ci/run``
installs Debian's nginx-light)."""

from __future__ import annotations

import asyncio
import http.client
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import serve
from benchmarks._st_client import Visitor

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def need_nginx() -> None:
    if not Path(NGINX).is_file():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nginx is missing in CI (.ci/run installs nginx-light)")
        pytest.skip("nginx is not installed (apt-get install nginx-light)")


def test_the_configuration_names_every_process_and_nginx_accepts_it(tmp_path):
    need_nginx()
    conf = serve.nginx_conf(port=8123, address="127.0.0.1", backends=[9001, 9002, 9003], folder=tmp_path, upload=500)
    for p in (9001, 9002, 9003):
        assert f"        {p} lab_{p};" in conf  # the cookie's value -> that process's pool
        assert f"        127.0.0.1:{p} {p};" in conf  # the process that answered -> the cookie's value
        pool = re.search(rf"upstream lab_{p} {{(.*?)}}", conf, re.S).group(1)
        assert f"server 127.0.0.1:{p};" in pool and pool.count("backup;") == 2  # the others stand in
    assert "listen 127.0.0.1:8123;" in conf and "client_max_body_size 500m;" in conf
    (tmp_path / "nginx.conf").write_text(conf)
    out = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e",
                          str(tmp_path / "error.log")], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr


def test_no_backend_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="expected at least one backend port"):
        serve.nginx_conf(port=8123, address="127.0.0.1", backends=[], folder=tmp_path, upload=1)


@pytest.mark.parametrize("args", [["--processes", "0"], ["--processes", "17"], ["--port", "0"]])
def test_the_command_bounds_its_options(args, capsys):
    with pytest.raises(SystemExit) as ex:
        serve.main(args)
    assert ex.value.code == 2 and "expected --processes 1-16 and --port 1-65535" in capsys.readouterr().err


APP = """import os
import streamlit as st
st.title("pid")
st.write(f"pid {os.getpid()}")
st.slider("x", 0, 10, 5)
"""


def _get(base: str, path: str, cookie: str = "") -> http.client.HTTPResponse:
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    r = conn.getresponse()
    r.body = r.read()
    conn.close()
    return r


async def _pid(base: str, cookies: dict[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """A new visitor (with ``cookies``, if any): the process id its page shows, and its cookies."""
    v = Visitor(base, assets=False, timeout=60)
    if cookies:
        v.http.cookies.update(cookies)
    run = await v.open()
    await v.close()
    assert not run.exceptions
    return v.last.view, dict(v.http.cookies)


@pytest.mark.slow
def test_two_processes_behind_nginx_sticky_sessions_and_a_static_cache(tmp_path):
    need_nginx()
    (tmp_path / "app.py").write_text(APP)
    cluster = serve.Cluster(processes=2, port=serve.free_port(), root=tmp_path, nginx=NGINX)
    with cluster:
        pids = [p.pid for p in cluster.procs]
        # new visitors, in turn: each answered by the next process, its cookie naming it
        served = [_get(cluster.base, "/").getheader("Set-Cookie") for _ in range(4)]
        ports = [re.search(r"lab_backend=(\d+)", s).group(1) for s in served]
        assert ports[0] != ports[1] and ports[0] == ports[2] and ports[1] == ports[3]
        assert sorted(set(ports)) == sorted(map(str, cluster.backends))
        # with the cookie, every request stays on its process
        for port in ports[:2]:
            again = [_get(cluster.base, "/", f"lab_backend={port}").getheader("Set-Cookie") for _ in range(3)]
            assert all(f"lab_backend={port};" in s for s in again)
        # a session (websocket and runs) is served by the process its cookie names: the page says which
        views = {}
        for port in cluster.backends:
            view, cookies = asyncio.run(_pid(cluster.base, {"lab_backend": str(port)}))
            assert cookies["lab_backend"] == str(port)
            direct, _ = asyncio.run(_pid(f"http://127.0.0.1:{port}"))
            assert view == direct  # the same page as that process draws for a visitor of its own port
            views[port] = view
        assert views[cluster.backends[0]] != views[cluster.backends[1]]  # (two pids: the pages differ)
        # the static files: the first fetch goes to a process, the next ones come from nginx's cache
        html = _get(cluster.base, "/").body.decode()
        asset = re.findall(r'src="\./(static/[^"]+\.js)"', html)[0]
        first, second = _get(cluster.base, "/" + asset), _get(cluster.base, "/" + asset)
        assert first.status == second.status == 200 and first.body == second.body
        assert second.getheader("X-Cache-Status") == "HIT"
    assert all(p.poll() is not None for p in cluster.procs) and cluster.proxy.poll() is not None
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
