// The one table of aten ops the importer understands: base name (no "aten." prefix, no
// overload) → builder. Overloads (add.Tensor / add.Scalar, sum.default / sum.dim_IntList)
// share a row; the builder tells them apart by their arguments. In-place variants (add_,
// mul_, ...) find the row of their functional name.
#include <algorithm>
#include <array>
#include <utility>

#include "frontend/aten_builders.h"

namespace inrarch::frontend {

namespace {

using ir::Op;
namespace r = rules;

constexpr std::pair<std::string_view, AtenRule> kRules[] = {
    // values that pass through
    {"detach", r::identity},              // no autograd in the IR
    {"alias", r::identity},               // a view of the whole tensor
    {"clone", r::identity},               // values are immutable in the IR
    {"contiguous", r::identity},          // layout only
    {"lift_fresh", r::identity},          // PyTorch 2.x wraps traced constants
    {"lift_fresh_copy", r::identity},     // likewise
    {"_to_copy", r::to_copy},             // float64 → float64 only
    {"copy", r::copy},                    // copy(dst, src) → src broadcast to dst
    // elementwise unary
    {"neg", r::unary<Op::Neg>},           // -x
    {"sin", r::unary<Op::Sin>},           // sin x
    {"cos", r::unary<Op::Cos>},           // cos x
    {"exp", r::unary<Op::Exp>},           // e^x
    {"log", r::unary<Op::Log>},           // ln x
    {"tanh", r::unary<Op::Tanh>},         // tanh x
    {"relu", r::unary<Op::Relu>},         // max(x, 0)
    {"sqrt", r::unary<Op::Sqrt>},         // sqrt x
    {"rsqrt", r::rsqrt},                  // 1/sqrt x
    {"cosh", r::cosh},                    // (exp(|x|)+exp(-|x|))/2: gelu's second derivative
    {"reciprocal", r::reciprocal},        // 1/x
    {"square", r::square},                // x*x
    {"pow", r::pow},                      // x^e: muls (|e| <= 16 integer), · sqrt (half), else exp(e log x)
    {"abs", r::abs},                      // relu(x)+relu(-x)
    {"sgn", r::sgn},                      // step(x)-step(-x)
    {"sign", r::sgn},                     // likewise
    {"clamp", r::clamp},                  // min(max(x, lo), hi) by relus
    {"clamp_min", r::clamp_min},          // lo + relu(x-lo)
    {"clamp_max", r::clamp_max},          // hi - relu(hi-x)
    {"maximum", r::maximum},              // b + relu(a-b)
    {"minimum", r::minimum},              // b - relu(b-a)
    // activations (aten_rules_act.cpp: exp of -|x| only)
    {"sigmoid", r::sigmoid},              // (e + step(x)(1-e))/(1+e), e = exp(-|x|)
    {"softplus", r::softplus},            // relu(bx)/b + log(1+exp(-|bx|))/b; x past the threshold
    {"silu", r::silu},                    // x sigmoid(x)
    {"gelu", r::gelu},                    // exact: relu(x) - |x|/2 erfc(|x|/sqrt 2); or the tanh form
    {"erf", r::erf},                      // sgn(x) (1 - erfc(|x|)), erfc = exp(-z^2) poly(2/(2+z))
    {"elu", r::elu},                      // s relu(x) + s alpha (exp(-relu(-x) is) - 1)
    {"leaky_relu", r::leaky_relu},        // relu(x) - k relu(-x)
    // elementwise binary (tensor or number operands, broadcast explicitly)
    {"add", r::add},                      // a + alpha*b
    {"sub", r::sub},                      // a - alpha*b
    {"rsub", r::rsub},                    // b - alpha*a
    {"mul", r::mul},                      // a * b
    {"div", r::div},                      // a / b (true division)
    // comparisons and selection (masks are 1.0 / 0.0 values)
    {"lt", r::lt},                        // step(b-a)
    {"gt", r::gt},                        // step(a-b)
    {"le", r::le},                        // 1-step(a-b)
    {"ge", r::ge},                        // 1-step(b-a)
    {"where", r::where},                  // c*a + (1-c)*b
    {"eq", r::eq},                        // 1-step(a-b)-step(b-a)
    {"ne", r::ne},                        // step(a-b)+step(b-a)
    {"logical_and", r::logical_and},      // a*b of masks
    {"logical_or", r::logical_or},        // a+b-a*b of masks
    {"logical_not", r::logical_not},      // 1-a of a mask
    {"isnan", r::zeros},                  // 0: the IR holds no NaN (the inf-norm's backward asks)
    {"masked_fill", r::masked_fill},      // m*v + (1-m)*x
    // pointwise backward ops recorded by double backward
    {"tanh_backward", r::tanh_backward},            // g*(1-y^2)
    {"sigmoid_backward", r::sigmoid_backward},      // g*y*(1-y)
    {"threshold_backward", r::threshold_backward},  // g*step(x-t): relu'
    {"softplus_backward", r::softplus_backward},    // g*sigmoid(beta x), g past the threshold
    {"silu_backward", r::silu_backward},            // g*s(1+x(1-s))
    {"gelu_backward", r::gelu_backward},            // exact or tanh form
    {"native_layer_norm_backward", r::native_layer_norm_backward},  // items dx, dweight, dbias
    {"elu_backward", r::elu_backward},              // from x or from the result
    {"leaky_relu_backward", r::leaky_relu_backward},  // g*(x>0 ? 1 : k)
    {"mse_loss_backward", r::mse_loss_backward},    // g*2(x-t) (/n for the mean)
    {"diagonal_backward", r::diagonal_backward},    // g on the diagonal of zeros (offset 0)
    // matrix products
    {"mm", r::mm},                        // 2-D matmul
    {"matmul", r::matmul},                // 1-D/2-D operands only
    {"addmm", r::addmm},                  // beta*bias + alpha*(a@b): nn.Linear
    {"bmm", r::bmm},                      // per-batch mm, stacked
    // reductions
    {"sum", r::sum},                      // over dims (none = all), keepdim
    {"mean", r::mean},                    // sum * (1/n)
    {"norm", r::norm},                    // p = 2 sqrt(sum x x), 1, inf, -inf, 0, other p: (sum |x|^p)^(1/p)
    {"linalg_vector_norm", r::linalg_vector_norm},  // likewise
    {"amax", r::amax},                    // max over dims: a tree of b + relu(a-b)
    {"amin", r::amin},                    // min likewise
    {"native_layer_norm", r::native_layer_norm},    // items y, mean, rstd: mean, biased var, 1/sqrt
    {"mse_loss", r::mse_loss},            // mean/sum/none of (x-t)^2
    {"diagonal", r::diagonal},            // permute, flatten the two dims, slice of step n+1
    // data movement
    {"t", r::t},                          // 2-D transpose (identity below 2-D)
    {"transpose", r::transpose},          // swap two dims
    {"permute", r::permute},              // general permutation (2-D swap → transpose)
    {"view", r::reshape},                 // → reshape to the recorded shape
    {"reshape", r::reshape},              // likewise
    {"_reshape_alias", r::reshape},       // PyTorch 1.13's reshape of a viewable tensor
    {"_unsafe_view", r::reshape},         // matmul's fold of batch dims
    {"view_copy", r::reshape},            // functionalized view
    {"unsqueeze", r::unsqueeze},          // insert a size-1 dim
    {"squeeze", r::squeeze},              // drop size-1 dim(s)
    {"expand", r::expand},                // → reshape (rank pad) + expand
    {"repeat", r::repeat},                // → reshape + expand (+ reshape where a dim > 1 repeats)
    {"select", r::select},                // x[..., i, ...]
    {"slice", r::slice},                  // x[..., a:b:s, ...]
    {"cat", r::cat},                      // concatenate
    {"stack", r::stack},                  // unsqueeze each, concatenate
    {"select_backward", r::select_backward},  // grad scattered into zeros at index
    {"slice_backward", r::slice_backward},    // grad scattered into zeros at a:b:s
    {"select_scatter", r::select_scatter},    // base with [.., i, ..] replaced: h[i] = v
    {"slice_scatter", r::slice_scatter},      // base with [.., a:b:s, ..] replaced
    // factories: splat constants of the recorded shape
    {"zeros_like", r::zeros},             // 0
    {"empty_like", r::zeros},             // 0 (its values are unspecified; a fill_ follows)
    {"ones_like", r::ones},               // 1
    {"full_like", r::fill_arg1},          // full_like(x, v)
    {"zeros", r::zeros},                  // zeros(size)
    {"ones", r::ones},                    // ones(size)
    {"full", r::fill_arg1},               // full(size, v)
    {"new_zeros", r::zeros},              // x.new_zeros(size)
    {"new_ones", r::ones},                // x.new_ones(size)
    {"new_full", r::fill_arg2},           // x.new_full(size, v)
    {"scalar_tensor", r::fill_arg0},      // a 0-d constant
    {"fill", r::fill_arg1},               // x.fill_(v)
    {"zero", r::zeros},                   // x.zero_()
};

}  // namespace

AtenRule find_aten_rule(std::string_view base_name) {
  auto lookup = [](std::string_view n) -> AtenRule {
    for (const auto& [name, rule] : kRules)
      if (name == n) return rule;
    return nullptr;
  };
  if (AtenRule rule = lookup(base_name)) return rule;
  // In-place variant: one trailing underscore on a name that has a functional row.
  if (base_name.size() > 1 && base_name.back() == '_' && base_name[base_name.size() - 2] != '_')
    return lookup(base_name.substr(0, base_name.size() - 1));
  return nullptr;
}

std::vector<std::string> supported_aten_ops() {
  std::vector<std::string> out;
  for (const auto& [name, rule] : kRules) out.emplace_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace inrarch::frontend
