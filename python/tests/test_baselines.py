"""bench/baselines (docs/benchmarks.md "Baselines"): the Taylor-mode and functorch methods
against nested autograd written out here, on tiny MLPs with each activation the workloads
use, at orders 1-3; and the check that refuses a wrong method before it is timed."""
import math
import os
import sys
import unittest

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "baselines"))

import harness  # noqa: E402
import methods  # noqa: E402
import workloads  # noqa: E402


def tiny(act, act_param, order, seed):
    """A 2 -> 7 -> 5 -> 3 MLP as an INSP-style workload: every partial of every output to `order`."""
    gen = torch.Generator().manual_seed(seed)
    sizes = [2, 7, 5, 3]
    layers = [(torch.randn(o, i, generator=gen, dtype=torch.float64) / math.sqrt(i),
               torch.randn(o, generator=gen, dtype=torch.float64) * 0.3) for i, o in zip(sizes[:-1], sizes[1:])]
    wl = workloads.Workload(f"tiny-{act}", "insp", order, act, act_param, layers, [], 2)
    wl.alphas = sorted({tuple(sorted(d)) for _, d in workloads.insp_entries(order)}, key=lambda t: (len(t), t))
    return wl


def insp_by_autograd(wl, x, order):
    """INSP's outputs written from its definition: y[..., 0..2], then d_j of output i / 189."""
    x = x.clone().requires_grad_(True)
    y = wl.forward(x, wl.params(torch.float64))
    outs = [y[:, 0], y[:, 1], y[:, 2]]
    n = {1: 3, 2: 9, 3: 21}[order]
    for i in range(n):
        g = torch.autograd.grad(outs[i] / 189.0, x, torch.ones_like(outs[i]), create_graph=True)[0]
        outs += [g[:, 0], g[:, 1]]
    return torch.stack([o.detach() for o in outs], dim=1)


class MethodsAgreeWithAutograd(unittest.TestCase):
    CASES = [("sin", 30.0), ("tanh", 0.0), ("softplus", 100.0), ("softplus", 2.0)]

    def check(self, method):
        for act, p in self.CASES:
            for order in (1, 2, 3):
                with self.subTest(act=act, beta_or_omega=p, order=order):
                    wl = tiny(act, p, order, seed=order)
                    x = torch.rand(9, 2, generator=torch.Generator().manual_seed(5), dtype=torch.float64) * 2 - 1
                    ref = insp_by_autograd(wl, x, order)
                    got = methods.flat(methods.build(method, wl, torch.float64)(x)).detach()
                    self.assertEqual(got.shape, ref.shape)
                    scale = ref.abs().amax(0).clamp_min(1e-300)
                    self.assertLess(((got - ref).abs().amax(0) / scale).max().item(), 1e-10)

    def test_taylor(self):
        self.check("taylor")

    def test_functorch(self):
        self.check("functorch")

    def test_zoo_workloads(self):
        """The PINN's and the SDF's outputs (the zoo's own autograd code) by every method."""
        for wl in (workloads.poisson_pinn(), workloads.neural_sdf()):
            x = wl.inputs(16, torch.float64)
            ref = harness.reference(wl, 16)
            for m in ("taylor", "functorch"):
                with self.subTest(workload=wl.name, method=m):
                    _, rel, ok = harness.compare(methods.flat(methods.build(m, wl, torch.float64)(x)), ref,
                                                 torch.float64)
                    self.assertTrue(ok, rel)

    def test_only_needed_partials_are_carried(self):
        self.assertEqual(workloads.closure([(), (0, 0), (1, 1)]), [(), (0,), (1,), (0, 0), (1, 1)])
        self.assertEqual(len(workloads.closure(workloads.insp(3).alphas)), 10)


class JetPolarisation(unittest.TestCase):
    """gpu_methods' mixed partials from directional derivatives (the jax.experimental.jet path,
    which only a JAX machine runs): here the directional derivatives come from autograd."""

    def test_mixed_partials_from_directions(self):
        import gpu_methods

        def f(p):
            x, y = p[..., 0], p[..., 1]
            return torch.sin(1.3 * x + 0.7 * y) * torch.exp(0.4 * y) + x ** 3 * y ** 2

        p = torch.tensor([[0.3, -0.6], [0.9, 0.2]], dtype=torch.float64)
        dirs = [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, -1.0)]
        res = []
        for v in dirs:
            t = torch.zeros(p.shape[0], 1, dtype=torch.float64, requires_grad=True)
            g = f(p + t * torch.tensor(v, dtype=torch.float64))
            ders = [g.detach()]
            for _ in range(3):
                g = torch.autograd.grad(g.sum(), t, create_graph=True)[0][:, 0]
                ders.append(g.detach())
            res.append(ders)
        q = p.clone().requires_grad_(True)
        for t in [(0, 1), (0, 0, 1), (0, 1, 1)]:
            g = f(q)
            for j in t:
                g = torch.autograd.grad(g.sum(), q, create_graph=True)[0][:, j]
            with self.subTest(partial=t):
                self.assertTrue(torch.allclose(gpu_methods._partial_from_dirs(t, res, 2), g.detach(), atol=1e-12))


