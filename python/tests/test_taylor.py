"""export_derivatives: PyTorch traces only the primal network, `inrarch derive` builds the
derivatives (Taylor mode or nested reverse mode, whichever costs fewer multiplies), and the bundle's reference comes from PyTorch autograd, so
`eval --check` compares two independent implementations. Held-out models: a tanh PINN's
Laplacian and a 3-input network's partials up to order 3."""
import copy
import json
import os

import numpy as np
import torch

from tests.util import TmpDirTest, eval_check, inrarch_bin, need_bin
from inrarch_torch import export_derivatives, models
from inrarch_torch.bundle import ExportError, read_npy_dir


def tanh_pinn(inputs, params):
    """3 -> 32 -> 32 -> 1 tanh PINN: u alone; its derivatives come from the C++ side."""
    return {"u": models.mlp_forward(inputs["x"], params, [torch.tanh, torch.tanh, None])[:, 0]}


def three_input_net(inputs, params):
    """3 -> 16 -> 12 -> 2 with sin, exp of a square, a product and a quotient."""
    h = torch.sin(models.linear(inputs["x"], params["l0.weight"], params["l0.bias"], "nn"))
    h = torch.exp(-h * h) * torch.cos(h)
    y = models.linear(h, params["l1.weight"], params["l1.bias"], "nn")
    y = models.linear(torch.tanh(y), params["l2.weight"], params["l2.bias"], "nn")
    return {"y": y, "q": y[:, 0] / (1.5 + y[:, 1] ** 2)}


def siren(inputs, params):
    """INSP's SIREN alone: y = the network's output, no derivative."""
    h = inputs["x"]
    for i in range(models.INSP_LAYERS):
        h = models.linear(h, params[f"l{i}.weight"], params[f"l{i}.bias"], "batch")
        if i < models.INSP_LAYERS - 1:
            h = torch.sin(models.INSP_OMEGA * h)
    return {"y": h}


