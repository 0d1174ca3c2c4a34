// The generated programs around the top: tb_main.cpp (the Verilator testbench), csim_dump.cpp
// (the HLS C simulation's bits, for a bit-for-bit comparison) and the Makefile.
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

using dataflow::ProcessId;
using dataflow::StreamId;

namespace {

// The testbench's fixed part: the input encoding of the HLS testbench (tb::feed: fit<T>,
// floor then saturate, a sticky flag) and the comparison with the C simulation's bits (bit
// access to the ports is the library's inrarch_tb_bits.h).
constexpr const char* kTbSupport = R"cpp(
using inrarch_tb::get_bits;
using inrarch_tb::put_bits;

struct Beats {  // per beat: the overflow flag, then `block` raw elements
  std::vector<uint8_t> ovf;
  std::vector<uint64_t> raw;
};

struct Port {
  std::string name;
  int block;
  uint64_t beats;
  Beats data;         // inputs: what is fed; outputs: what came out
  uint64_t next = 0;  // inputs: the next beat to feed
  bool offered = false;
  bool flag = false;  // outputs: the top's sticky <name>_overflow after the run
};

std::vector<double> load(const std::string& file, size_t n) {
  std::vector<double> v(n);
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (!f || std::fread(v.data(), sizeof(double), n, f) != n) {
    std::fprintf(stderr, "tb: cannot read %zu values from %s\n", n, file.c_str());
    std::exit(2);
  }
  std::fclose(f);
  return v;
}

// fit<ap_fixed<kW, kW - kF>>(v): floor onto the grid, saturate; ovf sticky, as tb::feed.
void encode(Port& p, const std::vector<double>& v) {
  const double top = std::ldexp(1.0, kW - 1);
  bool ovf = false;
  for (size_t i = 0; i < v.size(); ++i) {
    const double lim = std::ldexp(1.0, kW - kF - 1);
    ovf = ovf || !(v[i] >= -lim && v[i] < lim);
    double x = std::isnan(v[i]) ? 0.0 : std::floor(std::ldexp(v[i], kF));
    x = x < -top ? -top : x > top - 1 ? top - 1 : x;
    p.data.raw.push_back(uint64_t(int64_t(x)) & ((1ull << kW) - 1));
    if ((i + 1) % size_t(p.block) == 0) p.data.ovf.push_back(ovf);
  }
}

std::string line(const Beats& b, int block, size_t i) {
  std::string s = b.ovf[i] ? "1" : "0";
  char buf[24];
  for (int e = 0; e < block; ++e) {
    std::snprintf(buf, sizeof buf, " %llx", (unsigned long long)b.raw[i * block + e]);
    s += buf;
  }
  return s;
}

// Compares with a file of the C simulation's beats (csim_dump.cpp's format); writes ours.
uint64_t compare(const Port& p, const std::string& expect, const std::string& out, std::string& first) {
  std::ifstream in(expect);
  std::ofstream o(out);
  uint64_t bad = 0;
  std::string want;
  for (size_t i = 0; i < p.data.ovf.size(); ++i) {
    const std::string got = line(p.data, p.block, i);
    o << got << "\n";
    if (!std::getline(in, want)) want = "<missing>";
    if (got != want && bad++ == 0) first = p.name + " beat " + std::to_string(i) + ": " + got + " != " + want;
  }
  if (in && std::getline(in, want) && !want.empty()) ++bad, first = p.name + ": the C simulation has more beats";
  return bad;
}

// Per output, the top's flag and how many beats carried ovf (run_rtl checks that the flag
// is set exactly when some did); *any: a flag or such a beat.
std::string overflow_json(const std::vector<Port>& outp, bool* any) {
  std::string flags, beats;
  *any = false;
  for (const Port& p : outp) {
    uint64_t n = 0;
    for (uint8_t b : p.data.ovf) n += b;
    *any = *any || p.flag || n > 0;
    const std::string sep = flags.empty() ? "" : ", ", key = "\"" + p.name + "\": ";
    flags += sep + key + (p.flag ? "true" : "false");
    beats += sep + key + std::to_string(n);
  }
  return "\"overflow_flags\": {" + flags + "}, \"overflow_beats\": {" + beats + "}";
}

double arg(int argc, char** argv, const char* key, double dflt) {
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], key)) return std::atof(argv[i + 1]);
  return dflt;
}
std::string arg(int argc, char** argv, const char* key, const char* dflt) {
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], key)) return argv[i + 1];
  return dflt;
}

