// emit_rtl and the generated top: one FIFO per stream at its sized depth, one kernel
// module per process, the sources and sinks as the top's AXI4-Stream ports.
#include <fmt/format.h>

#include <cmath>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/elementwise.h"
#include "dataflow/kernels.h"
#include "support/error.h"
#include "support/files.h"

namespace inrarch::rtl::detail {

using dataflow::Kind;
using dataflow::Process;
using dataflow::ProcessId;
using dataflow::StreamId;

// Sources, sinks and copies are the top's own; every kernel is its kind's (kernel_modules.cpp).
void check_process(const dataflow::Design& d, ProcessId pid) {
  const Process& p = d.processes[pid];
  switch (p.kind) {
    case Kind::Source:
      if (p.op != ir::Op::Input) check_rom_source(d, p);
      return;
    case Kind::Sink: case Kind::Copy: return;
    case Kind::Custom:
      throw Error(fmt::format("rtl: process {} ({}, kernel kind custom) is not supported yet: an explicit "
                              "step list has no kernel module", p.name, ir::op_name(p.op)));
    case Kind::Unary: case Kind::Binary: case Kind::Mm: case Kind::MmReduce: case Kind::Transpose:
    case Kind::Permute: case Kind::IdentityMap: case Kind::ExpandMap: case Kind::SelectMap: case Kind::SliceMap:
    case Kind::CatMap: case Kind::SumMap: kernel_module(p.kind).check(d, p); return;
  }
}

namespace {

std::string beat_comment(const Ctx& c, StreamId s) {
  const auto& st = c.d.streams[s];
  return fmt::format("// {}: {} x fixed<{},{}> + ovf per beat, {} beats, depth {}, exponent {}",
                     st.name, st.block, c.w, c.w - c.f, st.beats(), c.depth[s], c.stream_exp(s));
}

int64_t beat_width(const Ctx& c, StreamId s) { return c.d.streams[s].block * c.w + 1; }

// The wires and FIFO of one stream: <name>_{w,r}_{data,valid,ready}.
std::string fifo(const Ctx& c, StreamId s) {
  const std::string& n = c.d.streams[s].name;
  return fmt::format(
      "  {0}\n  logic [{1}:0] {2}_w_data, {2}_r_data;\n  logic {2}_w_valid, {2}_w_ready, {2}_r_valid, {2}_r_ready;\n"
      "  inrarch_fifo #(.WIDTH({3}), .DEPTH({4})) u_{2} (\n      .clk, .rst, .w_data({2}_w_data), .w_valid({2}_w_valid), .w_ready({2}_w_ready),\n"
      "      .r_data({2}_r_data), .r_valid({2}_r_valid), .r_ready({2}_r_ready));\n",
      beat_comment(c, s), beat_width(c, s) - 1, n, beat_width(c, s), c.depth[s]);
}

std::string ports_of(const std::string& stem, const std::string& dir, const std::string& n) {
  return fmt::format(".{0}_data({1}_{2}_data), .{0}_valid({1}_{2}_valid), .{0}_ready({1}_{2}_ready)",
                     stem, n, dir);
}

std::string ew_params(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const StreamId out = p.outputs.at(0);
  // The lane code of elementwise.def (the fabric multiply's own, as the HLS op_mul_fabric).
  const int op = dataflow::elementwise_row(c.d, p).code;
  std::string s = fmt::format(".OP({}), .B({}), .W({}), .F({}), .FA({}), .EA({})", op,
                              c.d.streams[out].block, c.w, c.f, c.fa, c.operand_exp(pid, 0));
  if (p.operands.size() > 1) s += fmt::format(", .EB({})", c.operand_exp(pid, 1));
  s += fmt::format(", .EO({}), .BEATS({})", c.stream_exp(out), c.d.streams[out].beats());
  // The lanes' pipeline depth (elementwise.def) and, when folded, the cycles a beat.
  s += fmt::format(", .D({})", dataflow::elementwise_depth(c.d, p));
  return p.ew_fold > 1 ? s + fmt::format(", .C({})", p.ew_fold) : s;
}

}  // namespace

std::string elementwise_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const std::string out = ports_of("out", "w", c.d.streams[p.outputs.at(0)].name);
  if (p.operands.size() == 1)
    return fmt::format("  inrarch_ew1 #({}) u_{} (\n      .clk, .rst, {},\n      {});\n", ew_params(c, pid),
                       p.name, ports_of("in", "r", c.d.streams[p.inputs.at(0)].name), out);
  if (p.inputs.size() == 2)
    return fmt::format("  inrarch_ew2 #({}) u_{} (\n      .clk, .rst, {},\n      {},\n      {});\n",
                       ew_params(c, pid), p.name, ports_of("a", "r", c.d.streams[p.inputs[0]].name),
                       ports_of("b", "r", c.d.streams[p.inputs[1]].name), out);
  // A constant operand, a splat or an array, is a ROM (a splat of one word).
  const size_t cslot = p.operands.at(0).stream < 0 ? 0 : 1;
  return fmt::format("  inrarch_ew2r #({}, .CSLOT({}), .P({}), .ROM_FILE(\"{}\")) u_{} (\n      .clk, .rst, {},\n      {});\n",
                     ew_params(c, pid), cslot, rom_words(p.operands[cslot]), rom_file(p, cslot), p.name,
                     ports_of("in", "r", c.d.streams[p.inputs.at(0)].name), out);
}

