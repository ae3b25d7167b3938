"""A benchmark run as a person runs it, from the checkout's root in a process of its own (the
no test imports a benchmark): what it printed, or the figures it wrote with ``--json``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run(script: str, *options: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``python benchmarks/SCRIPT OPTIONS``, which must succeed; what it printed."""
    done = subprocess.run(
        [sys.executable, f"benchmarks/{script}", *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def figures(script: str, folder: Path, *options: str, timeout: float = 600) -> dict[str, Any]:
    """The figures a run of the benchmark wrote with ``--json`` (into `folder`)."""
    written = folder / "figures.json"
    run(script, *options, "--json", str(written), timeout=timeout)
    found: dict[str, Any] = json.loads(written.read_text())
    return found