uint64_t g_cycle = 0, g_ops = 0, g_first_op = 0, g_last_op = 0;
std::FILE* g_trace = nullptr;

}  // namespace

// Every FIFO op of the top (its INRARCH_TRACE block), in the cycle that is ending.
void inrarch_trace(int stream, svBit write) {
  if (g_ops++ == 0) g_first_op = g_cycle;
  g_last_op = g_cycle;
  if (g_trace) std::fprintf(g_trace, "%llu %d %c\n", (unsigned long long)g_cycle, stream, write ? 'w' : 'r');
}
)cpp";

constexpr const char* kTbMain = R"cpp(
int main(int argc, char** argv) {{
  const std::string data = arg(argc, argv, "--data", "data"), expect = arg(argc, argv, "--expect", "");
  const std::string out = arg(argc, argv, "--out", "."), trace = arg(argc, argv, "--trace", "");
  const double stall_in = arg(argc, argv, "--stall-in", 0.0), stall_out = arg(argc, argv, "--stall-out", 0.0);
  const uint64_t idle_limit = uint64_t(arg(argc, argv, "--idle", 1000.0));
  std::mt19937_64 rng(uint64_t(arg(argc, argv, "--seed", 1.0)));
  std::uniform_real_distribution<double> u(0, 1);
  if (!trace.empty()) g_trace = std::fopen(trace.c_str(), "w");
  std::vector<Port> in = {{{0}}}, outp = {{{1}}};
  for (Port& p : in) encode(p, load(data + "/" + p.name + ".bin", p.beats * p.block));
  VerilatedContext ctx;
  Vtop top{{&ctx}};
  top.rst = 1;
  for (int i = 0; i < 4; ++i) top.clk = i & 1, top.eval();
  top.rst = 0;
  bool hang = false;
  int64_t first_in = -1, last_out = -1;
  uint64_t idle = 0, outs_left = 0;
  for (const Port& p : outp) outs_left += p.beats;
  // Past the last output beat too: a gather may still read input beats it does not need,
  // and the event graph's latency counts those reads.
  for (g_cycle = 0; outs_left > 0 || g_ops < kAllOps; ++g_cycle) {{
    for (Port& p : in)  // valid, once raised, stays until the beat moves (AXI4-Stream)
      p.offered = p.offered || (p.next < p.beats && !(u(rng) < stall_in));
{2}    top.clk = 0;
    top.eval();
{3}    const uint64_t ops = g_ops;
    top.clk = 1;
    top.eval();
    idle = g_ops == ops ? idle + 1 : 0;
    if (idle > idle_limit) {{ hang = true; break; }}
  }}
  if (g_trace) std::fclose(g_trace);
  // Without an input port, the design starts with a constant output's first beat.
  if (in.empty() && g_ops > 0) first_in = int64_t(g_first_op);
{4}  bool flagged = false;
  const std::string ovf = overflow_json(outp, &flagged);
  uint64_t bad = 0;
  std::string first;
  for (const Port& p : outp) bad += compare(p, expect.empty() ? "/dev/null" : expect + "/" + p.name + ".txt", out + "/" + p.name + ".txt", first);
  std::printf("{{\"hang\": %s, \"cycles\": %lld, \"first_in\": %lld, \"last_out\": %lld, \"last_op\": %llu, \"end\": %llu, \"ops\": %llu, %s, ",
              hang ? "true" : "false", (long long)(last_out - first_in + 1), (long long)first_in, (long long)last_out,
              (unsigned long long)g_last_op, (unsigned long long)g_cycle, (unsigned long long)g_ops, ovf.c_str());
  if (expect.empty()) std::printf("\"bit_exact\": null}}\n");
  else std::printf("\"bit_exact\": %s, \"mismatches\": %llu, \"first_mismatch\": \"%s\"}}\n", bad || hang ? "false" : "true",
                   (unsigned long long)bad, first.c_str());
  return hang || bad || flagged ? 1 : 0;
}}
)cpp";

std::string port_list(const Ctx& c, const std::vector<ProcessId>& ps, bool in) {
  std::string s;
  for (ProcessId p : ps) {
    const StreamId sid = in ? c.d.processes[p].outputs.at(0) : c.d.processes[p].inputs.at(0);
    s += fmt::format("{}Port{{\"{}\", {}, {}ull}}", s.empty() ? "" : ", ", c.d.processes[p].name,
                     c.d.streams[sid].block, c.d.streams[sid].beats());
  }
  return s;
}

