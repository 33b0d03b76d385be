"""The server over real transports: a spawned stdio process, streamable HTTP on a loopback port, a third-party client."""
import contextlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

TOOLS = {"estimate_vram", "compare_gpus", "cloud_cost", "rent_vs_buy", "plan_serving", "plan_training", "biggest_model",
         "estimate_speed"}

SERVER_COMMAND = str(Path(sys.executable).parent / "gpusizer-mcp")
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}


async def test_stdio_subprocess_answers_a_sizing_question():
    async with Client(StdioServerParameters(command=SERVER_COMMAND, args=[])) as client:
        assert {t.name for t in (await client.list_tools()).tools} == TOOLS
        result = await client.call_tool("estimate_vram", {"model": "mistral 7b", "gpu": "l4"})
        assert not result.is_error and result.structured_content["gpu_check"]["gpu_id"] == "l4"


def exchange_lines(lines: list[str]) -> list[dict]:
    """Write raw lines to a spawned server's stdin and read its replies (stdout must be nothing but JSON-RPC)."""
    process = subprocess.Popen([SERVER_COMMAND], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    replies = []
    for line in lines:
        process.stdin.write(line + "\n")
        process.stdin.flush()
        if '"method":"notifications/' not in line.replace(" ", ""):
            replies.append(json.loads(process.stdout.readline()))
    process.stdin.close()
    assert process.wait(timeout=20) == 0
    return replies


def test_malformed_lines_get_error_replies_and_the_server_keeps_serving():
    replies = exchange_lines([
        "this is not json",
        json.dumps(INITIALIZE),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        '{"jsonrpc": "2.0", "id": 2',
        json.dumps({"jsonrpc": "2.0", "id": 3, "surprise": True}),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}),
        json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                    "params": {"name": "cloud_cost", "arguments": {"gpu": "h100", "hours": 2}}}),
    ])
    parse_error, initialized, truncated, invalid, unknown_tool, answered = replies
    assert parse_error == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": parse_error["error"]["message"]}}
    assert initialized["result"]["serverInfo"]["name"] == "gpusizer"
    assert truncated["error"]["code"] == -32700
    assert invalid["id"] == 3 and invalid["error"]["code"] == -32600
    assert unknown_tool["id"] == 4 and unknown_tool["error"]["code"] == -32602
    assert answered["id"] == 5 and answered["result"]["structuredContent"]["offers"]


