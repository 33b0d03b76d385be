"""Random arguments never crash the server: every answer is a result or an isError with a message."""
import anyio.from_thread
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from gpusizer.catalog import load_catalog
from gpusizer.server.app import create_server, tool_shapes

FIELDS = {name: {field: model.model_fields[field] for model, names, _ in groups for field in (names or model.model_fields)}
          for name, _, groups in tool_shapes()}
GPUS = ["h100", "a100", "rtx 4090", "mi300x", "l4", "b200", "h10", ""]
NAMES = [*GPUS, "llama 3.1 8b", "mixtral", "qwen3-8b", "deepseek-v3", "zzz", "aws", "lambda", "us-east-1"]
BASES = {"estimate_vram": {"model": "llama 3.1 8b"}, "compare_gpus": {"gpus": ["h100", "a100"]},
         "cloud_cost": {"gpu": "h100", "hours": 10}, "rent_vs_buy": {"gpu": "h100", "purchase_usd_per_gpu": 30000},
         "plan_serving": {"model": "llama 3.1 8b", "concurrent_users": 50},
         "plan_training": {"model": "llama 3.1 8b", "training_tokens": 1e8, "gpu": "h100"}, "biggest_model": {"gpu": "rtx 4090"},
         "estimate_speed": {"model": "llama 3.1 8b", "gpu": "h100"}}

garbage = st.one_of(
    st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30), st.lists(st.sampled_from(NAMES), max_size=22), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))


def plausible(field):
    """Values a model might actually send for this field: its allowed words, small numbers, catalog names."""
    kind = field.annotation
    options = [a for a in getattr(kind, "__args__", ()) if isinstance(a, str)]
    text = repr(kind)
    if options:
        return st.sampled_from(options)
    if "list" in text:
        return st.lists(st.sampled_from(GPUS), max_size=22)
    if "bool" in text:
        return st.booleans()
    if "int" in text:
        return st.integers(0, 70_000)
    if "float" in text:
        return st.floats(0, 2) | st.floats(0, 100_000)
    return st.sampled_from(NAMES)


def arguments_for(tool: str):
    """Mostly plausible values over a valid base, some garbage and stray names: valid calls and every kind of mistake."""
    fields = FIELDS[tool]
    value_of = {name: st.one_of(*[plausible(field)] * 4, garbage) for name, field in fields.items()}
    chosen = st.lists(st.sampled_from(sorted(fields)), max_size=6, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({name: value_of[name] for name in names}))
    stray = st.dictionaries(st.text(min_size=1, max_size=12), garbage, max_size=1)
    keep_base = st.booleans() | st.just(True)
    return st.tuples(keep_base, chosen, stray).map(
        lambda parts: {**(BASES[tool] if parts[0] else {}), **(parts[2] if not parts[0] else {}), **parts[1]})


def sums_its_breakdown(answer):
    assert answer["total_bytes"] == sum(answer["breakdown"].values()) > 0


def one_row_per_gpu_asked(answer):
    assert 2 <= len(answer["gpus"]) <= 20 and all(row["memory_gb"] > 0 for row in answer["gpus"])


def cheapest_first(answer):
    """Cheapest first among the sound offers; a spot price in doubt (listed only for pricing='spot') comes after them."""
    order = [(bool(offer["price_warning"]), offer["total_usd"]) for offer in answer["offers"]]
    assert order == sorted(order) and all(total > 0 for _, total in order)


def has_a_verdict(answer):
    assert answer["recommendation"] in ("buy", "rent") and answer["own_total_usd"] >= 0 <= answer["rent_total_usd"]


def priced_options_cheapest_first(answer):
    priced = [o["usd_per_hour"] for o in answer["options"] if o["usd_per_hour"] is not None]
    assert priced == sorted(priced) and all(o["replicas"] >= 1 and o["tokens_per_s_per_user"] > 0 for o in answer["options"])
    assert answer["options"] or answer["infeasible"]


def training_options_cheapest_first(answer):
    priced = [o["usd_total"] for o in answer["options"] if o["usd_total"] is not None]
    assert priced == sorted(priced) and all(o["gpus"] >= 1 and o["wall_clock_hours"] > 0 for o in answer["options"])


def largest_models_first(answer):
    for fits in answer["formats"]:
        sizes = [m["params"] for m in fits["models"]]
        assert sizes == sorted(sizes, reverse=True) and all(m["per_gpu_bytes"] <= m["usable_bytes"] for m in fits["models"])


def aggregate_is_per_sequence_times_concurrency(answer):
    assert answer["decode_tokens_per_s"] > 0 and answer["ttft_s"] > 0
    assert answer["aggregate_tokens_per_s"] == pytest.approx(answer["decode_tokens_per_s"] * answer["concurrency"], rel=0.01)


INVARIANTS = {"estimate_vram": sums_its_breakdown, "compare_gpus": one_row_per_gpu_asked, "cloud_cost": cheapest_first,
              "rent_vs_buy": has_a_verdict, "plan_serving": priced_options_cheapest_first,
              "plan_training": training_options_cheapest_first, "biggest_model": largest_models_first,
              "estimate_speed": aggregate_is_per_sequence_times_concurrency}
EXAMPLES = {"plan_training": 150, "biggest_model": 150}  # each call scans the catalog's GPUs or models: fewer, same reach
QUICK_SHARE = 5  # the README's command draws a fifth of the examples; the slow suite (.ci/run) draws them all


@pytest.fixture(scope="module")
def connected():
    """One server and client for all examples, driven from this synchronous test through a blocking portal."""
    with anyio.from_thread.start_blocking_portal() as portal:
        client = portal.wrap_async_context_manager(Client(create_server(load_catalog(include_user=False))))
        with client as session:
            yield portal, session


@pytest.mark.parametrize("depth", ["quick", pytest.param("deep", marks=pytest.mark.slow)])
@pytest.mark.parametrize("tool", sorted(FIELDS))
def test_random_arguments_get_a_result_or_a_readable_error(connected, tool, depth):
    portal, client = connected
    examples = EXAMPLES.get(tool, 1000) // (QUICK_SHARE if depth == "quick" else 1)

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(arguments=arguments_for(tool))
    def one_call(arguments):
        result = portal.call(client.call_tool, tool, arguments)
        if result.is_error:
            text = result.content[0].text
            assert text and "Error executing tool" not in text, f"{tool}({arguments}) crashed: {text}"
        else:
            INVARIANTS[tool](result.structured_content)

    one_call()
