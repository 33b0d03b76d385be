"""Issue #36, a hostile client's findings replayed: each gets its answer or the right error within 0.5 s, over stdio and
streamable HTTP, and the other clients are served meanwhile."""
import http.client
import json
import socket
import subprocess
import threading
import time

import anyio
import pytest
import uvicorn
from test_server_transports import INITIALIZE, SERVER_COMMAND, HttpServer, free_port

from gpusizer.server.app import create_server
from gpusizer.server.http import HttpOptions, http_config
from gpusizer.server.stdio_wire import run_stdio

PROMPT = 0.5  # seconds: every answer below comes within this
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
HANDSHAKE = [json.dumps({**INITIALIZE, "id": "init"}), json.dumps(INITIALIZED)]
SERVER = create_server()


def request(request_id, method, params=None) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, **({"params": params} if params is not None else {})}


def tool_call(request_id, name, arguments) -> dict:
    return request(request_id, "tools/call", {"name": name, "arguments": arguments})


def complete(request_id, name, value) -> dict:
    return request(request_id, "completion/complete", {"ref": {"type": "ref/resource", "uri": "gpusizer://gpus/{gpu_id}"},
                                                       "argument": {"name": name, "value": value}})


class Sink:
    """stdout: each reply with the seconds since the exchange began."""

    def __init__(self):
        self.replies, self.began, self.changed = {}, time.monotonic(), anyio.Event()

    async def write(self, text):
        for line in text.split("\n"):
            if line.strip():
                reply = json.loads(line)
                self.replies[json.dumps(reply.get("id"))] = (reply, time.monotonic() - self.began)
        self.changed.set()
        self.changed = anyio.Event()

    async def flush(self):
        pass


class Lines:
    """stdin: the lines, then held open until every id in `awaited` is answered (or ended at once: end of input)."""

    def __init__(self, lines, sink, awaited=()):
        self.lines, self.sink, self.awaited = lines, sink, [json.dumps(i) for i in awaited]

    async def __aiter__(self):
        for line in self.lines:
            yield (line if isinstance(line, str) else json.dumps(line)) + "\n"
        with anyio.fail_after(20):
            while not all(i in self.sink.replies for i in self.awaited):
                await self.sink.changed.wait()


def over_stdio(lines, awaited=(), handshake=True) -> dict:
    """The replies by id (JSON-encoded, so null is 'null'), each with the seconds it took."""
    async def session():
        sink = Sink()
        await run_stdio(SERVER, Lines([*(HANDSHAKE if handshake else []), *lines], sink, awaited), sink)
        return sink.replies
    return anyio.run(session)


# 1. completion/complete: bounded, and fuzzy matching off the event loop


def test_a_megabyte_completion_value_completes_to_nothing_at_once_and_a_ping_behind_it_is_answered():
    replies = over_stdio([complete(1, "gpu_id", "x" * 1_000_000), request(2, "ping")], awaited=[1, 2])
    (completed, took), (pong, pong_took) = replies["1"], replies["2"]
    assert completed["result"]["completion"]["values"] == [] and took < PROMPT
    assert pong["result"] == {} and pong_took < PROMPT


def test_a_name_length_value_still_completes_fuzzily():
    replies = over_stdio([complete(1, "gpu_id", "h100 sxm " * 22), complete(2, "model", "qwen3")], awaited=[1, 2])
    assert replies["1"][0]["result"]["completion"]["values"] and replies["1"][1] < PROMPT
    assert any("Qwen3" in v for v in replies["2"][0]["result"]["completion"]["values"])


# 2. an unknown resource: -32002, the URI echoed at most once and clipped


@pytest.mark.parametrize("uri", ["gpusizer://nothing/" + "x" * 1_000_000, "gpusizer://gpus/" + "x" * 1_000_000,
                                 "gpusizer://gpus/h10x"])
