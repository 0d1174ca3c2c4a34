// emit_hls: the generated Vitis project. model.h declares the number type, the port
// stream types and the top; model.cpp is the top (#pragma HLS dataflow, one stream per
// dataflow stream with its sized depth, one kernel call per process in topological order,
// each wrapped in INRARCH_PROCESS so the simulation driver can run the same code);
// weights.h holds the constant operands as ROM arrays, evaluated by the reference
// interpreter (row-major, an mm's B column-major). Testbench, driver, Tcl and Makefile
// are in emit_tb.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "backend/hls/emit_common.h"
#include "support/error.h"
#include "ir/interpreter.h"

namespace inrarch::hls::detail {

using dataflow::Kind;

std::string shape_type(const ir::Shape& s) {
  std::string t = "inrarch_hls::shape<";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t + ">";
}

ir::Shape row_shape(const Ctx& c, const ir::Shape& s) {
  if (c.rows <= 0 || s.empty() || s[0] % c.rows != 0) return s;
  ir::Shape r = s;
  r[0] /= c.rows;
  return r;
}

int64_t rom_period(const Ctx& c, const dataflow::Process& p, size_t slot) {
  const auto& od = p.operands.at(slot);
  if (od.rom_period > 0 || c.rows <= 0 || p.kind == Kind::Mm) return od.rom_period;
  if (od.shape.empty() || od.shape[0] % c.rows != 0) return 0;
  return ir::numel(od.shape) / c.rows;  // every sample's values are the same (a broadcast row)
}

std::string stream_type(const Ctx& c, const dataflow::Stream& s) {
  return fmt::format("inrarch_hls::array_stream<data_t, {}, {}>", shape_type(row_shape(c, s.shape)),
                     s.block);
}

namespace {

// Samples can be streamed any number of times when they are independent and every kernel
// works sample by sample: no transpose or permute (full buffers of the whole array) and
// every mm multiplies the streamed samples by a constant.
int64_t row_mode(const dataflow::Design& d, int64_t rows) {
  if (rows <= 0) return 0;
  for (const auto& s : d.streams)
    if (s.shape.empty() || s.shape[0] % rows != 0) return 0;
  for (const auto& p : d.processes) {
    if (p.kind == Kind::Transpose || p.kind == Kind::Permute || p.kind == Kind::MmReduce || p.kind == Kind::Custom)
      return 0;  // a whole array at once (a batch reduction: all the rows)
    if (p.kind == Kind::Mm && (p.operands.at(0).stream < 0 || p.operands.at(1).stream >= 0)) return 0;
  }
  return rows;
}

}  // namespace

std::string rom_name(const dataflow::Process& p, size_t slot) {
  return "rom_" + p.name + "_" + std::to_string(slot);
}

std::string string_literal(const std::string& text) {
  std::string out = "\"";
  for (unsigned char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (ch >= 0x20 && ch < 0x7f) out += char(ch);
    else out += fmt::format("\\{:03o}", ch);  // octal: a hex escape would swallow digits after it
  }
  return out + "\"";
}

std::string literal(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";  // a double, not an int
  return s;
}

Ctx make_ctx(const dataflow::Design& d, const ir::Bundle& b, const HlsOptions& opt) {
  Ctx c{d, b, opt, {}, {}, {}, row_mode(d, opt.rows)};
  // A declared input range is sampled at its corners and throughout, so one bit of headroom
  // (2x to 4x) covers what the samples miss; one input set needs three (8x to 16x).
  if (!opt.pow2_scaling) c.scale = Scaling::none(d);
  else if (opt.input_range)
    c.scale = compute_scaling(d, calibration_bundle(b, opt.input_range->first, opt.input_range->second),
                              opt.type, kRangeMarginBits, opt.evaluate);
  else c.scale = compute_scaling(d, b, opt.type, kBundleMarginBits, opt.evaluate);
  for (const auto& s : d.streams) {
    const auto& prod = d.processes[s.producer];
    const auto& cons = d.processes[s.consumer];
    bool in_port = prod.kind == Kind::Source && prod.op == ir::Op::Input;
    bool out_port = cons.kind == Kind::Sink;
    if (in_port && out_port)
      throw Error("hls: input " + prod.name + " is an output as it is: no kernel between");
    c.var.push_back(in_port ? prod.name : out_port ? cons.name : s.name);
    c.port.push_back(in_port || out_port);
  }
  return c;
}

std::string top_params(const Ctx& c, bool with_types) {
  std::string s = c.rows > 0 ? (with_types ? "int rows" : "rows") : "";
  auto add = [&](size_t sid) {
    s += s.empty() ? "" : ", ";
    if (with_types) s += c.var[sid] + "_t& ";
    s += c.var[sid];
  };
  for (const auto& p : c.d.processes)
    if (p.kind == Kind::Source && p.op == ir::Op::Input) add(p.outputs.at(0));
  for (const auto& p : c.d.processes)
    if (p.kind == Kind::Sink) add(p.inputs.at(0));
  for (const auto& p : c.d.processes)
    if (p.kind == Kind::Sink) s += (with_types ? ", bool& " : ", ") + flag_name(c, p.inputs.at(0));
  return s;
}

std::string flag_name(const Ctx& c, size_t sid) { return c.var.at(sid) + "_overflow"; }

std::string flag_arg(const Ctx& c, dataflow::ProcessId pid) {
  std::vector<std::string> flags;
  for (auto sid : c.d.processes.at(pid).outputs)
    if (c.port.at(sid)) flags.push_back(flag_name(c, sid));
  std::string s;
  for (const std::string& f : flags) s += (s.empty() ? "" : ", ") + f;
  return s;
}

std::string model_h(const Ctx& c) {
  std::string s = fmt::format(
      "// Generated by inrarch: the dataflow top of graph '{}'. Do not edit.\n"
      "#ifndef INRARCH_MODEL_H\n#define INRARCH_MODEL_H\n\n"
      "#include \"inrarch/kernels.h\"\n\n"
      "// The number type of every stream element, weight and operator ({}).\n"
      "typedef {} data_t;\n\n// Top-level ports: array streams (AXI4-Stream in synthesis).\n",
      c.b.graph.name(), c.opt.type.name(), c.opt.type.cpp());
  for (size_t i = 0; i < c.d.streams.size(); ++i)
    if (c.port[i]) s += fmt::format("typedef {} {}_t;\n", stream_type(c, c.d.streams[i]), c.var[i]);
  s += c.rows > 0 ? fmt::format("\n// Samples streamed per call: the top's `rows`, any count; the batch compiled and\n"
                                "// verified was {}. Port types hold one sample.\nstatic const int kCompiledRows = {};\n",
                                c.rows, c.rows)
                  : "\n// The arrays are streamed whole: one call is one batch.\nstatic const int kCompiledRows = 1;\n";
  s += fmt::format("\nvoid {}({});\n\n#endif  // INRARCH_MODEL_H\n", c.opt.top, top_params(c, true));
  return s;
}

std::string model_cpp(const Ctx& c) {
  std::string s = fmt::format("// Generated by inrarch. Do not edit.\n#include \"model.h\"\n"
                              "#include \"weights.h\"\n\nvoid {}({}) {{\n",
                              c.opt.top, top_params(c, true));
  for (size_t i = 0; i < c.d.streams.size(); ++i)
    if (c.port[i]) s += fmt::format("#pragma HLS interface mode = axis port = {}\n", c.var[i]);
  if (c.rows > 0) s += "#pragma HLS interface mode = s_axilite port = rows\n";
  // Sticky per call: 1 when a value saturated on its way to that output (docs/hls.md
  // "Range safety"); the host reads it after ap_done.
  for (const auto& p : c.d.processes)
    if (p.kind == Kind::Sink)
      s += fmt::format("#pragma HLS interface mode = s_axilite port = {}\n", flag_name(c, p.inputs.at(0)));
  s += "#pragma HLS interface mode = ap_ctrl_chain port = return\n#pragma HLS dataflow\n\n";
  s += "  // Streams; depths (beats) from FIFO sizing.\n";
  for (size_t i = 0; i < c.d.streams.size(); ++i) {
    if (c.port[i]) continue;
    const auto& st = c.d.streams[i];
    s += fmt::format("  {} {}(\"{}\");", stream_type(c, st), c.var[i], st.name);
    int k = c.scale.stream_exp[i];
    s += k ? fmt::format("  // holds value * 2^{}\n", k) : "\n";
    int64_t depth = st.depth == dataflow::kUnbounded ? st.beats() : st.depth;
    s += fmt::format("#pragma HLS stream variable = {} depth = {}\n", c.var[i], depth);
  }
  s += "\n  // Processes in topological order. INRARCH_PROCESS(id, name, call) is the call itself\n"
       "  // for Vitis and g++; the simulation driver runs each as a process (dataflow_region.h).\n";
  for (size_t p = 0; p < c.d.processes.size(); ++p) {
    std::string call = kernel_call(c, static_cast<dataflow::ProcessId>(p));
    if (!call.empty())
      s += fmt::format("  INRARCH_PROCESS({}, {}, {});\n", p, string_literal(c.d.processes[p].name), call);
  }
  return s + "  INRARCH_DATAFLOW_END\n}\n";
}


// A fixed-point ROM value is emitted already quantized (round to nearest, saturated), so
// the ROM holds the nearest representable weight whichever conversion mode the type has
// (ap_fixed's default AP_TRN would bias every weight down by half an LSB on average).
std::string value_literal(const Ctx& c, double v) { return value_literal(c.opt.type, v); }

NumberType rom_type(const Ctx& c, const dataflow::Operand& od) {
  NumberType t = c.opt.type;
  if (t.kind == NumberType::Fixed) t.width = static_cast<int>(od.bits_at(t.width));
  return t;
}

std::string value_literal(const NumberType& t, double v) {
  if (t.kind == NumberType::Float) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9gf", static_cast<double>(static_cast<float>(v)));
    std::string s = buf;
    if (s.find_first_of(".en") == std::string::npos) s.insert(s.size() - 1, ".0");
    return s;
  }
  if (t.kind == NumberType::Fixed) {
    const double lsb = std::ldexp(1.0, t.int_bits - t.width);
    const double hi = std::ldexp(1.0, t.int_bits - 1) - lsb, lo = -std::ldexp(1.0, t.int_bits - 1);
    v = std::clamp(std::nearbyint(v / lsb) * lsb, lo, hi);
  }
  return literal(v);
}