def insp_request(order):
    """INSP's li as requests: y[..., c], then ∂_j (li[i] / 189) for each step i."""
    li = [{"name": f"out{c}", "of": "y", "alpha": [0, 0], "index": c} for c in range(3)]
    for k in range(3, models.insp_output_count(order)):
        parent = li[(k - 3) // 2]
        alpha = list(parent["alpha"])
        alpha[(k - 3) % 2] += 1
        li.append({"name": f"out{k}", "of": "y", "alpha": alpha, "index": parent["index"],
                   "scale": parent.get("scale", 1.0) / models.INSP_SCALE})
    return li


def setup(sizes, batch, seed):
    return {"x": models.uniform_input(batch, sizes[0], seed)}, models.mlp_params(sizes, seed)


class TaylorExportTest(TmpDirTest):
    def setUp(self):
        super().setUp()
        need_bin(self)
        os.environ.setdefault("INRARCH_BIN", inrarch_bin())

    def test_tanh_pinn_laplacian_and_gradient(self):
        inputs, params = setup([3, 32, 32, 1], 16, seed=1)
        request = [{"name": "lap_u", "of": "u", "alpha": [[2, 0, 0], [0, 2, 0], [0, 0, 2]]}]
        request += [{"name": f"du_dx{j}", "of": "u", "alpha": [int(i == j) for i in range(3)]}
                    for j in range(3)]
        out = self.path("pinn")
        export_derivatives(tanh_pinn, inputs, params, out, order=2, request=request)
        eval_check(self, out)
        with open(os.path.join(out, "graph.json")) as f:
            self.assertEqual([o["name"] for o in json.load(f)["outputs"]],
                             ["lap_u", "du_dx0", "du_dx1", "du_dx2"])

    def test_three_input_network_every_partial_to_order_three(self):
        inputs, params = setup([3, 16, 12, 2], 8, seed=2)
        out = self.path("three")
        request = export_derivatives(three_input_net, inputs, params, out, order=3)
        self.assertEqual(len(request), 2 * 20)  # C(3+3, 3) partials of each output
        self.assertIn({"name": "q_d1_1_1", "of": "q", "alpha": [1, 1, 1]}, request)
        eval_check(self, out)

    def test_heat_residual_is_one_signed_output(self):
        """u_t - 0.1 u_xx of a tanh PINN u(x, t) as one request, against autograd written
        out here (nested reverse mode)."""
        inputs, params = setup([2, 24, 24, 1], 12, seed=4)
        request = [{"name": "heat", "of": "u",
                    "terms": [{"alpha": [0, 1], "scale": 1}, {"alpha": [2, 0], "scale": -0.1}]}]
        out = self.path("heat")
        export_derivatives(tanh_pinn, inputs, params, out, order=2, request=request)
        eval_check(self, out)   # Taylor mode (C++) against the autograd reference
        x = inputs["x"].clone().requires_grad_(True)
        u = tanh_pinn({"x": x}, params)["u"]
        g = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
        u_xx = torch.autograd.grad(g[:, 0].sum(), x, create_graph=True)[0][:, 0]
        want = (g[:, 1] - 0.1 * u_xx).detach().numpy()
        got = read_npy_dir(os.path.join(out, "reference"))["heat"]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
        self.assertGreater(np.abs(want).max(), 1e-3)

    def test_batch_of_one_coordinates(self):
        """SIREN's [1, N, 2] coordinates and a float32 nn.Module: derived on the N rows."""
        torch.manual_seed(6)
        net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1))

        def field(inputs, params):
            return {"y": net(inputs["coords"])}
        coords = torch.rand(1, 8, 2) * 2 - 1
        request = [{"name": "lap", "of": "y", "alpha": [[2, 0], [0, 2]], "index": 0}]
        out = self.path("siren")
        export_derivatives(field, {"coords": coords}, {}, out, wrt="coords", order=2,
                           request=request)
        eval_check(self, out)
        with open(os.path.join(out, "graph.json")) as f:
            nodes = json.load(f)["nodes"]
        self.assertIn([8, 2], [n["shape"] for n in nodes if n["op"] == "input"])
        x = coords.double().requires_grad_(True)
        y = copy.deepcopy(net).double()(x)[..., 0]
        g = torch.autograd.grad(y.sum(), x, create_graph=True)[0]
        lap = sum(torch.autograd.grad(g[..., j].sum(), x, create_graph=True)[0][..., j]
                  for j in range(2))
        got = read_npy_dir(os.path.join(out, "reference"))["lap"]
        self.assertEqual(got.shape, (1, 8))      # y[..., 0] of the [1, 8, 1] output
        np.testing.assert_allclose(got, lap.detach().numpy(), rtol=1e-12, atol=1e-14)
        self.assertEqual(net[0].weight.dtype, torch.float32)

    def test_batch_of_one_whose_points_interact_is_refused(self):
        def centred(inputs, params):
            y = torch.tanh(inputs["coords"] @ params["w"])
            return {"y": y - y.mean(dim=1, keepdim=True)}    # mixes the N points
        with self.assertRaisesRegex(ExportError, "output 'y' .* its points are not independent"):
            export_derivatives(centred, {"coords": torch.rand(1, 6, 2)}, {"w": torch.rand(2, 3)},
                               self.path("mixed"), wrt="coords")
        self.assertFalse(os.path.exists(self.path("mixed")))

    def test_either_construction_checks_against_autograd(self):
        """mode="taylor" and mode="reverse" give graphs of different shapes (Taylor mode's
        jets, nested reverse mode's backward passes) with the same values; a mode that is
        neither is the CLI's error and writes nothing."""
        inputs, params = setup([3, 16, 16, 1], 8, seed=5)
        request = [{"name": "lap_u", "of": "u", "alpha": [[2, 0, 0], [0, 2, 0], [0, 0, 2]]}]
        graphs = {}
        for mode in ("taylor", "reverse"):
            out = self.path(mode)
            export_derivatives(tanh_pinn, inputs, params, out, order=2, request=request, mode=mode)
            eval_check(self, out)
            with open(os.path.join(out, "graph.json")) as f:
                graphs[mode] = len(json.load(f)["nodes"])
        self.assertNotEqual(graphs["taylor"], graphs["reverse"])
        with self.assertRaisesRegex(ExportError, "--mode: forward not in"):
            export_derivatives(tanh_pinn, inputs, params, self.path("bad"), order=1, mode="forward")
        self.assertFalse(os.path.exists(self.path("bad")))

    def test_a_wrong_request_is_the_derive_error(self):
        inputs, params = setup([3, 8, 8, 1], 4, seed=3)
        with self.assertRaisesRegex(ExportError, "summing to at most the order 1"):
            export_derivatives(tanh_pinn, inputs, params, self.path("bad"), order=1,
                               request=[{"name": "h", "of": "u", "alpha": [2, 0, 0]}])
        self.assertFalse(os.path.exists(self.path("bad")))
        with self.assertRaisesRegex(ExportError, "'t' must be an input"):
            export_derivatives(tanh_pinn, inputs, params, self.path("bad"), wrt="t")
        with self.assertRaisesRegex(ExportError, r"'x' must be an input .* got \[2, 4, 3\]"):
            export_derivatives(tanh_pinn, {"x": torch.rand(2, 4, 3)}, params, self.path("bad"))

    def test_insp_orders_one_to_three_equal_pytorchs_insp(self):
        """Only the SIREN is traced; its Taylor derivatives equal INSP's own PyTorch code."""
        for order in (1, 2, 3):
            inputs, params = models.insp_setup(6, width=16, seed=order)
            out = self.path(f"insp{order}")
            export_derivatives(siren, inputs, params, out, order=order, request=insp_request(order))
            eval_check(self, out)
            x = inputs["x"].clone().requires_grad_(True)
            want = models.insp_fn(order)({"x": x}, params)
            got = read_npy_dir(os.path.join(out, "reference"))
            self.assertEqual(len(got), len(want))
            for k, w in enumerate(want):
                np.testing.assert_allclose(got[f"out{k}"], w.detach().numpy(), rtol=1e-9,
                                           atol=1e-12 * float(w.abs().max()), err_msg=f"out{k}")
