"""Two models of the zoo (bench/zoo/models.py at batch 15, width 4: the neural SDF's 3-wide
buffers end inside a 128-bit word, so the movers drop and strobe the padding) run as memory-mapped
kernels (docs/deploy.md): the RTL kernel under device memory with random latency and
back-pressure equals the C simulation bit for bit (`make kernel-sim`, two back-to-back
runs), and inrarch_torch.run gives PyTorch's outputs within the C simulation's own error;
a bad input raises RunError with the tool's message."""
import json
import os
import shutil
import subprocess
import sys

import torch

from tests.util import ROOT, TmpDirTest, inrarch_bin, run_bin

import inrarch_torch
from inrarch_torch.bundle import read_npy_dir

sys.path.insert(0, os.path.join(ROOT, "bench", "zoo"))
import models  # noqa: E402


class KernelRun(TmpDirTest):
    def compile(self, name):
        if shutil.which("verilator") is None:
            self.skipTest("verilator is not installed (scripts/install-deps.sh installs it)")
        case = models.build(name, 15, width=4)
        bundle, out = self.path(name + "-b"), self.path(name)
        inrarch_torch.export(case.fn, case.inputs, case.params, bundle, dtype=case.dtype)
        rc, log = run_bin(self, "compile", bundle, "-q", "-o", out, "--rtl", "--no-rtl-sim")
        self.assertEqual(rc, 0, log)
        return case, bundle, out

    def check(self, name):
        case, bundle, out = self.compile(name)
        # -O0 and both cores: the testbench builds in a fraction of the time, and runs of 15 rows
        # do not notice the slower code. inrarch_torch.run then finds it built.
        sim = subprocess.run(["make", "-C", os.path.join(out, "rtl"), "kernel-sim", "KERNEL_OPT=-O0", "KERNEL_JOBS=2",
                              "KERNEL_SIM_FLAGS=--runs 2 --lat-min 3 --lat-max 70 --stall 0.3 --seed 5"],
                             capture_output=True, text=True)
        self.assertEqual(sim.returncode, 0, sim.stdout[-2000:] + sim.stderr[-2000:])
        line = json.loads([s for s in sim.stdout.splitlines() if s.startswith("{")][-1])
        self.assertTrue(line["bit_exact"], line)
        self.assertTrue(line["registers_ok"], line)
        self.assertEqual(len(line["runs"]), 2, line)

        outputs, info = inrarch_torch.run_info(out, case.inputs, binary=inrarch_bin())
        self.assertGreater(info["cycles"], 0)
        with open(os.path.join(out, "report.json")) as f:
            # report.json keeps six significant digits of the C simulation's error
            bound = json.load(f)["verification"]["csim"]["max_abs_error"] * (1 + 1e-5)
        reference = read_npy_dir(os.path.join(bundle, "reference"))
        self.assertEqual(set(outputs), set(reference))
        for k, want in reference.items():
            got = outputs[k]
            self.assertEqual(tuple(got.shape), tuple(want.shape), k)
            err = (got - torch.as_tensor(want, dtype=torch.float64)).abs().max().item()
            self.assertLessEqual(err, bound, k)

    def test_poisson_pinn(self):
        self.check("poisson_pinn")

    def test_neural_sdf(self):
        self.check("neural_sdf")

    def test_bad_input_raises_run_error(self):
        case, _, out = self.compile("siren")
        x = next(iter(case.inputs))
        with self.assertRaises(inrarch_torch.RunError) as e:
            inrarch_torch.run(out, {x: torch.zeros(3, 2)}, binary=inrarch_bin())
        self.assertIn("(the compiled batch)", str(e.exception))
        with self.assertRaises(inrarch_torch.RunError) as e:
            inrarch_torch.run(out, {"nope": torch.zeros(3, 2)}, binary=inrarch_bin())
        self.assertIn("the kernel has no input 'nope'", str(e.exception))
