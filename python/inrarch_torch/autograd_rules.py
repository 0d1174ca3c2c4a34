"""The grad_fn -> aten table of the paper's autograd walk (autograd_walk.py).

Every grad_fn node of an already-computed tensor stands for the aten op that produced it.
A row says which aten op, where each tensor input's value comes from when its
next_functions entry is None (a saved tensor, or nothing: then the walk fails), and which
saved attributes are the op's other arguments. Names are PyTorch 1.13's and 2.x's.
"""


def _i(v):
    # Autograd exposes int64 attributes such as dims as unsigned: 2**64 - 1 means -1.
    return v - 2 ** 64 if isinstance(v, int) and v >= 2 ** 63 else v


def _ints(v):
    return [_i(x) for x in v]


class Rule:
    """op: aten overload name; saved[k]: the attribute holding tensor input k (None: not
    saved); extra(fn): the non-tensor args after the tensors; kwargs(fn); sized: the op
    needs its result shape as an argument (taken from the shape the walk knows)."""

    def __init__(self, op, saved, extra=None, kwargs=None, sized=None):
        self.op, self.saved = op, saved
        self.extra = extra or (lambda f: [])
        self.kwargs = kwargs or (lambda f: {})
        self.sized = sized


def _unary(op, saved="_saved_self"):
    return Rule(op, [saved])


def alpha_kwargs(f):
    a = getattr(f, "_saved_alpha", 1)
    return {} if a == 1 else {"alpha": a}


RULES = {
    # pointwise
    "MulBackward0": Rule("aten.mul.Tensor", ["_saved_self", "_saved_other"]),      # a*b
    "MulBackward1": Rule("aten.mul.Tensor", ["_saved_self"],                        # a*number
                         extra=lambda f: [f._saved_other]),
    "DivBackward0": Rule("aten.div.Tensor", ["_saved_self", "_saved_other"]),      # a/b
    "DivBackward1": Rule("aten.div.Tensor", ["_saved_self"],                        # a/number
                         extra=lambda f: [f._saved_other]),
    "AddBackward0": Rule("aten.add.Tensor", [None, None], kwargs=alpha_kwargs),   # a+alpha*b
    "SubBackward0": Rule("aten.sub.Tensor", [None, None], kwargs=alpha_kwargs),   # a-alpha*b
    "RsubBackward0": Rule("aten.rsub.Tensor", [None, None], kwargs=alpha_kwargs), # b-alpha*a
    "NegBackward0": _unary("aten.neg.default", None),                               # -a
    "SinBackward0": _unary("aten.sin.default"),                                     # sin
    "CosBackward0": _unary("aten.cos.default"),                                     # cos
    "ExpBackward0": _unary("aten.exp.default", None),                               # exp
    "LogBackward0": _unary("aten.log.default"),                                     # log
    "TanhBackward0": _unary("aten.tanh.default", None),                             # tanh
    "ReluBackward0": _unary("aten.relu.default", None),                             # relu
    "SigmoidBackward0": _unary("aten.sigmoid.default", None),                       # sigmoid
    "SoftplusBackward0": Rule("aten.softplus.default", ["_saved_self"],             # softplus
                              extra=lambda f: [f._saved_beta, f._saved_threshold]),
    "SqrtBackward0": _unary("aten.sqrt.default", None),                             # sqrt
    "RsqrtBackward0": _unary("aten.rsqrt.default", None),                           # 1/sqrt
    "AbsBackward0": _unary("aten.abs.default"),                                     # |a|
    "SiluBackward0": _unary("aten.silu.default"),                                   # silu
    "ErfBackward0": _unary("aten.erf.default"),                                     # erf
    "GeluBackward0": Rule("aten.gelu.default", ["_saved_self"],                     # gelu
                          kwargs=lambda f: {"approximate": f._saved_approximate}),
    "ClampMinBackward0": Rule("aten.clamp_min.default", ["_saved_self"],            # max(a, m)
                              extra=lambda f: [f._saved_min]),
    "NormBackward1": Rule("aten.norm.ScalarOpt_dim", ["_saved_self"],               # 2-norm
                          extra=lambda f: [f._saved_p, _ints(f._saved_dim), bool(f._saved_keepdim)]),
    "LinalgVectorNormBackward0": Rule("aten.linalg_vector_norm.default", ["_saved_self"],
                                      extra=lambda f: [f._saved_ord, _ints(f._saved_dim),
                                                       bool(f._saved_keepdim)]),    # any order
    "PowBackward0": Rule("aten.pow.Tensor_Scalar", ["_saved_self"],                 # a^n
                         extra=lambda f: [f._saved_exponent]),
    "CloneBackward0": _unary("aten.clone.default", None),                           # copy
    "AliasBackward0": _unary("aten.alias.default", None),                           # alias
    # backward ops recorded as forward ops by create_graph=True
    "TanhBackwardBackward0": Rule("aten.tanh_backward.default",
                                  ["_saved_grad_output", "_saved_output"]),         # g*(1-y^2)
    "SigmoidBackwardBackward0": Rule("aten.sigmoid_backward.default",
                                     ["_saved_grad_output", "_saved_output"]),      # g*y(1-y)
    "ThresholdBackwardBackward0": Rule("aten.threshold_backward.default",
                                       ["_saved_grad_output", "_saved_self"],
                                       extra=lambda f: [f._saved_threshold]),        # g*(x>t)
    "SoftplusBackwardBackward0": Rule("aten.softplus_backward.default",
                                      ["_saved_grad_output", "_saved_self"],
                                      extra=lambda f: [f._saved_beta, f._saved_threshold]),
    "SelectBackwardBackward0": Rule("aten.select_backward.default", [None],         # scatter
                                    extra=lambda f: [_i(f._saved_dim), _i(f._saved_index)],
                                    sized=1),
    "SliceBackwardBackward0": Rule("aten.slice_backward.default", [None],           # scatter
                                   extra=lambda f: [_i(f._saved_dim), _i(f._saved_start),
                                                    _i(f._saved_end), _i(f._saved_step)],
                                   sized=1),
    # matrix products
    "MmBackward0": Rule("aten.mm.default", ["_saved_self", "_saved_mat2"]),          # a@b
    "AddmmBackward0": Rule("aten.addmm.default", [None, "_saved_mat1", "_saved_mat2"],
                           kwargs=lambda f: {k: v for k, v in (("beta", f._saved_beta),
                                             ("alpha", f._saved_alpha)) if v != 1}),  # nn.Linear
    # data movement
    "TBackward0": _unary("aten.t.default", None),                                   # 2-D t
    "PermuteBackward0": Rule("aten.permute.default", [None],
                             extra=lambda f: [_ints(f._saved_dims)]),               # permute
    "TransposeBackward0": Rule("aten.transpose.int", [None],
                               extra=lambda f: [_i(f._saved_dim0), _i(f._saved_dim1)]),
    "UnsqueezeBackward0": Rule("aten.unsqueeze.default", [None],
                               extra=lambda f: [_i(f._saved_dim)]),                 # unsqueeze
    "SqueezeBackward1": Rule("aten.squeeze.dim", [None],
                             extra=lambda f: [_i(f._saved_dim)]),                   # squeeze
    "SelectBackward0": Rule("aten.select.int", [None],
                            extra=lambda f: [_i(f._saved_dim), _i(f._saved_index)]),
    "SliceBackward0": Rule("aten.slice.Tensor", [None],
                           extra=lambda f: [_i(f._saved_dim), _i(f._saved_start),
                                            _i(f._saved_end), _i(f._saved_step)]),
    "ViewBackward0": Rule("aten.view.default", [None], sized=1),                    # reshape
    "UnsafeViewBackward0": Rule("aten._unsafe_view.default", [None], sized=1),      # reshape
    "ReshapeAliasBackward0": Rule("aten.view.default", [None], sized=1),            # reshape
    "ExpandBackward0": Rule("aten.expand.default", [None], sized=1),                # broadcast
    "RepeatBackward0": Rule("aten.repeat.default", [None],
                            extra=lambda f: [_ints(f._saved_repeats)]),             # tile
    # reductions
    "SumBackward0": _unary("aten.sum.default", None),                               # sum all
    "SumBackward1": Rule("aten.sum.dim_IntList", [None],
                         extra=lambda f: [_ints(f._saved_dim), bool(f._saved_keepdim)]),
    "MeanBackward0": _unary("aten.mean.default", None),                             # mean all
    "MeanBackward1": Rule("aten.mean.dim", [None],
                          extra=lambda f: [_ints(f._saved_dim), bool(f._saved_keepdim)]),
    "AmaxBackward0": Rule("aten.amax.default", ["_saved_self"],
                          extra=lambda f: [_ints(f._saved_dim), bool(f._saved_keepdim)]),
}