// One ROM: its values once, in a macro; synthesis sees a data_t array with initializers
// (what Vitis maps to a ROM), C simulation a double array converted once at start-up.
// Hundreds of thousands of ap_fixed initializers (width-256 layers) make g++ take many
// minutes and can crash it; double initializers compile in seconds.
namespace {

// type: data_t's, or a narrower one (an mm's weights, Operand::rom_elem_bits), named in full.
std::string rom_array(const Ctx& c, const std::string& name, const Tensor& t, int exp, const NumberType& type,
                      const char* order) {
  const bool narrow = type.width != c.opt.type.width;
  std::string s = fmt::format("// {}{}{}\n#define INRARCH_VALUES_{}", shape_str(t.shape), order,
                              narrow ? ", " + type.cpp() + " (narrower than data_t)" : "", name);
  for (size_t i = 0; i < t.data.size(); ++i)
    s += (i % 8 ? " " : " \\\n    ") + value_literal(type, std::ldexp(t.data[i], exp)) + ",";
  const size_t n = t.data.size();
  return s + fmt::format(
      "\n#ifdef __SYNTHESIS__\n"
      "static const {2} {0}[{1}] = {{INRARCH_VALUES_{0}}};\n#else\n"
      "static const double {0}_values[{1}] = {{INRARCH_VALUES_{0}}};\n"
      "static const inrarch_hls::rom_table<{2}, {1}> {0}_table({0}_values);\n"
      "static const {2}* const {0} = {0}_table.v;\n#endif\n#undef INRARCH_VALUES_{0}\n\n",
      name, n, narrow ? type.cpp() : "data_t");
}
// B of an mm, [K,N], in column-major order (element (k, n) at n*K + k). The PAR MACs of
// a dot product read B[k..k+PAR-1][n] in one cycle: consecutive addresses column-major,
// which a cyclic partition of the ROM spreads over distinct banks; row-major they are N
// apart, all in one bank whenever the bank count divides N (mm.h, docs/hls.md §4).
Tensor column_major(const Tensor& t) {
  if (t.shape.size() != 2) throw Error("hls: the B operand of an mm is not a matrix");
  const int64_t k_dim = t.shape[0], n_dim = t.shape[1];
  Tensor out = t;
  for (int64_t k = 0; k < k_dim; ++k)
    for (int64_t n = 0; n < n_dim; ++n) out.data[n * k_dim + k] = t.data[k * n_dim + n];
  return out;
}

// Only an mm's operand 1 is read by columns; every other ROM (an mm's A, elementwise and
// gather operands, constant outputs) is read in row-major order and stays so.
bool column_major_rom(const dataflow::Process& p, size_t slot) {
  return p.kind == Kind::Mm && slot == 1;
}
}  // namespace

