"""Narrow mm weights (`compile --weight-bits`, docs/hls.md "Narrow weights") on a model of the
zoo written as its community writes it (bench/zoo/models.py's neural SDF, its eikonal and
Laplacian terms, at batch 15 and width 4): 27-bit streams and 18-bit weights, one DSP48E2 a
MAC. The C simulations pass against PyTorch's float64 outputs, and the RTL equals the C
simulation bit for bit and takes the event graph's latency to the cycle."""
import os
import sys

from tests.util import ROOT, TmpDirTest, compile_rtl

import inrarch_torch

sys.path.insert(0, os.path.join(ROOT, "bench", "zoo"))
import models  # noqa: E402


class NarrowWeights(TmpDirTest):
    def test_neural_sdf_rtl_with_narrow_weights_is_bit_and_cycle_exact(self):
        case = models.build("neural_sdf", 15, width=4)
        bundle = self.path("sdf-b")
        inrarch_torch.export(case.fn, case.inputs, case.params, bundle, dtype=case.dtype)
        report, rtl = compile_rtl(self, bundle, "--type", "fixed<27,10>", "--weight-bits", "18")
        self.assertEqual(report["design"]["weight_bits"], 18)
        self.assertTrue(report["verification"]["csim"]["pass"], report["verification"]["csim"])
        self.assertEqual(rtl["cycles"], report["fifo"]["latency_cycles"], rtl)
        self.assertTrue(rtl["trace"]["pass"], rtl)
        with open(os.path.join(self.path("out"), "rtl", "inrarch_top.sv")) as f:
            self.assertIn(".WB(18), .FB(8)", f.read())