# Ops whose operand count is the number of next_functions (cat, stack).
VARIADIC = {
    "CatBackward0": ("aten.cat.default", lambda f: [_i(f._saved_dim)]),
    "StackBackward0": ("aten.stack.default", lambda f: [_i(f._saved_dim)]),
}

# Ops whose other operand autograd may not keep: a number (`x + 1.0`, `2.0 - x`, SIREN's
# `div = 0.; div += ...`) or a tensor that does not require grad. The walk solves it from
# the op's result when it knows that result (autograd_walk.py), from the known operand v:
# solve(result, v, k, alpha) is the operand at position k. The *1 forms take a number as
# their second operand and have one next_functions entry.
SOLVABLE = {
    "AddBackward0": lambda r, v, k, al: r - al * v if k == 0 else (r - v) / al,  # x0 + al*x1
    "SubBackward0": lambda r, v, k, al: r + al * v if k == 0 else (v - r) / al,  # x0 - al*x1
    "RsubBackward0": lambda r, v, k, al: (v - r) / al if k == 0 else r + al * v,  # x1 - al*x0
}
SOLVABLE["AddBackward1"] = SOLVABLE["AddBackward0"]
SOLVABLE["SubBackward1"] = SOLVABLE["SubBackward0"]
SOLVABLE["RsubBackward1"] = SOLVABLE["RsubBackward0"]

# The op a *1 form stands for, its number being the second argument.
SCALAR_FORM = {
    "AddBackward1": "aten.add.Tensor",
    "SubBackward1": "aten.sub.Tensor",
    "RsubBackward1": "aten.rsub.Scalar",
}