std::string weights_h(const Ctx& c) {
  std::vector<ir::NodeId> nodes;
  std::vector<std::string> names;
  std::vector<int> exps;
  std::vector<NumberType> types;
  std::vector<bool> transposed;
  std::vector<int64_t> keep;  // elements the ROM holds (one sample's of a broadcast row)
  for (size_t pid = 0; pid < c.d.processes.size(); ++pid) {
    const auto& p = c.d.processes[pid];
    for (size_t k = 0; k < p.operands.size(); ++k) {
      const auto& od = p.operands[k];
      bool rom = od.static_node != ir::kNoNode &&
                 (!od.splat || (p.kind == Kind::Source && p.op == ir::Op::Const));
      if (!rom) continue;
      nodes.push_back(od.rom_source());  // a broadcast bias: only the values it repeats
      names.push_back(rom_name(p, k));
      exps.push_back(c.scale.operand_exp[pid][k]);
      types.push_back(rom_type(c, od));
      transposed.push_back(column_major_rom(p, k));
      keep.push_back(od.rom_period == 0 ? rom_period(c, p, k) : 0);
    }
  }
  std::vector<Tensor> values = ir::evaluate_nodes(c.b.graph, nodes, c.b.inputs, c.b.params);
  for (size_t i = 0; i < values.size(); ++i)
    if (keep[i] > 0) values[i] = Tensor({keep[i]}, std::vector<double>(values[i].data.begin(),
                                                                         values[i].data.begin() + keep[i]));
  std::string s = "// Generated by inrarch: constant operands as on-chip ROMs. Do not edit.\n"
                  "#ifndef INRARCH_WEIGHTS_H\n#define INRARCH_WEIGHTS_H\n\n#include \"model.h\"\n\n";
  for (size_t i = 0; i < nodes.size(); ++i)
    s += transposed[i] ? rom_array(c, names[i], column_major(values[i]), exps[i], types[i], ", column-major")
                       : rom_array(c, names[i], values[i], exps[i], types[i], "");
  return s + "#endif  // INRARCH_WEIGHTS_H\n";
}

}  // namespace inrarch::hls::detail