class CheckRefuses(unittest.TestCase):
    def test_a_wrong_output_is_refused(self):
        wl = workloads.poisson_pinn()
        ref = harness.reference(wl, 8)
        good = methods.flat(methods.build("taylor", wl, torch.float32)(wl.inputs(8, torch.float32)))
        self.assertTrue(harness.compare(good, ref, torch.float32)[2])
        bad = good.clone()
        bad[3, 1] += 1e-3 * ref[:, 1].abs().max().item()
        self.assertFalse(harness.compare(bad, ref, torch.float32)[2])
        nan = good.clone()
        nan[0, 0] = float("nan")
        self.assertFalse(harness.compare(nan, ref, torch.float32)[2])


FAKE_SMI = """#!/bin/sh
# nvidia-smi as the power monitor calls it: one query, or a sample every -lms milliseconds.
case "$*" in
  *power.draw.instant*) [ -n "$FAKE_NO_INSTANT" ] && { echo "Field is not valid"; exit 2; } ;;
esac
case "$*" in
  *-lms=*) while true; do echo 117.5; sleep 0.02; done ;;
  *nounits*) echo 117.5 ;;
  *) echo "117.50 W" ;;
esac
"""


class GpuHarnessWithoutAGpu(unittest.TestCase):
    """measure_gpu.py's device-independent parts: the power sampler against a stand-in
    nvidia-smi, the energy phase's choice of methods, a failing cell recorded and skipped."""

    def setUp(self):
        import tempfile
        self.tmp = tempfile.TemporaryDirectory()
        smi = os.path.join(self.tmp.name, "nvidia-smi")
        with open(smi, "w") as f:
            f.write(FAKE_SMI)
        os.chmod(smi, 0o755)
        self.env = dict(os.environ)
        os.environ["PATH"] = self.tmp.name + os.pathsep + os.environ["PATH"]

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.env)
        self.tmp.cleanup()

    def test_power_monitor_samples_the_instant_field_or_falls_back(self):
        import time
        import gpu_power
        mon = gpu_power.PowerMonitor(0, 20)
        self.assertEqual(mon.field, "power.draw.instant")
        mon.start()
        time.sleep(0.3)
        got = mon.stop()
        self.assertGreaterEqual(got["power_samples"], 3)
        self.assertAlmostEqual(got["power_w_mean"], 117.5)
        self.assertEqual(mon.stop(), {})     # a second stop (after a failed cell) is harmless
        os.environ["FAKE_NO_INSTANT"] = "1"
        self.assertEqual(gpu_power.PowerMonitor(0, 20).field, "power.draw")

    def test_energy_phase_measures_the_fastest_method_and_nested(self):
        import measure_gpu

        class Res:
            records = []

            def add(self, rec):
                self.records.append(rec)
        wl = tiny("sin", 30.0, 1, seed=3)       # an INSP workload: the energy phase measures those only
        res = Res()
        res.records = [dict(status="timed", workload=wl.name, batch=64, dtype="float32", device="cpu",
                            method=m, median_s=t) for m, t in (("nested", 3.0), ("taylor", 1.0), ("functorch", 2.0))]
        # (INSP's nested code needs INSP's five layers; the phase only calls the runs it picks.)
        runs = {(m, wl.name): methods.build(b, wl, torch.float32)
                for m, b in (("nested", "taylor"), ("taylor", "taylor"), ("functorch", "functorch"))}
        self.assertEqual(measure_gpu.energy_targets(wl, 64, torch.device("cpu"), res.records, runs),
                         ["taylor", "nested"])
        import gpu_power
        saved, measure_gpu.ENERGY_SECONDS = measure_gpu.ENERGY_SECONDS, 0.2
        try:
            measure_gpu.run_energy([wl], torch.device("cpu"), res, float("inf"), gpu_power.PowerMonitor(0, 20), runs)
        finally:
            measure_gpu.ENERGY_SECONDS = saved
        energy = [r for r in res.records if r.get("kind") == "energy"]
        self.assertEqual([r["method"] for r in energy], ["taylor", "nested"])
        self.assertTrue(all(r["power_w_mean"] == 117.5 and r["runs"] >= 5 for r in energy))

    def test_a_raising_method_is_an_error_record_and_the_deadline_skips(self):
        import argparse
        wl = workloads.poisson_pinn()
        opts = argparse.Namespace(max_run_s=5.0, warmup=0, min_runs=2, max_runs=2, budget_s=0.0, load_excess=0.5)
        ref = harness.reference(wl, 8)

        def broken(x):
            raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")
        recs = list(harness.measure_series(broken, wl, torch.float32, [1, 8], ref, opts))
        self.assertEqual([r["status"] for r in recs], ["error", "error"])
        self.assertIn("RuntimeError: CUDA out of memory", recs[0]["reason"])
        good = methods.build("taylor", wl, torch.float32)
        recs = list(harness.measure_series(good, wl, torch.float32, [1, 8], ref, opts, deadline=0.0))
        self.assertEqual([r["status"] for r in recs], ["skipped", "skipped"])
        recs = list(harness.measure_series(good, wl, torch.float32, [1, 8], ref, opts))
        self.assertEqual([r["status"] for r in recs], ["timed", "timed"])


