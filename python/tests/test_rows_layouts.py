"""Rows stay independent however PyTorch code lays them out (docs/dataflow.md §7): SIREN's
[1, N, 2] coordinates give the design of [N, 2]; a ones_like seed through the last layer
stays one row, so the ROM does not grow with the batch; an einsum layer leaves no permute
or transpose of the batch in the design (docs/optimizer.md)."""
import json
import os
import random
import re

import torch
from torch import nn

from tests.util import TmpDirTest, run_bin

import inrarch_torch


def grad(y, x):
    return torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]


class SineNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l0, self.l1, self.out = nn.Linear(2, 16), nn.Linear(16, 16), nn.Linear(16, 1)

    def forward(self, x):
        return self.out(torch.sin(self.l1(torch.sin(30 * self.l0(x)))))


class RowsLayouts(TmpDirTest):
    def compile(self, name, fn, inputs):
        bundle, out = self.path(name + "-b"), self.path(name)
        inrarch_torch.export(fn, inputs, {}, bundle)
        rc, log = run_bin(self, "compile", bundle, "--no-hls", "--no-mlir", "-q", "-o", out)
        self.assertEqual(rc, 0, log)
        with open(os.path.join(out, "report.json")) as f:
            return json.load(f)

    def test_leading_one_is_a_batch(self):
        torch.manual_seed(0)
        net = SineNet()

        def fn(inputs, params):
            x = inputs["coords"]
            y = net(x)
            g = grad(y, x)
            return {"y": y, "g": g, "lap": grad(g[..., 0], x)[..., 0:1] + grad(g[..., 1], x)[..., 1:2]}
        xy = torch.rand(256, 2) * 2 - 1
        flat = self.compile("flat", fn, {"coords": xy})
        lead = self.compile("lead", fn, {"coords": xy[None]})
        for r in (flat, lead):
            self.assertFalse(r["analysis"]["exact"], r["analysis"])  # a prefix of the rows
        for key in ("processes", "streams"):
            self.assertEqual(lead["design"][key], flat["design"][key], key)
        self.assertEqual(lead["fifo"]["latency_cycles"], flat["fifo"]["latency_cycles"])
        self.assertEqual(lead["resources"]["on_chip_bits"], flat["resources"]["on_chip_bits"])

    def seed_net(self, seed):
        rnd = random.Random(seed)
        widths = [2] + [rnd.choice([4, 8, 12]) for _ in range(rnd.randint(1, 3))] + [1]
        torch.manual_seed(seed)
        acts = [nn.Tanh, nn.Sigmoid, nn.Softplus]
        layers = []
        for i in range(len(widths) - 1):
            layers.append(nn.Linear(widths[i], widths[i + 1]))
            if i < len(widths) - 2:
                layers.append(rnd.choice(acts)())
        net = nn.Sequential(*layers)
        use_sum = rnd.random() < 0.5

        def fn(inputs, params):
            x = inputs["x"]
            u = net(x)
            seed_of = u.sum() if use_sum else u
            g = torch.autograd.grad(seed_of, x, None if use_sum else torch.ones_like(u), create_graph=True)[0]
            return {"u": u, "g": g}
        return fn

    def test_seed_stays_one_row_after_every_pass(self):
        shape = re.compile(r"= (param|const) .*: \[(\d+)")
        for seed in range(4):
            fn = self.seed_net(seed)
            bundle = self.path(f"seed{seed}")
            inrarch_torch.export(fn, {"x": torch.rand(64, 2)}, {}, bundle)
            rc, log = run_bin(self, "opt", bundle, "--print-after", "all")
            self.assertEqual(rc, 0, log)
            for line in log.splitlines():
                m = shape.search(line)
                # A constant or param of 64 rows is data per sample unless it is a splat.
                if m and m.group(2) == "64" and not re.search(r"const -?[0-9.e+-]+ :", line):
                    self.fail(f"seed net {seed}: fixed data of batch size: {line}")

    def test_rom_of_a_seeded_net_does_not_grow_with_the_batch(self):
        fn = self.seed_net(1)
        rom = {}
        # 1,024 rows and more: at 256 the deep pipelines (the multiplies in the fabric, 35
        # steps) hold the whole batch in flight and the state never repeats.
        for batch in (1024, 4096):
            torch.manual_seed(0)
            r = self.compile(f"rom{batch}", fn, {"x": torch.rand(batch, 2)})
            self.assertFalse(r["analysis"]["exact"], r["analysis"])
            rom[batch] = r["resources"]["on_chip_bits"]["rom"]
        self.assertEqual(rom[1024], rom[4096])

    def test_einsum_layer_has_no_permute_of_the_batch(self):
        torch.manual_seed(0)
        w1, w2 = torch.randn(16, 2), torch.randn(1, 16)

        def fn(inputs, params):
            h = torch.tanh(torch.einsum('bi,oi->bo', inputs["x"], params["w1"]))
            return {"u": torch.einsum('bi,oi->bo', h, params["w2"])}
        bundle, out = self.path("ein-b"), self.path("ein")
        inrarch_torch.export(fn, {"x": torch.rand(64, 2)}, {"w1": w1, "w2": w2}, bundle)
        rc, log = run_bin(self, "compile", bundle, "--no-hls", "--no-mlir", "-q", "-o", out)
        self.assertEqual(rc, 0, log)
        with open(os.path.join(out, "activity.json")) as f:
            kinds = [p["kind"] for p in json.load(f)["processes"]]
        self.assertEqual(kinds.count("mm"), 2, kinds)
        for kind in ("transpose", "permute"):
            self.assertNotIn(kind, kinds)
