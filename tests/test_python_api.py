"""The Python API: typed functions whose arguments are exactly the MCP tools' arguments, with helpful errors."""
import inspect
import types
import typing

import pytest

from gpusizer import tools
from gpusizer.tools import SizingError
from gpusizer.tools.compare.compare_gpus import CompareRequest
from gpusizer.tools.memory.biggest import BiggestModelRequest
from gpusizer.tools.memory.request import VramRequest
from gpusizer.tools.memory.workload import WORKLOAD_FIELDS, WorkloadArguments
from gpusizer.tools.money.cloud_cost import CloudCostRequest
from gpusizer.tools.money.rent_vs_buy import RentVsBuyRequest
from gpusizer.tools.serving.plan_models import PlanServingRequest
from gpusizer.tools.speed.estimate_speed import EstimateSpeedRequest
from gpusizer.tools.speed.plan_training import PlanTrainingRequest
from gpusizer.tools.validation import declared_by

OWN_FIELDS = {"estimate_vram": VramRequest, "compare_gpus": CompareRequest, "cloud_cost": CloudCostRequest,
              "rent_vs_buy": RentVsBuyRequest, "plan_serving": PlanServingRequest, "plan_training": PlanTrainingRequest,
              "biggest_model": BiggestModelRequest, "estimate_speed": EstimateSpeedRequest}


def plain(annotation):
    """The type without Annotated limits (the request model carries those)."""
    if typing.get_origin(annotation) is typing.Annotated:
        return plain(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) is list:
        return list[plain(typing.get_args(annotation)[0])]
    return annotation


def strip_optional(annotation):
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    optional = typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1
    return plain(args[0] if optional else annotation)


@pytest.mark.parametrize("tool", OWN_FIELDS)
def test_each_function_lists_exactly_its_request_models_fields_with_the_same_defaults_and_types(tool):
    """Written out for readers and type checkers, checked here so the function and the MCP schema cannot drift."""
    function, model = getattr(tools, tool), OWN_FIELDS[tool]
    signature = inspect.signature(function)
    hints = typing.get_type_hints(function)
    parameters = {n: p for n, p in signature.parameters.items() if n != "catalog" and p.kind != p.VAR_KEYWORD}
    assert set(parameters) == set(model.model_fields)
    for name, parameter in parameters.items():
        field = model.model_fields[name]
        expected_default = inspect.Parameter.empty if field.is_required() else field.default
        assert parameter.default == expected_default, name
        assert strip_optional(hints[name]) == strip_optional(field.annotation), name


def test_every_public_tool_is_checked_against_its_request_model():
    public = {name for name in tools.__all__ if name.islower() and callable(getattr(tools, name)) and not name.endswith("_answer")}
    assert public == set(OWN_FIELDS) == set(tools.ANSWERS)


def test_a_function_that_drifts_from_its_request_model_fails_when_it_is_declared():
    with pytest.raises(TypeError, match="differ"):
        @declared_by(RentVsBuyRequest, "rent_vs_buy")
        def missing_a_field(gpu: str) -> None: ...
    written = inspect.signature(tools.rent_vs_buy)

    def other_default() -> None: ...
    other_default.__signature__ = written.replace(parameters=[  # type: ignore[attr-defined]
        p.replace(default=0.5) if p.name == "utilization" else p for p in written.parameters.values()])
    with pytest.raises(TypeError, match="utilization defaults to 0.5"):
        declared_by(RentVsBuyRequest, "rent_vs_buy")(other_default)


def test_the_workload_riders_are_estimate_vrams_own_fields():
    hints = typing.get_type_hints(WorkloadArguments)
    assert set(hints) == set(WORKLOAD_FIELDS)
    for name, annotation in hints.items():
        assert annotation == strip_optional(VramRequest.model_fields[name].annotation), name


def test_the_first_argument_may_be_positional(catalog):
    assert tools.estimate_vram("llama-3.1-8b", catalog=catalog).model == "meta-llama/Llama-3.1-8B"
    assert tools.cloud_cost("h100", hours=1, catalog=catalog).offers
    assert tools.compare_gpus(["h100", "a100 80gb"], catalog=catalog).gpus


def test_help_lists_every_argument():
    text = inspect.signature(tools.estimate_vram).__str__()
    assert all(name in text for name in ("model", "batch_size", "recipe", "kv_cache_dtype", "gpu"))
    assert tools.estimate_vram.__doc__ and "SizingError" in tools.estimate_vram.__doc__


@pytest.mark.parametrize("call,fragment", [
    (lambda: tools.estimate_vram("llama-3.1-8b", batchsize=64), "did you mean 'batch_size'"),
    (lambda: tools.compare_gpus(["h100", "l4"], modle="llama-3.1-8b"), "did you mean 'model'"),
    (lambda: tools.cloud_cost("h100", hours=1, gpucount=2), "did you mean 'gpu_count'"),
    (lambda: tools.rent_vs_buy("h100", utilisation=0.5), "did you mean 'utilization'"),
])
def test_a_misspelled_argument_names_the_nearest_valid_one(call, fragment):
    with pytest.raises(SizingError, match=fragment):
        call()


@pytest.mark.parametrize("call, arguments, allowed", [
    (lambda: tools.estimate_vram("llama-3.1-8b", batch_size=0), ("batch_size",), "batch_size ≥ 1"),
    (lambda: tools.estimate_vram("llama-3.1-8b", workload="serving"), ("workload",), "one of 'inference' or 'training'"),
    (lambda: tools.estimate_vram("llama-3.1-8b", batchsize=64), ("batchsize",), None),
    (lambda: tools.estimate_vram("lama-9000"), ("model",), None),
    (lambda: tools.cloud_cost("h900", hours=1), ("gpu",), "gpusizer://gpus"),
    (lambda: tools.rent_vs_buy("h100", utilization=1.5), ("utilization",), "≤ 1"),
])
def test_errors_name_the_argument_at_fault_and_what_is_allowed(call, arguments, allowed):
    """Faces place the message by these fields (the TUI under the input), not by reading the sentence."""
    with pytest.raises(SizingError) as caught:
        call()
    assert caught.value.arguments == arguments
    if allowed:
        assert allowed in (caught.value.allowed or "")
