"""inrarch_torch.run: a compiled design's memory-mapped kernel run from PyTorch through the
host runtime (`inrarch run`, docs/deploy.md). The tensors go to .npy files, `inrarch run`
moves them through the device's memory, and its outputs come back as float64 tensors."""
import json
import os
import subprocess
import tempfile

import numpy as np
import torch

from .derivatives import find_binary


class RunError(RuntimeError):
    """`inrarch run` refused the inputs or the kernel failed; the message is its error line."""


def run(out_dir, inputs, *, device="verilator", binary=None, mem_latency=None):
    """Runs the kernel of `out_dir` (the folder of `inrarch compile --rtl`) on `inputs`, a
    dict of the model's input names to tensors of the compiled shapes. Returns a dict of the
    output names to float64 tensors (`run_info` also gives the cycles and flags).
    Raises RunError with `inrarch run`'s message on a bad input or a failed run."""
    outputs, _ = run_info(out_dir, inputs, device=device, binary=binary, mem_latency=mem_latency)
    return outputs


def run_info(out_dir, inputs, *, device="verilator", binary=None, mem_latency=None):
    """As `run`, and also run.json (cycles start to done with the memory transfers, time at
    the clock, overflow flags, whether an input saturated)."""
    exe = find_binary(binary)
    with tempfile.TemporaryDirectory(prefix="inrarch-run-") as tmp:
        args = [exe, "run", os.fspath(out_dir), "-q", "-o", os.path.join(tmp, "results"), "--device", device]
        for name, value in inputs.items():
            path = os.path.join(tmp, f"in-{len(args)}.npy")
            np.save(path, torch.as_tensor(value).detach().cpu().to(torch.float64).numpy())
            args += ["--input", f"{name}={path}"]
        if mem_latency is not None:
            args += ["--mem-latency", str(mem_latency)]
        proc = subprocess.run(args, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RunError((proc.stderr or proc.stdout).strip())
        results = os.path.join(tmp, "results")
        with open(os.path.join(results, "run.json")) as f:
            info = json.load(f)
        outputs = {name: torch.from_numpy(np.load(os.path.join(results, file)))
                   for name, file in info["outputs"].items()}
    return outputs, info
