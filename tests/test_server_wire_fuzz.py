"""The stdio wire answers every line and never dies of one: regression cases, then random lines (hypothesis)."""
import json

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpusizer.server.app import create_server
from gpusizer.server.stdio_wire import run_stdio

SERVER = create_server()
FINAL_PING = json.dumps({"jsonrpc": "2.0", "id": "final", "method": "ping"})


class Sink:
    """stdout: collects the replies; the final ping's reply tells the client side it may close stdin."""

    def __init__(self):
        self.replies, self.done = [], anyio.Event()

    async def write(self, text):
        self.replies += [json.loads(line) for line in text.split("\n") if line.strip()]  # the wire splits on \\n only
        if any(r.get("id") == "final" for r in self.replies):
            self.done.set()

    async def flush(self):
        pass


class Lines:
    """stdin: the lines, then the final ping, held open until it is answered (as a client waits before closing)."""

    def __init__(self, lines, sink):
        self.lines, self.sink = lines, sink

    async def __aiter__(self):
        for line in self.lines:
            yield line + "\n"
        with anyio.fail_after(20):
            await self.sink.done.wait()


def serve(lines):
    async def session():
        sink = Sink()
        await run_stdio(SERVER, Lines([*lines, FINAL_PING], sink), sink)
        return sink.replies
    return anyio.run(session)


def nested(depth):
    return '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + "[" * depth + "]" * depth + "}}"


@pytest.mark.parametrize("line,code,reply_id", [
    (nested(1000), -32700, None),                                        # killed gpusizer-mcp before
    (nested(300), -32600, 1),                                            # JSON, but deeper than the SDK reads
    ('{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600, None),       # got no reply before
    ('{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600, None),
    ('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', -32600, None),
    ('{"jsonrpc":"2.0","id":8,"method":42}', -32600, 8),                  # the id is recoverable: it comes back
    ("\x00\xff not json", -32700, None),
])
def test_a_bad_line_gets_its_json_rpc_error_and_the_server_answers_the_next(line, code, reply_id):
    """Replies may come in any order (JSON-RPC matches them by id)."""
    replies = serve([line])
    assert {"jsonrpc": "2.0", "id": "final", "result": {}} in replies
    errors = [r for r in replies if "error" in r]
    assert len(errors) == 1 and errors[0]["error"]["code"] == code and errors[0]["id"] == reply_id


def test_a_request_before_initialize_and_a_megabyte_name_still_get_answers():
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "estimate_vram", "arguments": {"model": "x" * 1_000_000}}}
    replies = serve([json.dumps(call)])
    assert {r["id"] for r in replies} == {2, "final"}


junk_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                         max_leaves=20)
messages = st.fixed_dictionaries({"jsonrpc": st.sampled_from(["2.0", "1.0", 2]), "method": st.text(max_size=30) | junk_json},
                                 optional={"id": junk_json, "params": junk_json}).map(json.dumps)
lines = st.lists(st.one_of(st.text(max_size=200).map(lambda s: s.replace("\n", " ")), junk_json.map(json.dumps), messages,
                           st.integers(1, 3000).map(nested)), max_size=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_any_lines_leave_the_server_answering_ping(garbage):
    replies = serve(garbage)
    assert {"jsonrpc": "2.0", "id": "final", "result": {}} in replies