def test_an_unknown_resource_is_minus_32002_without_echoing_the_uri(uri):
    reply, took = over_stdio([request(1, "resources/read", {"uri": uri})], awaited=[1])["1"]
    assert reply["error"]["code"] == -32002 and took < PROMPT
    assert len(json.dumps(reply)) < 1000 and reply["error"]["data"]["uri"].startswith(uri[:60])


# 3. a request before initialize says to initialize first


def test_a_tool_call_before_initialize_says_to_initialize_first():
    reply, _ = over_stdio([tool_call(1, "estimate_vram", {"model": "llama 3.1 8b"})], awaited=[1], handshake=False)["1"]
    assert reply["error"]["code"] == -32602 and "initialize" in reply["error"]["message"]


# 4. end of input right after requests: every answer in flight is still written


def test_end_of_input_right_after_twenty_calls_still_answers_all_of_them():
    calls = [tool_call(i, "estimate_vram", {"model": "llama 3.1 8b", "seq_len": 512 * (1 + i % 8)}) for i in range(20)]
    replies = over_stdio(calls)  # nothing awaited: input ends right after the last call
    assert all("result" in replies[str(i)][0] for i in range(20))


def test_a_spawned_server_answers_everything_in_flight_when_stdin_closes():
    calls = [json.dumps(tool_call(i, "cloud_cost", {"gpu": "h100", "hours": i + 1})) for i in range(20)]
    lines = "\n".join([*HANDSHAKE, *calls]) + "\n"
    done = subprocess.run([SERVER_COMMAND], input=lines, capture_output=True, text=True, timeout=60)
    answered = {reply["id"] for reply in map(json.loads, done.stdout.splitlines())}
    assert done.returncode == 0 and answered >= set(range(20))


# 5. strict arguments: booleans are not numbers, text must be UTF-8, long numbers are invalid params


@pytest.mark.parametrize("tool,arguments,argument", [
    ("estimate_vram", {"model": "llama 3.1 8b", "seq_len": True}, "seq_len"),
    ("estimate_vram", {"model": "llama 3.1 8b", "tensor_parallel": True}, "tensor_parallel"),
    ("cloud_cost", {"gpu": "h100", "hours": False}, "hours"),
    ("plan_training", {"model": "llama 3.1 8b", "training_tokens": 1e8, "gpu": "h100", "mfu": True}, "mfu"),
])
def test_true_and_false_are_not_numbers(tool, arguments, argument):
    reply, _ = over_stdio([tool_call(1, tool, arguments)], awaited=[1])["1"]
    text = reply["result"]["content"][0]["text"]
    assert reply["result"]["isError"] and argument in text and "true or false" in text


def test_true_is_still_a_bool_where_a_bool_is_asked_for():
    arguments = {"model": "llama 3.1 8b", "workload": "training", "gradient_checkpointing": True}
    reply, _ = over_stdio([tool_call(1, "estimate_vram", arguments)], awaited=[1])["1"]
    assert not reply["result"].get("isError")


@pytest.mark.parametrize("tool,arguments", [("estimate_vram", {"model": "Llama-3.1-8B\ufffd"}),
                                            ("compare_gpus", {"gpus": ["h100", "a100\ufffd"]})])
def test_a_replacement_character_in_a_name_is_refused_not_resolved(tool, arguments):
    reply, _ = over_stdio([tool_call(1, tool, arguments)], awaited=[1])["1"]
    assert reply["result"]["isError"] and "utf-8" in reply["result"]["content"][0]["text"]


def test_bytes_that_are_not_utf8_are_a_parse_error_and_the_spawned_server_keeps_serving():
    call = json.dumps(tool_call(2, "estimate_vram", {"model": "Llama-3.1-8B@"})).encode().replace(b"@", b"\xff")
    ping = json.dumps(request(3, "ping")).encode()
    lines = b"\n".join([*(line.encode() for line in HANDSHAKE), call, ping]) + b"\n"
    done = subprocess.run([SERVER_COMMAND], input=lines, capture_output=True, timeout=60)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert {"jsonrpc": "2.0", "id": 3, "result": {}} in replies
    assert [r["error"]["code"] for r in replies if "error" in r] == [-32700]


