"""The PyTorch x + y example (docs/mlir.md) down to RTL: exported with inrarch_torch,
`inrarch compile --rtl` writes SystemVerilog and runs it with Verilator (docs/rtl.md). The
RTL equals the HLS C simulation bit for bit, takes the event graph's latency to the cycle,
and its outputs, decoded from fixed<32,10>, equal PyTorch's x + y within the type's LSB."""
import os

import torch

from tests.util import TmpDirTest, compile_rtl
from inrarch_torch import export


class TorchAddRtlTest(TmpDirTest):
    def test_add_to_rtl_equals_pytorch(self):
        g = torch.Generator().manual_seed(2)
        x = torch.rand(1, 3, 10, 10, dtype=torch.float64, generator=g)
        y = torch.rand(1, 3, 10, 10, dtype=torch.float64, generator=g)
        export(lambda i, p: i["x"] + i["y"], {"x": x, "y": y}, {}, self.path("bundle"))
        report, rtl = compile_rtl(self, self.path("bundle"))
        self.assertFalse(rtl["hang"], rtl)
        self.assertEqual(rtl["lint"], "clean", rtl)
        self.assertEqual(rtl["cycles"], report["fifo"]["latency_cycles"], rtl)
        # The RTL's own output beats ("<ovf> <hex> <hex> ..." a line, an element a word in
        # order: the search streams several a beat), decoded: x + y within one LSB (inputs
        # floored onto the grid, the sum exact).
        with open(os.path.join(self.path("out"), "rtl", "out", "out_out0.txt")) as f:
            beats = [line.split() for line in f]
        block = report["design"]["block"]
        self.assertTrue(all(len(b) == 1 + block for b in beats), (block, beats[:2]))
        words = [(b[0], w) for b in beats for w in b[1:]]
        want = (x + y).flatten().tolist()
        self.assertEqual(len(words), len(want))
        for (ovf, bits), w in zip(words, want):
            v = int(bits, 16)
            v = v - (1 << 32) if v >= 1 << 31 else v
            self.assertEqual(ovf, "0")
            self.assertLessEqual(abs(v / 2.0**22 - w), 2 * 2.0**-22, (bits, w))
