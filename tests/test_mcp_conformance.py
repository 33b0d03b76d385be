"""The official MCP conformance suite (@modelcontextprotocol/conformance) against `gpusizer-mcp --http` (issue #17).

The suite needs Node >= 22. The test uses a `node` >= 22 on PATH, else installs `node@22` and the suite from the npm
registry into build/conformance (once; about 10 s); where neither works it skips and says why. Set
GPUSIZER_CONFORMANCE=0 to skip it on purpose.

Every scenario that applies to a server without the suite's own test fixtures must pass. The others call tools,
prompts and resources only the suite's reference server has (`test_simple_text`, `test_simple_prompt`,
`test://static-text`...) or a capability gpusizer does not declare (resource subscriptions), and are listed below.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # run by .ci/run after the README's test command (pyproject.toml: markers)

SUITE = "@modelcontextprotocol/conformance@0.1.16"
HOME = Path(__file__).resolve().parent.parent / "build" / "conformance"
APPLICABLE = ["server-initialize", "logging-set-level", "ping", "completion-complete", "tools-list", "resources-list",
              "prompts-list", "server-sse-multiple-streams", "dns-rebinding-protection"]
NEEDS_THE_SUITES_FIXTURES = {  # scenario: what it calls that only the suite's reference server has
    **{name: "a test_* tool of the suite's server" for name in (
        "tools-call-simple-text", "tools-call-image", "tools-call-audio", "tools-call-embedded-resource",
        "tools-call-mixed-content", "tools-call-with-logging", "tools-call-error", "tools-call-with-progress",
        "tools-call-sampling", "tools-call-elicitation", "elicitation-sep1034-defaults", "elicitation-sep1330-enums")},
    **{name: "a test:// resource" for name in ("resources-read-text", "resources-read-binary", "resources-templates-read")},
    **{name: "resources/subscribe, a capability gpusizer does not declare" for name in (
        "resources-subscribe", "resources-unsubscribe")},
    **{name: "a test_* prompt" for name in ("prompts-get-simple", "prompts-get-with-args", "prompts-get-embedded-resource",
                                           "prompts-get-with-image")},
}


def node_major(node: str) -> int:
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return 0
    found = re.match(r"v(\d+)", version.strip())
    return int(found.group(1)) if found else 0


def suite_command() -> list[str]:
    """node >= 22 and the suite's entry point, installing them from npm into build/conformance when needed."""
    if os.environ.get("GPUSIZER_CONFORMANCE") == "0":
        pytest.skip("GPUSIZER_CONFORMANCE=0")
    entry = HOME / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    local_node = HOME / "node_modules" / ".bin" / "node"
    node = next((n for n in (shutil.which("node"), str(local_node)) if n and node_major(n) >= 22), None)
    if node is None or not entry.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("the MCP conformance suite needs Node >= 22 and npm to install it; neither is here")
        HOME.mkdir(parents=True, exist_ok=True)
        packages = [SUITE] + ([] if node else ["node@22"])
        installed = subprocess.run([npm, "install", "--prefix", str(HOME), "--no-audit", "--no-fund", *packages],
                                   capture_output=True, text=True, timeout=300)
        if installed.returncode != 0:
            pytest.skip(f"could not install Node 22 / the conformance suite from npm: {installed.stderr[-300:]}")
        node = node or str(local_node)
    if node_major(node) < 22 or not entry.exists():
        pytest.skip(f"Node >= 22 with {SUITE} not found under {HOME}")
    return [node, str(entry)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def http_server():
    port = free_port()
    server = subprocess.Popen([str(Path(sys.executable).parent / "gpusizer-mcp"), "--http", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_every_scenario_that_applies_to_gpusizer_passes(http_server, tmp_path):
    command = suite_command()
    run = subprocess.run([*command, "server", "--url", http_server, "-o", str(tmp_path)], capture_output=True, text=True,
                         timeout=300)
    summary = dict(re.findall(r"^[✓✗] ([\w-]+): (\d+ passed, \d+ failed)", run.stdout, flags=re.MULTILINE))
    assert summary, run.stdout[-2000:] + run.stderr[-2000:]
    for scenario in APPLICABLE:
        assert scenario in summary and summary[scenario].endswith(" 0 failed"), (scenario, summary.get(scenario))
    unexplained = {s for s, result in summary.items() if not result.endswith(" 0 failed")} - set(NEEDS_THE_SUITES_FIXTURES)
    assert not unexplained, {s: summary[s] for s in unexplained}
