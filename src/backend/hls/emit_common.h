// Internals of the HLS emitter shared by its files (not part of the backend's API).
#pragma once

#include <string>
#include <vector>

#include "backend/hls/hls.h"
#include "backend/hls/scaling.h"

namespace inrarch::hls::detail {

// What the emitter needs about a design, computed once.
struct Ctx {
  const dataflow::Design& d;
  const ir::Bundle& b;
  const HlsOptions& opt;
  std::vector<std::string> var;  // per stream: its variable (a top port for sources/sinks)
  std::vector<bool> port;        // per stream: a top-level port
  Scaling scale;                 // fixed point: power-of-two exponents (scaling.h)
  int64_t rows = 0;              // samples per run when they are independent, else 0
  // The run-time sample count in kernel calls: the top's argument, or 1.
  std::string rows_arg() const { return rows > 0 ? "rows" : "1"; }
};
Ctx make_ctx(const dataflow::Design& d, const ir::Bundle& b, const HlsOptions& opt);

// One sample's part of an array whose dim 0 is the batch (the whole shape when c.rows is 0
// or dim 0 is not a multiple of it).
ir::Shape row_shape(const Ctx& c, const ir::Shape& s);
// The ROM period of a constant operand: what the lowering set, or one sample's elements
// for a constant that meets the samples (a broadcast row) in a design of samples; 0: the
// ROM holds the whole operand.
int64_t rom_period(const Ctx& c, const dataflow::Process& p, size_t slot);
// "inrarch_hls::array_stream<data_t, inrarch_hls::shape<8,16>, 1>" (one sample's shape)
std::string stream_type(const Ctx& c, const dataflow::Stream& s);
// "inrarch_hls::shape<8,16>"
std::string shape_type(const ir::Shape& s);
// The ROM variable of a constant (non-splat) operand: "rom_<process>_<slot>".
std::string rom_name(const dataflow::Process& p, size_t slot);
// Text as a C++ string literal, quotes included (output names come from users).
std::string string_literal(const std::string& text);
// A double as a C++ literal that round-trips.
std::string literal(double v);
// A constant of the number type: float literals for float, fixed-point values rounded to
// nearest on the type's grid (saturated), so no conversion mode changes them.
std::string value_literal(const Ctx& c, double v);
// v rounded to nearest on t's grid and saturated (fixed point), as a C++ literal.
std::string value_literal(const NumberType& t, double v);
// The number type of constant operand od's ROM: the design type, narrowed to
// Operand::rom_elem_bits (same binary point) for an mm's narrow weights.
NumberType rom_type(const Ctx& c, const dataflow::Operand& od);

// The kernel call expression of a process inside the top, no semicolon ("" for sources of
// inputs and sinks: those are ports fed/drained by the testbench). Throws inrarch::Error
// for what cannot be emitted.
std::string kernel_call(const Ctx& c, dataflow::ProcessId p);

// The top's parameter list: input ports in design order, then output ports, then each
// output port's overflow flag; with_types: "in_x_t& in_x, ..., bool& out_y_overflow",
// else "in_x, ...".
std::string top_params(const Ctx& c, bool with_types);
// The top's overflow flag of output-port stream `sid`: "<port>_overflow".
std::string flag_name(const Ctx& c, size_t sid);
// The flags of the output ports process p writes, for the kernel's flag argument: ""
// (none, an inner kernel), "out_y_overflow", or two of them for a copy writing two ports.
std::string flag_arg(const Ctx& c, dataflow::ProcessId p);

// The testbench's pass criterion, the arguments of tb::errors::pass: "true, 0.001, 0.0001".
std::string tolerances(const Ctx& c);

// The testbench's verdict lines (type ...: PASS/FAIL, overflows, overflow_flag, worst
// column), printed from its err, pass, overflows and flagged: testbench.cpp and
// kernel_tb.cpp print the same ones.
std::string tb_report(const Ctx& c);
// The testbench statement that adds `output` (a C++ string literal) to flagged when the
// bool `flag` is set.
std::string tb_flagged(const std::string& flag, const std::string& output);

// File bodies.
std::string model_h(const Ctx& c);
std::string model_cpp(const Ctx& c);
std::string weights_h(const Ctx& c);
std::string testbench_cpp(const Ctx& c);
std::string sim_main_cpp(const Ctx& c);
std::string run_hls_tcl(const Ctx& c);
std::string makefile(const Ctx& c);
// The memory-mapped kernel (emit_kernel.cpp): kernel/<file> -> text.
std::vector<std::pair<std::string, std::string>> kernel_files(const Ctx& c);

}  // namespace inrarch::hls::detail
