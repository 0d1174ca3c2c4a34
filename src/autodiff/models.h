// Built-in models: SIREN and the INSP derivative set (README).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "autodiff/taylor.h"
#include "ir/bundle.h"

namespace inrarch::autodiff {

struct SirenSpec {
  std::vector<int64_t> dims = {2, 256, 256, 256, 256, 3};  // in, hidden..., out
  double w0 = 30.0;
  int64_t batch = 64;
  uint64_t seed = 0;
};

// INSP's SIREN, 2 -> width x4 -> 3, at a batch: the benchmark's shape at any width.
SirenSpec insp_siren(int64_t batch, int64_t width, uint64_t seed = 0);

// SIREN forward: sin(w0 * (x W^T + b)) after every layer but the last, which is linear.
// Adds input "x" [batch, dims[0]] and params "l{i}.weight" [out,in], "l{i}.bias" [out];
// returns y [batch, dims.back()].
ir::NodeId build_siren(ir::Graph& g, const SirenSpec& spec);

// SIREN initialisation (seeded, reproducible): first layer W ~ U(-1/in, 1/in), later layers
// W ~ U(-sqrt(6/in)/w0, sqrt(6/in)/w0); biases ~ U(-1/sqrt(in), 1/sqrt(in)).
ir::TensorMap siren_params(const SirenSpec& spec);

// x ~ U(-1, 1), [batch, dims[0]], seeded.
ir::Tensor siren_input(const SirenSpec& spec);

// Number of outputs of the INSP derivative set of order K: 3 * (2^(K+1) - 1).
int64_t insp_output_count(int order);

// How the derivatives are built: nested reverse mode (grad() per step, as INSP does with
// autograd) or Taylor mode (taylor.h: one forward sweep of jets; far fewer MACs).
// The commands' default, "auto", takes the one with fewer multiplies
// (driver/derivative_mode.h).
enum class DerivativeMode { Reverse, Taylor };
const char* mode_name(DerivativeMode m);
DerivativeMode mode_from_name(const std::string& s);  // throws inrarch::Error

// The SIREN alone, its output named "y".
ir::Graph build_siren_graph(const SirenSpec& spec);

// INSP's derivative set as Taylor requests on build_siren_graph's "y": output k is
// scale · ∂^α y[..., c] with INSP's multi-index, component and 1/189 factors.
std::vector<DerivativeRequest> insp_requests(int order);

// The INSP derivative set of order K on a SIREN: outputs out0... in INSP's `li` order
// (y[...,0..2], then for each of the 3*(2^K - 1) gradient steps d(li[i]/189)/dx[...,0..1]).
ir::Graph build_insp_graph(const SirenSpec& spec, int order,
                           DerivativeMode mode = DerivativeMode::Reverse);

// Graph + params + input + reference outputs computed by the interpreter (on the graph of
// nested reverse mode whatever the mode, so a Taylor bundle's reference is independent).
ir::Bundle build_insp_bundle(const SirenSpec& spec, int order, bool with_reference = true,
                             DerivativeMode mode = DerivativeMode::Reverse);

}  // namespace inrarch::autodiff
