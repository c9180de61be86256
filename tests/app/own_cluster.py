"""A Redis Cluster of the tests' own: 3 masters and 3 replicas on free ports, made with
``redis-server --cluster-enabled yes`` and ``redis-cli --cluster create``, removed at the
end. The suite starts one per test session (``redis_cluster`` in conftest.py); tests that
kill its nodes make one of their own."""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
from live import in_ci


@dataclass
class ClusterNode:
    port: int
    process: subprocess.Popen[bytes]
    args: list[str] = field(default_factory=list)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5)


@dataclass
class OwnCluster:
    nodes: list[ClusterNode] = field(default_factory=list)

    @property
    def seeds(self) -> str:
        """``--redis-cluster``'s value: every node's address."""
        return ",".join(node.address for node in self.nodes)

    def alive(self) -> list[ClusterNode]:
        return [node for node in self.nodes if node.process.poll() is None]

    def role(self, node: ClusterNode) -> tuple[str, int | None]:
        """('master', None), or ('slave', the port of its master)."""
        info = node.client().info("replication")
        if info["role"] == "master":
            return "master", None
        return "slave", int(info["master_port"])

    def masters(self) -> list[ClusterNode]:
        return [node for node in self.alive() if self.role(node)[0] == "master"]

    def replicas_of(self, master: ClusterNode) -> list[ClusterNode]:
        return [
            n for n in self.alive() if n is not master and self.role(n) == ("slave", master.port)
        ]

    def master_of_slot(self, slot: int) -> ClusterNode:
        for start, end, primary, *_ in self.nodes[0].client().execute_command("CLUSTER SLOTS"):
            if start <= slot <= end:
                port = int(primary[1])
                return next(node for node in self.nodes if node.port == port)
        raise LookupError(slot)

    def kill(self, node: ClusterNode) -> None:
        """kill -9: no shutdown, no last write to disk."""
        node.process.send_signal(signal.SIGKILL)
        node.process.wait(timeout=10)

    def restart(self, node: ClusterNode) -> None:
        """Start a killed node again, as it was (it rejoins from its nodes.conf: a replica
        of the master promoted in its place)."""
        node.process = subprocess.Popen(
            node.args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        _wait_ping(node)

    def wait_replicated(self, master: ClusterNode, timeout: float = 30.0) -> None:
        """Until a replica of ``master`` is attached and has every write it has."""
        deadline = time.monotonic() + timeout
        while True:
            info = master.client().info("replication")
            offset = info["master_repl_offset"]
            replicas = [v for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)]
            if any(r.get("state") == "online" and r.get("offset") == offset for r in replicas):
                return
            assert time.monotonic() < deadline, "the replica did not catch up"
            time.sleep(0.05)

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Until every live node says the cluster is ok and agrees on who serves each slot
        (after a failover: the promoted replica)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                states = [n.client().cluster("info") for n in self.alive()]
                layouts = {
                    tuple(sorted((s, e, int(p[1])) for s, e, p, *_ in n.client().cluster("slots")))
                    for n in self.alive()
                }
                live_ports = {n.port for n in self.alive()}
                served = next(iter(layouts)) if len(layouts) == 1 else ()
                if (
                    all(s["cluster_state"] == "ok" for s in states)
                    and served
                    and sum(e - s + 1 for s, e, _ in served) == 16384
                    and all(port in live_ports for _, _, port in served)
                ):
                    return
            except redis.RedisError:
                pass
            assert time.monotonic() < deadline, "the cluster did not settle"
            time.sleep(0.1)


def _binaries() -> tuple[str, str]:
    server, cli = shutil.which("redis-server"), shutil.which("redis-cli")
    if server is None or cli is None:
        if in_ci():
            pytest.fail("CI=true but redis-server / redis-cli are not installed")
        pytest.skip("redis-server / redis-cli are not installed")
    return server, cli


@contextlib.contextmanager
def own_cluster(
    directory: Path, *options: str, node_timeout_ms: int = 2000
) -> Iterator[OwnCluster]:
    """Six ``redis-server --cluster-enabled yes`` (nothing on disk unless ``options`` say
    so), joined by ``redis-cli --cluster create --cluster-replicas 1``; stopped at the end."""
    server, cli = _binaries()
    cluster = OwnCluster()
    try:
        ports = _free_ports(12)
        for n in range(6):
            port, bus = ports[2 * n], ports[2 * n + 1]
            home = directory / f"node{n}"
            home.mkdir(parents=True, exist_ok=True)
            args = [server, "--port", str(port), "--cluster-port", str(bus)]
            args += ["--bind", "127.0.0.1", "--dir", str(home), "--cluster-enabled", "yes"]
            args += ["--cluster-config-file", "nodes.conf"]
            args += ["--cluster-node-timeout", str(node_timeout_ms)]
            # A replica's first sync starts at once (Redis waits 5 s by default for more
            # replicas to share it).
            args += ["--repl-diskless-sync-delay", "0"]
            args += ["--save", "", "--appendonly", "no", *options]
            process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            cluster.nodes.append(ClusterNode(port, process, args))
        for node in cluster.nodes:
            _wait_ping(node)
        created = subprocess.run(
            [cli, "--cluster", "create", *(n.address for n in cluster.nodes)]
            + ["--cluster-replicas", "1", "--cluster-yes"],
            capture_output=True,
            timeout=60,
        )
        assert created.returncode == 0, created.stdout.decode() + created.stderr.decode()
        cluster.wait_ok()
        # Replicas attached and in sync: a failover test needs every master's replica.
        deadline = time.monotonic() + 30
        while not all(len(cluster.replicas_of(m)) == 1 for m in cluster.masters()):
            roles = {n.port: cluster.role(n) for n in cluster.alive()}
            assert time.monotonic() < deadline, f"replicas did not attach: {roles}"
            time.sleep(0.1)
        for master in cluster.masters():
            cluster.wait_replicated(master)
        yield cluster
    finally:
        for node in cluster.nodes:
            if node.process.poll() is None:
                node.process.terminate()
        for node in cluster.nodes:
            try:
                node.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                node.process.kill()
                node.process.wait(timeout=10)


def _free_ports(count: int) -> list[int]:
    """``count`` distinct free ports (held open together while chosen)."""
    with contextlib.ExitStack() as stack:
        ports = []
        for _ in range(count):
            s = stack.enter_context(socket.socket())
            s.bind(("127.0.0.1", 0))
            ports.append(int(s.getsockname()[1]))
        return ports


def _wait_ping(node: ClusterNode) -> None:
    client = node.client()
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            return
        except redis.ConnectionError:
            assert node.process.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server did not come up"
            time.sleep(0.05)


def drop_cluster_prefix(cluster: OwnCluster, prefix: str) -> None:
    """Delete every key under ``prefix`` on every master."""
    for master in cluster.masters():
        client = master.client()
        for key in client.scan_iter(match=f"{prefix}:*", count=500):
            client.delete(key)
