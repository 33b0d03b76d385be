#!/usr/bin/env python3
"""The terminal UI's speed, each figure beside a reference measured in the same run.

- start-up: a fresh interpreter from its first line to the app's first frame (the first screen update it sends to
  the terminal; headless, so nothing is written) and to the Estimate result on screen, against a bare Textual app
  with one label from its first line to its first frame, the same hook timing both; targets: the first frame under
  1 s and within 2x the bare app's
- input-to-update: a digit typed into the batch-size input, and the right arrow on the workload choice, until the
  new estimate is on screen, against the estimate_vram call alone and a bare Textual input echoing into a label;
  target under 50 ms

Usage: python benchmarks/tui.py [--rounds 5] [--keys 40]
"""
from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import statistics
import subprocess
import sys
import time

# The first frame: the first screen update an app hands to its driver (App._display, called with the compositor's
# update once the screen is laid out and rendered), hooked the same way in both apps.
FIRST_FRAME_HOOK = r'''
import time; start = time.perf_counter()
import asyncio
from textual.app import App

_display = App._display

def first_frame_noted(app, screen, renderable):
    if renderable is not None and not hasattr(app, "frame"):
        app.frame = time.perf_counter() - start
    return _display(app, screen, renderable)

App._display = first_frame_noted
'''

STARTUP = FIRST_FRAME_HOOK + r'''
from gpusizer.tui.app import GpusizerApp

class Timed(GpusizerApp):
    def on_tool_pane_updated(self, message):
        if not hasattr(self, "first"):
            self.first = time.perf_counter() - start

async def main():
    app = Timed()
    async with app.run_test(size=(100, 30)) as pilot:
        while not hasattr(app, "first") or not hasattr(app, "frame"):
            await asyncio.sleep(0.001)
    print(app.frame, app.first)
asyncio.run(main())
'''

BARE = FIRST_FRAME_HOOK + r'''
from textual.widgets import Label

class Bare(App):
    def compose(self):
        yield Label("hello")

async def main():
    app = Bare()
    async with app.run_test(size=(100, 30)) as pilot:
        while not hasattr(app, "frame"):
            await asyncio.sleep(0.001)
    print(app.frame)
asyncio.run(main())
'''


def fresh_seconds(code: str) -> list[float]:
    """One fresh interpreter. Bytecode caching is allowed (as after any pip install), whatever this shell says."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment)
    return [float(value) for value in result.stdout.strip().splitlines()[-1].split()]


async def keystroke_latencies_ms(keys: int, field: str) -> tuple[list[float], list[float]]:
    """Keys sent to the app as the terminal driver sends them (bindings first, then the focused widget): digits into
    the batch input (cleared before each, untimed), or the right arrow on the workload choice (inference <-> training,
    which changes every figure and the fits table)."""
    from textual import events

    from gpusizer.tools import estimate_vram
    from gpusizer.tui.app import GpusizerApp

    updated = asyncio.Event()
    app = GpusizerApp()
    samples, reference = [], []
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.5)
        pane = app.query_one("#estimate-pane")
        show = pane.show

        def show_then_time(result) -> None:
            show(result)
            pane.call_after_refresh(updated.set)  # runs once the frame with these figures is painted

        pane.show = show_then_time
        widget = pane.query_one(f"#{field}")
        widget.focus()
        for number in range(keys):
            if field == "batch_size":
                widget.value = ""  # not timed: clear, and let that estimate land
                key = str(1 + number % 9)
            else:
                key = "right"
            await pilot.pause()
            updated.clear()
            start = time.perf_counter()
            app.post_message(events.Key(key, key if len(key) == 1 else None))
            await updated.wait()
            samples.append((time.perf_counter() - start) * 1e3)
            arguments = pane.arguments()
            start = time.perf_counter()
            estimate_vram(catalog=app.catalog, **arguments)
            reference.append((time.perf_counter() - start) * 1e3)
    return samples, reference


async def bare_keystroke_ms(keys: int) -> list[float]:
    """Reference: a bare Textual app whose label echoes an input, same terminal size, same key events."""
    from textual import events
    from textual.app import App
    from textual.widgets import Input, Label

    painted = asyncio.Event()

    class Echo(App):
        def compose(self):
            yield Input(id="typed")
            yield Label(id="echo")

        def on_input_changed(self, event) -> None:
            self.query_one("#echo", Label).update(f"{len(event.value)} characters")
            self.call_after_refresh(painted.set)

    app, samples = Echo(), []
    async with app.run_test(size=(100, 30)) as pilot:
        typed = app.query_one("#typed", Input)
        typed.focus()
        for number in range(keys):
            typed.value = ""
            await pilot.pause()
            painted.clear()
            start = time.perf_counter()
            typed.post_message(events.Key(str(1 + number % 9), str(1 + number % 9)))
            await painted.wait()
            samples.append((time.perf_counter() - start) * 1e3)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keys", type=int, default=40)
    arguments = parser.parse_args()
    print(f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M UTC}, {os.cpu_count()} cores, load average "
          f"{' '.join(f'{load:.2f}' for load in os.getloadavg())} (1, 5, 15 min): other work on the machine slows both apps")
    frames, results, bare = [], [], []
    fresh_seconds(STARTUP), fresh_seconds(BARE)  # warm-up: writes the bytecode caches a normal install has
    for _ in range(arguments.rounds):
        frame, result = fresh_seconds(STARTUP)
        frames.append(frame)
        results.append(result)
        bare += fresh_seconds(BARE)
    frame_ms, result_ms = statistics.median(frames) * 1e3, statistics.median(results) * 1e3
    bare_ms = statistics.median(bare) * 1e3
    print(f"start-up in a fresh interpreter, median of {arguments.rounds}:")
    print(f"  gpusizer first frame        {frame_ms:7.0f} ms   (target < 1000 ms)")
    print(f"  gpusizer first estimate     {result_ms:7.0f} ms")
    print(f"  bare Textual app 1st frame  {bare_ms:7.0f} ms   (reference); first frame ratio {frame_ms / bare_ms:.2f} x"
          "   (target < 2 x)")
    medians = {}
    for field, what in (("batch_size", "a digit in 'batch'"), ("workload", "right arrow on 'workload'")):
        samples, reference = asyncio.run(keystroke_latencies_ms(arguments.keys, field))
        medians[field] = statistics.median(samples)
        print(f"keystroke: {what} -> new estimate on screen ({arguments.keys} keys):")
        print(f"  median {statistics.median(samples):6.1f} ms   max {max(samples):6.1f} ms   (target < 50 ms)"
              f"   estimate_vram alone: median {statistics.median(reference):5.2f} ms")
    bare_keys = asyncio.run(bare_keystroke_ms(arguments.keys))
    print(f"  bare Textual input + label: median {statistics.median(bare_keys):6.1f} ms (reference); "
          f"ratio of the digit in 'batch' {medians['batch_size'] / statistics.median(bare_keys):.2f} x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
