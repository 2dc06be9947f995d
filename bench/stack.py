"""What the service benchmarks share beyond the site's stack (``ops.stack``): a driver run
in a subprocess, a process's CPU time."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from typing import Any

import psutil

from bench import ROOT


def run_driver(env: dict[str, str], *args: str, timeout: float = 3600) -> Any:
    """Run ``python -m <args>`` in ``env``; the JSON its last line of output holds."""
    command = [sys.executable, "-m", *args]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)  # fmt: skip
    if done.returncode:
        raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def cpu_seconds(pid: int, tree: bool = False) -> float:
    """User and system CPU seconds of a process (0 once it is gone); with ``tree``, of its
    children too, living and reaped."""
    try:
        procs = [psutil.Process(pid)]
        procs += procs[0].children(recursive=True) if tree else []
    except psutil.Error:
        return 0.0
    total = 0.0
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            total += sum(proc.cpu_times()[: 4 if tree else 2])
    return total
