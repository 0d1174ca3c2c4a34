"""The model zoo (bench/zoo/models.py) at batch 16 and hidden width 8 (the C simulations'
builds grow with the width), compiled with every C simulation: each
model must export, compile and pass csim, threaded, trace and the project's own csim. A
model that cannot compile yet is skipped with the reason printed (docs/benchmarks.md
"Model zoo")."""
import json
import os
import sys

from tests.util import ROOT, TmpDirTest, run_bin

import inrarch_torch

sys.path.insert(0, os.path.join(ROOT, "bench", "zoo"))
import models  # noqa: E402

# Models that do not compile yet, with why; each is still tried, and reported if it now does.
KNOWN = {}


class Zoo(TmpDirTest):
    def check(self, name):
        case = models.build(name, 16, width=8)
        bundle, out = self.path(name + "-b"), self.path(name)
        inrarch_torch.export(case.fn, case.inputs, case.params, bundle, dtype=case.dtype)
        rc, log = run_bin(self, "compile", bundle, "-q", "-o", out)
        if name in KNOWN and rc != 0:
            print(f"\nzoo: {name} skipped: {KNOWN[name]}", file=sys.stderr)
            self.skipTest(KNOWN[name])
        self.assertEqual(rc, 0, log)
        with open(os.path.join(out, "report.json")) as f:
            v = json.load(f)["verification"]
        for mode in ("csim", "threaded", "trace"):
            self.assertTrue(v[mode]["pass"], (mode, v[mode]))
        if "skipped" not in v["project"]:
            self.assertTrue(v["project"]["pass"], v["project"])


for _name in models.ZOO:
    setattr(Zoo, f"test_{_name}", lambda self, n=_name: self.check(n))