class RenderGpu(unittest.TestCase):
    """render_gpu's tables from hand-made records, against values worked out by hand."""

    def setUp(self):
        def rec(method, batch, t, **kw):
            return dict(dict(method=method, device="cuda", workload="insp-o1", batch=batch, dtype="float32",
                             status="timed", median_s=t), **kw)
        self.gpu = {"runs": [], "records": [
            rec("nested", 64, 4e-3), rec("taylor+cudagraph", 64, 1e-4), rec("jax-jacfwd", 64, 2e-4),
            rec("taylor+compile", 64, None, status="error", reason="boom"),
            dict(rec("taylor+cudagraph", 64, 1.2e-4), kind="energy", status="energy", power_w_mean=150.0,
                 power_w_max=190.0),
            rec("nested", 64, 1e-5, device="cpu")]}   # a host-CPU record is no GPU record
        # a design of 36,000 cycles at 300 MHz: 120 µs; 10 W (energy.design_point's fields)
        self.designs = {(1, 64): {"cycles": 36000, "latency_s": 1.2e-4, "energy_per_sample_j": 10 * 1.2e-4 / 64,
                                  "edp_js": 10 * 1.2e-4 * 1.2e-4}}

    def test_fastest_is_the_fastest_timed_gpu_method(self):
        import render_gpu
        self.assertEqual(render_gpu.fastest(self.gpu["records"], workload="insp-o1", batch=64)["method"],
                         "taylor+cudagraph")
        row = [line for line in render_gpu.table(self.gpu, "float32") if line.startswith("| insp-o1 | 64 |")][0]
        self.assertIn("| Taylor +graph | 40.0× |", row)       # nested 4 ms over 100 µs
        self.assertIn("| error |", row)

    def test_the_design_against_the_gpu(self):
        import render_gpu
        row = render_gpu.versus_design(self.gpu, self.designs, 180.0)[2]
        # GPU 100 µs / design 120 µs = 0.833; at 180 MHz the design takes 200 µs: 0.5.
        self.assertIn("| 0.833× (0.5×) |", row)
        # GPU energy, the measured run's: 150 W x 120 µs / 64 = 281 µJ a sample; the design's
        # 18.75 µJ: 15x.
        self.assertIn("| 18.8 | 281 (Taylor +graph) | 15× |", row)
        # Without a slower estimated clock, the column and the ratio in parentheses go.
        plain = render_gpu.versus_design(self.gpu, self.designs)
        self.assertNotIn("MHz | fastest", plain[0].replace("design @ 300 MHz | fastest", ""))
        self.assertIn("| 120 µs | Taylor +graph, 100 µs | 0.833× | 18.8 |", plain[2])
        summary = render_gpu.summary(lambda **key: None, self.gpu, self.designs)
        self.assertTrue(summary[-1].endswith("| not timed | 100 µs (Taylor +graph) | 0.833× |"), summary[-1])
        self.assertIn("batch 64: 0.833–0.833×", summary[0])


class DocMatchesStoredResults(unittest.TestCase):
    def test_the_baselines_section_is_what_the_stored_results_render(self):
        """docs/benchmarks.md's Baselines section is make bench-baselines' output on the
        committed results: a changed result or renderer without a re-render fails here."""
        import subprocess
        import tempfile
        doc = os.path.join(ROOT, "docs", "benchmarks.md")
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "benchmarks.md")
            with open(doc) as f, open(copy, "w") as g:
                g.write(f.read())
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "baselines", "render.py"), "--doc", copy,
                            "--plots-dir", tmp], check=True, capture_output=True)
            with open(doc) as f, open(copy) as g:
                self.assertEqual(g.read(), f.read())
            self.assertTrue(os.path.getsize(os.path.join(tmp, "baselines_latency.png")) > 10000)


if __name__ == "__main__":
    unittest.main()