@pytest.mark.parametrize("name", [[], {}, 7, None, True])
def test_a_tool_name_that_is_not_a_string_is_invalid_params_not_a_crash(name):
    replies = over_stdio([json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name}}),
                          request(2, "ping")], awaited=[1, 2])
    reply, took = replies["1"]
    assert reply["error"]["code"] == -32602 and "unhashable" not in reply["error"]["message"] and took < PROMPT
    assert replies["2"][0]["result"] == {}


def test_a_five_thousand_digit_integer_is_invalid_params_with_its_id():
    line = json.dumps(tool_call(1, "estimate_vram", {"model": "llama 3.1 8b", "seq_len": 7})).replace(": 7}", ": " + "9" * 5000 + "}")
    replies = over_stdio([line, request(2, "ping")], awaited=[1, 2])
    reply, took = replies["1"]
    assert reply["error"]["code"] == -32602 and "5,000" in reply["error"]["message"] and took < PROMPT
    assert replies["2"][0]["result"] == {}


# HTTP: the same answers as stdio, sessions that make room, deadlines


def post(port: int, body: str | bytes, headers: dict | None = None, timeout: float = 10) -> tuple[int, dict, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("POST", "/mcp", body, {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                                              **(headers or {})})
    response = connection.getresponse()
    text = response.read().decode()
    if "data: " in text:  # an SSE answer: its message
        text = next(line[6:] for line in text.splitlines() if line.startswith("data: ") and line[6:].strip())
    return response.status, dict(response.getheaders()), json.loads(text) if text.strip().startswith(("{", "[")) else {}


@pytest.fixture(scope="module")
def http_server():
    server = HttpServer("--max-sessions", "3")
    yield server
    server.stop()


def session(port: int) -> dict:
    status, headers, _ = post(port, json.dumps(INITIALIZE))
    assert status == 200
    found = {"mcp-session-id": headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    assert post(port, json.dumps(INITIALIZED), found)[0] == 202
    return found


@pytest.mark.parametrize("body", [
    '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', '{"jsonrpc":"2.0","id":null,"method":"ping"}',
    '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', '{"jsonrpc":"2.0","id":true,"method":"ping"}',
    '{"jsonrpc":"2.0","id":[1],"method":"ping"}', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
])
def test_http_answers_a_bad_id_or_a_batch_as_stdio_does(http_server, body):
    status, _, reply = post(http_server.port, body)
    assert status == 400 and reply["error"]["code"] == -32600 and reply["id"] is None
    assert "pydantic" not in json.dumps(reply)


def test_a_page_served_from_another_local_port_is_refused_and_the_servers_own_origin_is_not(http_server):
    """A browser page's Origin is scheme, host and port: http://localhost:3000 (any local dev server) is another
    site, so it must not drive the server; a page from the server's own origin may."""
    ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    for other in (f"http://localhost:{http_server.port + 1}", "http://127.0.0.1:3000", "http://[::1]:8080"):
        assert post(http_server.port, ping, {"origin": other})[0] == 403, other
    assert post(http_server.port, ping, {"origin": f"http://127.0.0.1:{http_server.port}"})[0] != 403


def test_http_answers_a_long_number_and_bytes_that_are_not_utf8_as_stdio_does(http_server):
    status, _, reply = post(http_server.port, '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"n":' + "9" * 5000 + "}}")
    assert (status, reply["id"], reply["error"]["code"]) == (400, 7, -32602)
    status, _, reply = post(http_server.port, b'{"jsonrpc":"2.0","id":8,"method":"ping","params":{"n":"\xff"}}')
    assert (status, reply["error"]["code"]) == (400, -32700)


def test_http_completion_of_a_near_megabyte_value_does_not_stall_another_client(http_server):
    mine, theirs = session(http_server.port), session(http_server.port)
    took = {}

    def completion():
        began = time.monotonic()
        status, _, reply = post(http_server.port, json.dumps(complete(1, "gpu_id", "x" * 1_000_000)), mine)
        took["completion"] = time.monotonic() - began
        assert status == 200 and reply["result"]["completion"]["values"] == []

    worker = threading.Thread(target=completion)
    worker.start()
    began = time.monotonic()
    status, _, reply = post(http_server.port, json.dumps(request(2, "ping")), theirs)
    pong = time.monotonic() - began
    worker.join(timeout=20)
    assert status == 200 and reply["result"] == {} and pong < PROMPT and took["completion"] < 2


def test_http_unknown_resource_is_minus_32002_and_short(http_server):
    status, _, reply = post(http_server.port, json.dumps(request(3, "resources/read", {"uri": "gpusizer://x/" + "y" * 500_000})),
                            session(http_server.port))
    assert status == 200 and reply["error"]["code"] == -32002 and len(json.dumps(reply)) < 1000


def test_a_full_session_table_closes_the_least_recently_used_idle_session_instead_of_refusing():
    server = HttpServer("--max-sessions", "2")
    try:
        first, second = session(server.port), session(server.port)
        assert post(server.port, json.dumps(request(1, "ping")), first)[0] == 200  # first is now the more recently used
        third = session(server.port)  # was 503 for as long as the idle timeout (900 s)
        assert post(server.port, json.dumps(request(2, "ping")), second)[0] == 404  # closed: the client opens another
        assert post(server.port, json.dumps(request(3, "ping")), first)[0] == 200
        assert post(server.port, json.dumps(request(4, "ping")), third)[0] == 200
    finally:
        server.stop()


def test_stateless_get_offers_no_stream_instead_of_holding_one_forever():
    server = HttpServer("--stateless")
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        connection.request("GET", "/mcp", headers={"Accept": "text/event-stream"})
        assert connection.getresponse().status == 405
    finally:
        server.stop()


@pytest.fixture(scope="module")
def quick_server():
    """In process, with one-second deadlines and stream lifetime."""
    options = HttpOptions(stream_lifetime_s=1.0, header_timeout_s=1.0, body_timeout_s=1.0)
    port = free_port()
    server = uvicorn.Server(http_config(create_server(), "127.0.0.1", port, [], None, options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(timeout=10)


def closed_within(sock: socket.socket, seconds: float) -> bytes:
    """What the server sent before it closed the connection (it must close it within `seconds`)."""
    sock.settimeout(seconds)
    received = b""
    while chunk := sock.recv(4096):
        received += chunk
    return received


def test_headers_that_never_finish_are_cut_off_and_others_are_served_meanwhile(quick_server):
    slow = socket.create_connection(("127.0.0.1", quick_server))
    slow.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    assert post(quick_server, json.dumps(INITIALIZE))[0] == 200
    began = time.monotonic()
    closed_within(slow, 5)
    assert time.monotonic() - began < 3


def test_a_body_that_never_finishes_gets_408(quick_server):
    slow = socket.create_connection(("127.0.0.1", quick_server))
    slow.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{quick_server}\r\nContent-Type: application/json\r\n"
                 "Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{".encode())
    assert post(quick_server, json.dumps(INITIALIZE))[0] == 200
    assert closed_within(slow, 5).startswith(b"HTTP/1.1 408")


def test_a_get_stream_ends_after_its_lifetime(quick_server):
    headers = session(quick_server)
    connection = http.client.HTTPConnection("127.0.0.1", quick_server, timeout=5)
    connection.request("GET", "/mcp", headers={"Accept": "text/event-stream", **headers})
    response = connection.getresponse()
    began = time.monotonic()
    assert response.status == 200
    response.read()  # returns once the stream ends
    assert time.monotonic() - began < 3