def test_a_2025_client_sets_the_log_level_and_bad_prompt_calls_are_invalid_params():
    """logging/setLevel is gone from the 2026-07-28 revision but clients on 2025 revisions (the Inspector, the
    conformance suite) send it; prompt errors are -32602, not an internal error."""
    initialize = {**INITIALIZE, "params": {**INITIALIZE["params"], "protocolVersion": "2025-06-18"}}
    replies = exchange_lines([
        json.dumps(initialize),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": {"level": "debug"}}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "prompts/get", "params": {"name": "no_such_prompt"}}),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "prompts/get", "params": {"name": "plan_fine_tune", "arguments": {}}}),
    ])
    initialized, level, unknown_prompt, missing_argument = replies
    assert "logging" in initialized["result"]["capabilities"]
    assert level == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert unknown_prompt["error"]["code"] == missing_argument["error"]["code"] == -32602
    assert "model" in missing_argument["error"]["message"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class HttpServer:
    def __init__(self, *arguments: str, token: str | None = None, host: str = "127.0.0.1"):
        self.port, self.host = free_port(), host
        environment = {**os.environ, "GPUSIZER_MCP_TOKEN": token or ""}
        self.process = subprocess.Popen([SERVER_COMMAND, "--http", "--host", host, "--port", str(self.port), *arguments],
                                        env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection((host, self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"HTTP server did not start: {self.process.stderr.read()}")

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/mcp"

    def post(self, body: dict, headers: dict | None = None, timeout: float = 10) -> tuple[int, str]:
        status, _, text = self.exchange(body, headers, timeout)
        return status, text

    def exchange(self, body: dict, headers: dict | None = None, timeout: float = 10) -> tuple[int, dict[str, str], str]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        connection.request("POST", "/mcp", json.dumps(body), {"Content-Type": "application/json",
                                                              "Accept": "application/json, text/event-stream", **(headers or {})})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def http_server():
    server = HttpServer()
    yield server
    server.stop()


async def test_http_client_calls_a_tool(http_server):
    async with Client(http_server.url) as client:
        result = await client.call_tool("rent_vs_buy", {"gpu": "h100", "purchase_usd_per_gpu": 30000})
        assert not result.is_error and result.structured_content["recommendation"] in ("buy", "rent")


def test_http_refuses_a_foreign_host_header(http_server):
    status, _ = http_server.post(INITIALIZE, {"Host": "attacker.example"})
    assert status == 421
    status, _ = http_server.post(INITIALIZE, {"Host": f"localhost:{http_server.port}"})
    assert status == 200


def test_http_enforces_the_token_when_configured():
    server = HttpServer(token="s3cret-token")
    try:
        assert server.post(INITIALIZE)[0] == 401
        assert server.post(INITIALIZE, {"Authorization": "Bearer wrong"})[0] == 401
        assert server.post(INITIALIZE, {"Authorization": "Bearer s3cret-token"})[0] == 200
        assert server.post(INITIALIZE, {"Authorization": "bearer s3cret-token"})[0] == 200  # the scheme is case-insensitive
    finally:
        server.stop()


async def test_every_loopback_address_serves_like_127_0_0_1():
    server = HttpServer(host="127.0.0.2")
    try:
        assert server.post(INITIALIZE)[0] == 200
        async with Client(server.url) as client:
            assert (await client.call_tool("estimate_vram", {"model": "llama-3.1-8b"})).structured_content["total_bytes"] > 0
    finally:
        server.stop()


async def test_stateless_mode_answers_without_sessions():
    server = HttpServer("--stateless")
    try:
        async with Client(server.url) as client:
            assert not (await client.call_tool("cloud_cost", {"gpu": "h100", "hours": 1})).is_error
        status, body = server.post({"jsonrpc": "2.0", "id": 5, "method": "tools/list"})
        assert status == 200 and "estimate_vram" in body
    finally:
        server.stop()


def process_tree(pid: int) -> set[int]:
    """The process and its descendants (Linux /proc)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return {pid}.union(*(process_tree(int(child)) for child in children))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts worker processes through Linux /proc")
def test_workers_share_one_port_statelessly_and_stop_with_their_supervisor():
    server = HttpServer("--workers", "2")
    try:
        call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                "params": {"name": "estimate_vram", "arguments": {"model": "llama-3.1-8b"}}}
        for _ in range(4):  # no initialize, no session id: any worker answers any request whole
            status, headers, body = server.exchange(call, timeout=60)
            assert status == 200 and "mcp-session-id" not in headers
            assert headers["content-type"] == "application/json"  # one JSON body, no SSE stream to hold
            assert json.loads(body)["result"]["structuredContent"]["total_bytes"] > 0
        python_processes = [pid for pid in process_tree(server.process.pid)
                            if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]
        assert len(python_processes) == 2
        connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
        connection.request("GET", "/mcp", headers={"Accept": "text/event-stream"})
        assert connection.getresponse().status == 405  # stateless: no GET stream
    finally:
        server.stop()
    time.sleep(1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in python_processes)


def connections_held(pid: int, port: int) -> int:
    """How many established TCP connections to `port` the process holds (Linux /proc)."""
    sockets = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                sockets.add(target[8:-1])
    rows = [line.split() for line in Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]]
    return sum(1 for row in rows if int(row[1].split(":")[1], 16) == port and row[3] == "01" and row[9] in sockets)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads worker connections through Linux /proc")
def test_workers_each_take_a_share_of_many_clients_connecting_at_once():
    """Each worker listens on its own socket (SO_REUSEPORT): on one shared socket, the worker that woke first accepted
    every waiting connection (50 clients came out 49 and 1, or 50 and 0), and one worker served nearly everyone."""
    server = HttpServer("--workers", "2")
    clients = []
    try:
        call = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        server.exchange(json.loads(call), timeout=60)  # both workers are up
        time.sleep(1)
        clients = [http.client.HTTPConnection(server.host, server.port, timeout=30) for _ in range(40)]
        for client in clients:
            client.connect()
        for client in clients:
            client.request("POST", "/mcp", call, {"Content-Type": "application/json", "Accept": "application/json"})
        assert all(client.getresponse().read() for client in clients)
        workers = [pid for pid in process_tree(server.process.pid) if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]
        held = sorted(connections_held(pid, server.port) for pid in workers)
        assert sum(held) == 40 and held[0] >= 8, held  # a fair coin gives fewer than 8 of 40 once in 100,000 runs
    finally:
        for client in clients:
            client.close()
        server.stop()


def test_a_second_server_on_the_same_port_is_refused_not_sharing_it():
    server = HttpServer("--workers", "2")
    try:
        second = subprocess.run([SERVER_COMMAND, "--http", "--port", str(server.port), "--workers", "2"], capture_output=True,
                                text=True, timeout=60, env={**os.environ, "GPUSIZER_MCP_TOKEN": ""})
        assert second.returncode != 0 and f"cannot serve on 127.0.0.1:{server.port}" in second.stderr
    finally:
        server.stop()


def test_workers_are_explained_in_help():
    text = subprocess.run([SERVER_COMMAND, "--help"], capture_output=True, text=True, timeout=30).stdout
    assert "--workers N" in text and "implies --stateless" in text


def test_stateful_sessions_are_capped_by_closing_an_idle_one_not_by_refusing_new_clients():
    server = HttpServer("--max-sessions", "2")
    try:
        assert [server.post(INITIALIZE)[0] for _ in range(3)] == [200, 200, 200]  # test_server_hostile: which one goes
    finally:
        server.stop()


def test_binding_a_public_interface_needs_allowed_hosts_and_a_token():
    result = subprocess.run([SERVER_COMMAND, "--http", "--host", "0.0.0.0", "--port", str(free_port())],
                            capture_output=True, text=True, timeout=30, env={**os.environ, "GPUSIZER_MCP_TOKEN": ""})
    assert result.returncode == 2
    assert "--allowed-host" in result.stderr and "GPUSIZER_MCP_TOKEN" in result.stderr


INSPECTOR = ["npx", "-y", "@modelcontextprotocol/inspector@0.15.0", "--cli", SERVER_COMMAND]


def run_inspector(*arguments: str) -> dict:
    result = subprocess.run([*INSPECTOR, *arguments], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-1000:]
    return json.loads(result.stdout[result.stdout.index("{"):])


@pytest.mark.slow  # npx fetches the Inspector from npm on its first run: the README's command downloads nothing
@pytest.mark.skipif(shutil.which("npx") is None, reason="npx (Node.js) is not installed: the MCP Inspector CLI cannot run")
def test_mcp_inspector_lists_and_calls_tools():
    listed = run_inspector("--method", "tools/list")
    assert {t["name"] for t in listed["tools"]} == TOOLS
    called = run_inspector("--method", "tools/call", "--tool-name", "estimate_vram", "--tool-arg", "model=qwen2.5-7b",
                           "--tool-arg", "workload=training", "--tool-arg", "method=lora")
    assert not called.get("isError") and called["structuredContent"]["trainable_params"] > 0
    failed = run_inspector("--method", "tools/call", "--tool-name", "estimate_vram", "--tool-arg", "model=qwen9")
    assert failed["isError"] and "did you mean" in failed["content"][0]["text"]


def test_a_body_past_a_mib_is_refused_before_it_is_parsed_and_the_server_keeps_serving():
    server = HttpServer()
    try:
        huge = {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                "params": {"name": "estimate_vram", "arguments": {"model": "x" * (2 * 2**20)}}}
        assert server.post(huge)[0] == 413
        assert server.post(INITIALIZE)[0] == 200
    finally:
        server.stop()


def test_a_worker_registers_its_tools_before_it_listens(monkeypatch):
    """uvicorn builds each worker's app before the worker listens: a worker that registered its tools on its first
    call kept the first clients the kernel handed it waiting about a second."""
    from gpusizer.server import app, http

    built, unrecorded = [], app.create_server

    def recording():
        built.append(unrecorded())
        return built[-1]

    monkeypatch.setattr(app, "create_server", recording)
    monkeypatch.setenv(http.WORKER_VARIABLE, json.dumps({"host": "127.0.0.1", "port": 8000, "allowed_hosts": [],
                                                         "options": {"workers": 2}}))
    http.worker_app()
    assert built and built[0]._tool_manager.get_tool("estimate_vram") is not None
