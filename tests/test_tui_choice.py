"""The forms' one-line choice: stepping, jumping by letter, clicking, and refusing values it does not offer."""
import pytest
from textual.app import App

from gpusizer.tui.choice import Choice


class OneChoice(App):
    def compose(self):
        yield Choice(["none", "zero1", "zero2", "zero3", "fsdp"], "none", id="sharding")


async def test_arrows_step_through_the_values_and_wrap_around():
    async with OneChoice().run_test() as pilot:
        choice = pilot.app.query_one(Choice)
        choice.focus()
        await pilot.press("right", "right")
        assert choice.value == "zero2"
        await pilot.press("left", "left", "left")
        assert choice.value == "fsdp"
        await pilot.press("space")
        assert choice.value == "none"


async def test_a_letter_jumps_to_the_next_value_starting_with_it():
    async with OneChoice().run_test() as pilot:
        choice = pilot.app.query_one(Choice)
        choice.focus()
        await pilot.press("z")
        assert choice.value == "zero1"
        await pilot.press("z")
        assert choice.value == "zero2"
        await pilot.press("f")
        assert choice.value == "fsdp"
        await pilot.press("q")  # no value starts with q: nothing changes
        assert choice.value == "fsdp"


async def test_a_click_steps_forward_and_each_change_is_announced():
    changes = []

    class Watching(OneChoice):
        def on_choice_changed(self, event: Choice.Changed) -> None:
            changes.append(event.value)

    async with Watching().run_test() as pilot:
        await pilot.click(Choice)
        await pilot.pause()
        assert pilot.app.query_one(Choice).value == "zero1"
        assert changes == ["zero1"]


async def test_the_screen_shows_the_value_and_where_it_is_in_the_list():
    async with OneChoice().run_test() as pilot:
        choice = pilot.app.query_one(Choice)
        choice.value = "zero3"
        assert str(choice.render()) == "‹ zero3 ›  4/5"


async def test_a_value_it_does_not_offer_is_refused_with_the_allowed_values():
    async with OneChoice().run_test() as pilot:
        choice = pilot.app.query_one(Choice)
        with pytest.raises(ValueError, match="'zero4' is not one of none, zero1, zero2, zero3, fsdp"):
            choice.value = "zero4"
        assert choice.value == "none"
    with pytest.raises(ValueError):
        Choice(["a", "b"], "c")


def test_hovering_shows_every_value_and_the_keys():
    choice = Choice(["inference", "training"], "inference")
    assert "inference · training" in str(choice.tooltip) and "←/→" in str(choice.tooltip)