// Per cycle, before the clock edge: what the testbench drives, then what moved.
std::pair<std::string, std::string> port_code(const Ctx& c) {
  std::string drive, sample;
  const auto ins = input_ports(c.d), outs = output_ports(c.d);
  for (size_t k = 0; k < ins.size(); ++k) {
    const std::string& n = c.d.processes[ins[k]].name;
    drive += fmt::format(
        "    top.{0}_tvalid = in[{1}].offered;\n    if (in[{1}].offered) {{\n"
        "      for (int e = 0; e < in[{1}].block; ++e) put_bits(top.{0}_tdata, e * kW, kW, in[{1}].data.raw[in[{1}].next * in[{1}].block + e]);\n"
        "      top.{0}_tuser = in[{1}].data.ovf[in[{1}].next];\n    }}\n", n, k);
    sample += fmt::format(
        "    if (top.{0}_tvalid && top.{0}_tready) {{\n      if (first_in < 0) first_in = int64_t(g_cycle);\n"
        "      ++in[{1}].next, in[{1}].offered = false;\n    }}\n", n, k);
  }
  for (size_t k = 0; k < outs.size(); ++k) {
    const std::string& n = c.d.processes[outs[k]].name;
    drive += fmt::format("    top.{}_tready = !(u(rng) < stall_out);\n", n);
    sample += fmt::format(
        "    if (top.{0}_tvalid && top.{0}_tready) {{\n      last_out = int64_t(g_cycle), --outs_left;\n"
        "      for (int e = 0; e < outp[{1}].block; ++e) outp[{1}].data.raw.push_back(get_bits(top.{0}_tdata, e * kW, kW));\n"
        "      outp[{1}].data.ovf.push_back(top.{0}_tuser);\n    }}\n", n, k);
  }
  return {drive, sample};
}

uint64_t all_fifo_ops(const dataflow::Design& d) {
  uint64_t n = 0;
  for (const dataflow::Stream& s : d.streams) n += 2 * uint64_t(s.beats());
  return n;
}

// After the run: each output's sticky flag register.
std::string flag_reads(const Ctx& c) {
  std::string s;
  const auto outs = output_ports(c.d);
  for (size_t k = 0; k < outs.size(); ++k)
    s += fmt::format("  outp[{}].flag = top.{}_overflow;\n", k, c.d.processes[outs[k]].name);
  return s;
}

}  // namespace

std::string tb_main_cpp(const Ctx& c) {
  const auto [drive, sample] = port_code(c);
  return fmt::format(
      "// Generated by inrarch: the Verilator testbench of {0} (docs/rtl.md). Usage:\n"
      "//   Vtop [--data DIR] [--expect DIR] [--out DIR] [--trace FILE] [--stall-in P] [--stall-out P]\n"
      "//        [--seed S] [--idle N]\n"
      "// Feeds the inputs (DIR/<source>.bin, doubles) as the HLS testbench encodes them, drains the\n"
      "// outputs, compares them bit for bit with the C simulation's (--expect DIR/<sink>.txt) and\n"
      "// writes them to --out; counts cycles from the first input beat to the last output beat, and\n"
      "// runs on until every FIFO op is done (last_op); a hang is --idle cycles (default 1000)\n"
      "// without any FIFO op. Prints one JSON line, with each output's sticky overflow flag and its\n"
      "// count of beats with ovf set.\n"
      "#include <cmath>\n#include <cstdint>\n#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n"
      "#include <fstream>\n#include <random>\n#include <string>\n#include <vector>\n\n"
      "#include \"Vtop.h\"\n#include \"Vtop__Dpi.h\"\n#include \"verilated.h\"\n\n#include \"inrarch_tb_bits.h\"\n\n"
      "namespace {{\n\nconstexpr int kW = {1}, kF = {2};\nconstexpr uint64_t kAllOps = {5};  // a write and a read per beat\n{3}{4}",
      c.opt.top, c.w, c.f, kTbSupport,
      fmt::format(fmt::runtime(kTbMain), port_list(c, input_ports(c.d), true), port_list(c, output_ports(c.d), false),
                  drive, sample, flag_reads(c)),
      all_fifo_ops(c.d));
}

}  // namespace inrarch::rtl::detail
