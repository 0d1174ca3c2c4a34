"""INSP order 1 (the built-in SIREN and its input gradients, one MAC per mm) down to RTL:
`inrarch compile --builtin insp --order 1 --no-dse --rtl` runs it with Verilator. The RTL
equals the HLS C simulation bit for bit, takes the event graph's latency to the cycle with
every FIFO op at its time, and Icarus agrees (docs/rtl.md)."""
from tests.util import TmpDirTest, compile_rtl


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