std::string copy_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const StreamId in = p.inputs.at(0);
  std::string data, valid, ready;
  for (size_t k = p.outputs.size(); k-- > 0;) {  // a concatenation lists bit OUTS-1 first
    const std::string& n = c.d.streams[p.outputs[k]].name;
    valid += (valid.empty() ? "" : ", ") + n + "_w_valid";
    ready += (ready.empty() ? "" : ", ") + n + "_w_ready";
    data += fmt::format("  assign {}_w_data = {}_data;\n", n, p.name);
  }
  return fmt::format(
      "  logic [{0}:0] {1}_data;\n  inrarch_copy #(.WIDTH({2}), .BEATS({3}), .OUTS({4})) u_{1} (\n"
      "      .clk, .rst, {5},\n      .out_data({1}_data), .out_valid({{{6}}}), .out_ready({{{7}}}));\n{8}",
      beat_width(c, in) - 1, p.name, beat_width(c, in), c.d.streams[in].beats(), p.outputs.size(),
      ports_of("in", "r", c.d.streams[in].name), valid, ready, data);
}

namespace {

// A source (the input port writes its stream) or a sink (its stream feeds the output port).
std::string port_process(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const bool in = p.kind == Kind::Source;
  const StreamId s = in ? p.outputs.at(0) : p.inputs.at(0);
  const std::string port = fmt::format(".port_data({{{0}_tuser, {0}_tdata}}), .port_valid({0}_tvalid), .port_ready({0}_tready)", p.name);
  const std::string fifo = in ? ports_of("out", "w", c.d.streams[s].name) : ports_of("in", "r", c.d.streams[s].name);
  return fmt::format("  inrarch_{} #(.WIDTH({}), .BEATS({})) u_{} (\n      .clk, .rst, {},\n      {});\n",
                     in ? "source" : "sink", beat_width(c, s), c.d.streams[s].beats(), p.name,
                     in ? port : fifo, in ? fifo : port);
}

std::string process(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const std::string head = fmt::format("  // {} ({})\n", p.name, dataflow::kind_name(p.kind));
  switch (p.kind) {
    case Kind::Source: return head + (p.op == ir::Op::Input ? port_process(c, pid) : rom_source_instance(c, pid));
    case Kind::Sink: return head + port_process(c, pid);
    case Kind::Copy: return head + copy_instance(c, pid);
    case Kind::Unary: case Kind::Binary: case Kind::Mm: case Kind::MmReduce: case Kind::Transpose:
    case Kind::Permute: case Kind::IdentityMap: case Kind::ExpandMap: case Kind::SelectMap: case Kind::SliceMap:
    case Kind::CatMap: case Kind::SumMap:
      return head + kernel_module(p.kind).instance(c, pid);  // make_ctx checked it
    case Kind::Custom: break;  // check_process refused it
  }
  throw Error("rtl: process " + p.name + " (custom) has no module");
}

// Simulation only: every FIFO op reported to the testbench (tb_main.cpp's inrarch_trace).
std::string trace_block(const Ctx& c) {
  std::string s = "`ifdef INRARCH_TRACE\n  import \"DPI-C\" function void inrarch_trace(input int stream, input bit write);\n"
                  "  always_ff @(posedge clk) begin\n    if (!rst) begin\n";
  for (size_t i = 0; i < c.d.streams.size(); ++i) {
    const std::string& n = c.d.streams[i].name;
    s += fmt::format("      if ({0}_w_valid && {0}_w_ready) inrarch_trace({1}, 1'b1);\n"
                     "      if ({0}_r_valid && {0}_r_ready) inrarch_trace({1}, 1'b0);\n", n, i);
  }
  return s + "    end\n  end\n`endif\n";
}

// Per output port, the sticky <port>_overflow register: set in the cycle after a beat with
// its ovf bit (tuser) leaves the port, cleared only by rst. The host reads it after the
// last beat, as the HLS top's `bool& <port>_overflow` (docs/hls.md "Range safety").
std::string overflow_flags(const Ctx& c) {
  std::string s;
  for (ProcessId p : output_ports(c.d))
    s += fmt::format("  always_ff @(posedge clk) begin\n    if (rst) {0}_overflow <= 1'b0;\n"
                     "    else if ({0}_tvalid && {0}_tready && {0}_tuser) {0}_overflow <= 1'b1;\n  end\n",
                     c.d.processes[p].name);
  return s;
}

}  // namespace

