"""INSP order 1 (the built-in SIREN and its input gradients, one MAC per mm) down to RTL:
`inrarch compile --builtin insp --order 1 --no-dse --rtl` runs it with Verilator. The RTL
equals the HLS C simulation bit for bit, takes the event graph's latency to the cycle with
every FIFO op at its time, and Icarus agrees (docs/rtl.md). On inputs ten times the range
its exponents were chosen for, the RTL top's overflow flags fail the compile."""
import json
import os
import shutil

from tests.util import TmpDirTest, compile_rtl, run_bin


class InspRtlTest(TmpDirTest):
    def test_insp_order1_rtl_is_bit_and_cycle_exact(self):
        report, rtl = compile_rtl(self, "--builtin", "insp", "--order", "1", "--batch", "8",
                                  "--width", "8", "--no-dse")
        self.assertEqual(rtl["cycles"], report["fifo"]["latency_cycles"], rtl)
        self.assertEqual(rtl["last_out"], rtl["model_cycles"], rtl)
        self.assertTrue(rtl["trace"]["pass"], rtl)
        self.assertEqual(rtl["lint"], "clean", rtl)
        self.assertTrue(rtl["icarus"]["bit_exact"], rtl)
        self.assertEqual(rtl["icarus"]["cycles"], rtl["cycles"], rtl)

    def test_insp_order1_rtl_with_narrow_weights_is_bit_and_cycle_exact(self):
        # 27-bit streams, 18-bit mm weights: every MAC one DSP48E2 (docs/hls.md "Narrow
        # weights"); the RTL still equals the C simulation bit for bit and cycle for cycle.
        report, rtl = compile_rtl(self, "--builtin", "insp", "--order", "1", "--batch", "4",
                                  "--width", "8", "--no-dse", "--type", "fixed<27,10>",
                                  "--weight-bits", "18")
        self.assertEqual(report["design"]["weight_bits"], 18)
        self.assertEqual(report["design"]["elem_bits"], 27)
        self.assertTrue(report["verification"]["csim"]["pass"], report["verification"]["csim"])
        self.assertEqual(rtl["cycles"], report["fifo"]["latency_cycles"], rtl)
        self.assertTrue(rtl["trace"]["pass"], rtl)
        self.assertEqual(rtl["lint"], "clean", rtl)
        self.assertTrue(rtl["icarus"]["bit_exact"], rtl)
        with open(os.path.join(self.path("out"), "rtl", "inrarch_top.sv")) as f:
            self.assertIn(".WB(18), .FB(8)", f.read())

    def test_insp_inputs_outside_the_range_set_the_rtl_overflow_flags(self):
        if shutil.which("verilator") is None:
            self.skipTest("verilator is not installed (scripts/install-deps.sh installs it)")
        out = self.path("out")  # INSP's coordinates lie in [-1, 1]: ten times this range
        rc, log = run_bin(self, "compile", "--builtin", "insp", "--order", "1", "--batch", "4",
                          "--width", "8", "--no-dse", "--rtl", "--input-range", "-0.1,0.1",
                          "-q", "-o", out)
        self.assertEqual(rc, 2, log)
        self.assertIn("rtl FAIL", log)
        self.assertIn("rtl: overflow flag set on ", log)
        with open(os.path.join(out, "report.json")) as f:
            rtl = json.load(f)["verification"]["rtl"]
        self.assertFalse(rtl["pass"], rtl)
        self.assertTrue(rtl["overflow_flag"], rtl)
        self.assertTrue(rtl["bit_exact"], rtl)  # saturated as the C simulation saturates
        flagged = [p for p, f in rtl["overflow_flags"].items() if f]
        self.assertTrue(flagged, rtl)
        self.assertTrue(all(rtl["overflow_beats"][p] > 0 for p in flagged), rtl)
