"""Stateless POSTs answered in process (server/stateless_posts.py) get the SDK's own answer, byte for byte.

Every case is posted to two apps built alike, one that answers the common POST in process and one that leaves every
request to the SDK's stateless transport, and the status, the headers and the body must be equal. Then random
messages (hypothesis), and a check that the common POSTs really do skip the SDK's per-request transport.
"""
import contextlib
import json

import anyio
import pytest
from anyio.from_thread import start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from gpusizer.server.app import create_server
from gpusizer.server.http import HttpOptions, http_app

ESTIMATE = {"name": "estimate_vram", "arguments": {"model": "meta-llama/Llama-3.1-70B", "workload": "training", "method": "qlora"}}
INITIALIZE = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}
HEADERS = {"host": "127.0.0.1:8000", "content-type": "application/json", "accept": "application/json, text/event-stream",
           "mcp-protocol-version": "2025-11-25"}


def request(method, params=None, request_id=1):
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    return message if params is None else {**message, "params": params}


@contextlib.asynccontextmanager
async def served(app):
    """The app with its lifespan started (the SDK's session manager runs inside it)."""
    to_app, from_server = anyio.create_memory_object_stream(4)
    to_server, from_app = anyio.create_memory_object_stream(4)
    async with anyio.create_task_group() as group:
        group.start_soon(app, {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, from_server.receive, to_server.send)
        await to_app.send({"type": "lifespan.startup"})
        assert (await from_app.receive())["type"] == "lifespan.startup.complete"
        yield app
        await to_app.send({"type": "lifespan.shutdown"})
        assert (await from_app.receive())["type"] == "lifespan.shutdown.complete"


async def post(app, body, headers=HEADERS, chunks=1):
    """One POST /mcp through the ASGI app: (status, headers, body) as the server sent them."""
    body = body if isinstance(body, bytes) else json.dumps(body).encode()
    pieces = [body[i * len(body) // chunks:(i + 1) * len(body) // chunks] for i in range(chunks)]
    incoming = [{"type": "http.request", "body": piece, "more_body": i < chunks - 1} for i, piece in enumerate(pieces)]

    async def receive():
        if incoming:
            return incoming.pop(0)
        await anyio.sleep_forever()

    sent = []

    async def send(message):
        sent.append(message)

    raw_headers = [(name.encode(), value.encode()) for name, value in headers.items()]
    raw_headers.append((b"content-length", str(len(body)).encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/mcp", "raw_path": b"/mcp", "query_string": b"", "root_path": "", "headers": raw_headers,
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "state": {}}
    with anyio.fail_after(30):
        await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], start.get("headers", []), b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


@contextlib.asynccontextmanager
async def both_apps():
    options = HttpOptions(stateless=True)
    fast = http_app(create_server(), "127.0.0.1", 8000, [], None, options)
    sdk = http_app(create_server(), "127.0.0.1", 8000, [], None, options, answer_in_process=False)
    async with served(fast), served(sdk):
        yield fast, sdk


async def assert_same(apps, body, headers=HEADERS, chunks=1):
    fast, sdk = apps
    ours = await post(fast, body, headers, chunks)
    theirs = await post(sdk, body, headers, chunks)
    assert ours == theirs
    return ours


CASES = {
    "initialize": request("initialize", INITIALIZE),
    "initialize at an old version": request("initialize", {**INITIALIZE, "protocolVersion": "2024-11-05"}),
    "tools/list": request("tools/list", {}),
    "tools/list without params": request("tools/list"),
    "tools/call": request("tools/call", ESTIMATE),
    "tools/call with a progress token": request("tools/call", {**ESTIMATE, "_meta": {"progressToken": "p"}}),
    "a tool error": request("tools/call", {"name": "estimate_vram", "arguments": {"model": "no-such-model-xyz"}}),
    "an argument out of range": request("tools/call", {"name": "estimate_vram", "arguments": {"model": "llama 8b", "batch_size": 0}}),
    "an unknown argument": request("tools/call", {"name": "estimate_vram", "arguments": {"model": "llama 8b", "batchsize": 4}}),
    "an unknown tool": request("tools/call", {"name": "no_such_tool", "arguments": {}}),
    "tools/call without a name": request("tools/call", {"arguments": {}}),
    "a tool name that is a list": request("tools/call", {"name": []}),
    "tools/call without params": request("tools/call"),
    "arguments that are not an object": request("tools/call", {"name": "estimate_vram", "arguments": [1, 2]}),
    "a method not found": request("no/such/method", {}),
    "ping": request("ping"),
    "resources/list": request("resources/list"),
    "resources/templates/list": request("resources/templates/list"),
    "a resource": request("resources/read", {"uri": "gpusizer://gpus/h100"}),
    "an unknown resource": request("resources/read", {"uri": "gpusizer://nothing/" + "x" * 300}),
    "prompts/list": request("prompts/list"),
    "an unknown prompt": request("prompts/get", {"name": "no_such_prompt"}),
    "a prompt without its argument": request("prompts/get", {"name": "plan_fine_tune", "arguments": {}}),
    "logging/setLevel": request("logging/setLevel", {"level": "warning"}),
    "completion": request("completion/complete", {"ref": {"type": "ref/prompt", "name": "plan_fine_tune"},
                                                  "argument": {"name": "model", "value": "lla"}}),
    "the id 0": request("ping", request_id=0),
    "a negative id": request("ping", request_id=-7),
    "a large id": request("ping", request_id=2**62),
    "an empty string id": request("tools/list", request_id=""),
    "a string id": request("tools/call", ESTIMATE, request_id="call-1"),
    "a unicode id": request("ping", request_id="идентификатор ✓"),
    "a null id": request("ping", request_id=None),
    "a float id": request("ping", request_id=1.5),
    "a bool id": request("ping", request_id=True),
    "an object id": request("ping", request_id={"a": 1}),
    "a list id": request("ping", request_id=[1]),
    "notifications/initialized": {"jsonrpc": "2.0", "method": "notifications/initialized"},
    "notifications/cancelled": {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
    "an unknown notification": {"jsonrpc": "2.0", "method": "notifications/whatever", "params": {"x": 1}},
    "a client's response": {"jsonrpc": "2.0", "id": 5, "result": {}},
    "a client's error": {"jsonrpc": "2.0", "id": 5, "error": {"code": -1, "message": "no"}},
    "a batch": [request("ping"), request("tools/list", request_id=2)],
    "an empty batch": [],
    "not JSON-RPC": {"hello": "world"},
    "a wrong jsonrpc version": {"jsonrpc": "1.0", "id": 1, "method": "ping"},
    "a number": 42,
    "a long number": b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"n": ' + b"9" * 5000 + b"}}",
    "not JSON": b"{this is not json",
    "not UTF-8": b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "\xff"}}',
    "an empty body": b"",
    "NaN": b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "estimate_vram", '
           b'"arguments": {"model": "llama 8b", "batch_size": NaN}}}',
    "duplicate keys": b'{"jsonrpc": "2.0", "id": 1, "id": "two", "method": "ping"}',
}


@pytest.mark.parametrize("case", list(CASES))
async def test_each_message_gets_the_sdks_answer(case):
    async with both_apps() as apps:
        await assert_same(apps, CASES[case])


HEADER_CASES = {
    "no protocol version header": {k: v for k, v in HEADERS.items() if k != "mcp-protocol-version"},
    "an older protocol version": {**HEADERS, "mcp-protocol-version": "2025-03-26"},
    "the 2026 protocol version": {**HEADERS, "mcp-protocol-version": "2026-07-28"},
    "an unknown protocol version": {**HEADERS, "mcp-protocol-version": "1999-01-01"},
    "accepting JSON only": {**HEADERS, "accept": "application/json"},
    "accepting anything": {**HEADERS, "accept": "*/*"},
    "accepting SSE only": {**HEADERS, "accept": "text/event-stream"},
    "no Accept header": {k: v for k, v in HEADERS.items() if k != "accept"},
    "a JSON content type with a charset": {**HEADERS, "content-type": "application/json; charset=utf-8"},
    "a content type that only starts like JSON": {**HEADERS, "content-type": "application/jsonx"},
    "a form content type": {**HEADERS, "content-type": "application/x-www-form-urlencoded"},
    "a foreign Host": {**HEADERS, "host": "evil.example:8000"},
    "a foreign Origin": {**HEADERS, "origin": "http://evil.example"},
    "a local Origin": {**HEADERS, "origin": "http://localhost:3000"},
}


@pytest.mark.parametrize("case", list(HEADER_CASES))
@pytest.mark.parametrize("message", [request("tools/call", ESTIMATE), {"jsonrpc": "2.0", "method": "notifications/initialized"}],
                         ids=["request", "notification"])
async def test_each_header_variant_gets_the_sdks_answer(case, message):
    async with both_apps() as apps:
        await assert_same(apps, message, HEADER_CASES[case])


async def test_a_body_in_pieces_gets_the_sdks_answer():
    async with both_apps() as apps:
        status, _, body = await assert_same(apps, request("tools/call", ESTIMATE, request_id=9), chunks=3)
        assert status == 200 and json.loads(body)["id"] == 9


async def test_the_common_posts_skip_the_sdks_per_request_transport(monkeypatch):
    """Otherwise the cases above would compare the SDK with itself."""
    reached = []
    original = StreamableHTTPSessionManager._handle_stateless_request

    async def counted(self, *args):
        reached.append(self)
        await original(self, *args)

    monkeypatch.setattr(StreamableHTTPSessionManager, "_handle_stateless_request", counted)
    async with both_apps() as apps:
        for message in [request("initialize", INITIALIZE), request("tools/call", ESTIMATE), request("tools/list"),
                        {"jsonrpc": "2.0", "method": "notifications/initialized"}, request("no/such/method")]:
            reached.clear()
            await assert_same(apps, message)
            assert len(reached) == 1  # the SDK-only app's, not the fast one's


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                           max_leaves=8)
METHODS = st.sampled_from(["ping", "tools/list", "tools/call", "initialize", "resources/read", "prompts/get",
                           "logging/setLevel", "notifications/initialized", "nope"]) | st.text(max_size=12)
MESSAGES = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "2.0", "2.0", "1.0"]), "method": METHODS},
    optional={"id": st.integers() | st.text(max_size=6) | JSON_VALUES,
              "params": st.dictionaries(st.sampled_from(["name", "arguments", "uri", "level", "_meta", "x"]), JSON_VALUES,
                                        max_size=3) | JSON_VALUES})


@pytest.fixture(scope="module")
def portal_apps():
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(both_apps()) as apps:
            yield portal, apps


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(message=MESSAGES)
def test_random_messages_get_the_sdks_answer(portal_apps, message):
    portal, apps = portal_apps
    portal.call(assert_same, apps, message)