std::string top_sv(const Ctx& c) {
  std::string ports;
  for (ProcessId p : input_ports(c.d)) {
    const StreamId s = c.d.processes[p].outputs.at(0);
    ports += fmt::format(",\n    input  logic [{1}:0] {0}_tdata,\n    input  logic {0}_tuser,\n"
                         "    input  logic {0}_tvalid,\n    output logic {0}_tready",
                         c.d.processes[p].name, beat_width(c, s) - 2);
  }
  for (ProcessId p : output_ports(c.d)) {
    const StreamId s = c.d.processes[p].inputs.at(0);
    ports += fmt::format(",\n    output logic [{1}:0] {0}_tdata,\n    output logic {0}_tuser,\n"
                         "    output logic {0}_tvalid,\n    input  logic {0}_tready",
                         c.d.processes[p].name, beat_width(c, s) - 2);
  }
  for (ProcessId p : output_ports(c.d)) ports += fmt::format(",\n    output logic {}_overflow", c.d.processes[p].name);
  std::string body;
  for (size_t s = 0; s < c.d.streams.size(); ++s) body += fifo(c, StreamId(s));
  for (size_t p = 0; p < c.d.processes.size(); ++p) body += "\n" + process(c, ProcessId(p));
  body += "\n" + overflow_flags(c);
  return fmt::format(
      "// Generated by inrarch: the design's top. Every stream is an inrarch_fifo at its sized depth,\n"
      "// every process a kernel module following its schedule (docs/rtl.md). Ports: AXI4-Stream,\n"
      "// tdata = the beat's elements (element e at bits [e*{1} +: {1}], fixed<{1},{2}>), tuser = its\n"
      "// overflow flag; <port>_overflow is the output's sticky overflow flag. Cycle 0 is the first\n"
      "// cycle with rst low.\n"
      "module {0} (\n    input  logic clk,\n    input  logic rst{3}\n);\n{4}\n{5}endmodule\n",
      c.opt.top, c.w, c.w - c.f, ports, body, trace_block(c));
}

}  // namespace inrarch::rtl::detail
