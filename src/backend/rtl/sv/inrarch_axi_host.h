// The host side of the memory-mapped kernel's Verilator testbench (docs/deploy.md
// "Simulated device"): it places a buffer per port in device memory at a random offset in
// its first 4 KB line, fills the inputs, programs the control registers, starts the kernel
// (twice back to back with auto_restart under --runs 2), polls ap_done, reads the flags
// and the cycles, and compares every run's outputs with the C simulation's bits.
// Options: --data DIR (inputs as DIR/<port>.bin doubles, encoded as the HLS testbench
// does) or --in PORT=FILE (a buffer's bytes as the host runtime writes them), --expect DIR
// (the C simulation's beats, DIR/<port>.txt), --out DIR (the outputs' bytes, DIR/<port>.bin),
// --runs 1|2, --seed S, --lat-min N, --lat-max N, --stall P, --idle N, --fault drop-beat.
#pragma once

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "inrarch_axi_sim.h"

namespace axi_sim {

struct PortInfo {
  const char* name;
  bool input;
  int dw, c, w, block;  // AXI data bits, container bits, element bits, elements a beat
  uint64_t elems;
};

struct Options {
  std::string data, expect, out, fault;
  std::vector<std::pair<std::string, std::string>> raw_in;
  int runs = 1;
  uint64_t idle = 100000;
};

// Element e of a buffer, sign-extended from its container.
inline int64_t element(const Memory::Buffer& b, const PortInfo& p, uint64_t e) {
  uint64_t v = 0;
  for (int i = 0; i < p.c / 8; ++i) v |= uint64_t(b.bytes[e * (p.c / 8) + i]) << (8 * i);
  return p.c == 64 ? int64_t(v) : int64_t(v << (64 - p.c)) >> (64 - p.c);
}
inline void set_element(Memory::Buffer& b, const PortInfo& p, uint64_t e, int64_t v) {
  for (int i = 0; i < p.c / 8; ++i) b.bytes[e * (p.c / 8) + i] = uint8_t(uint64_t(v) >> (8 * i));
}

struct Bench {
  const PortInfo* ports;
  int nports, frac;
  uint32_t flags_at;
  Options opt;
  Memory mem;
  Timing timing;
  uint64_t now = 0, beats = 0;  // cycles simulated; AXI data beats moved (the idle watchdog's)
  std::vector<std::vector<size_t>> buffer_of;  // [run][port] -> mem.buffers index
  bool input_saturated = false;

  Bench(int argc, char** argv, const PortInfo* p, int n, int frac_bits, uint32_t flags_offset)
      : ports(p), nports(n), frac(frac_bits), flags_at(flags_offset) {
    parse(argc, argv);
    for (int r = 0; r < opt.runs; ++r) allocate(r);
    for (int k = 0; k < nports; ++k)
      if (ports[k].input) load_input(k);
  }

  void parse(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
      const std::string k = argv[i], v = argv[i + 1];
      if (k == "--data") opt.data = v;
      else if (k == "--expect") opt.expect = v;
      else if (k == "--out") opt.out = v;
      else if (k == "--runs") opt.runs = std::atoi(v.c_str()) == 2 ? 2 : 1;
      else if (k == "--seed") timing.rng.seed(std::stoull(v));
      else if (k == "--lat-min") timing.lat_min = std::atoi(v.c_str());
      else if (k == "--lat-max") timing.lat_max = std::atoi(v.c_str());
      else if (k == "--stall") timing.stall = std::atof(v.c_str());
      else if (k == "--idle") opt.idle = std::stoull(v);
      else if (k == "--fault") opt.fault = v;
      else if (k == "--in" && v.find('=') != std::string::npos)
        opt.raw_in.emplace_back(v.substr(0, v.find('=')), v.substr(v.find('=') + 1));
      else die("unknown option " + k);
    }
    timing.lat_max = std::max(timing.lat_max, timing.lat_min);
  }
  [[noreturn]] static void die(const std::string& e) {
    std::fprintf(stderr, "tb_kernel: %s\n", e.c_str());
    std::exit(2);
  }

  // Run r's buffers: inputs are shared by the runs, outputs are the run's own. Each starts
  // at a random word of its first 4 KB line, so bursts meet the line at random beats.
  void allocate(int r) {
    std::vector<size_t> idx;
    for (int k = 0; k < nports; ++k) {
      const PortInfo& p = ports[k];
      if (r > 0 && p.input) {
        idx.push_back(buffer_of[0][k]);
        continue;
      }
      const uint64_t bytes = p.dw / 8, size = p.elems * p.c / 8;
      const uint64_t base = (uint64_t(mem.buffers.size()) + 1) << 28 | (timing.rng() % (4096 / bytes)) * bytes;
      const uint64_t padded = (size + bytes - 1) / bytes * bytes;
      idx.push_back(mem.buffers.size());
      mem.buffers.push_back({p.name, base, size, std::vector<uint8_t>(padded, 0xEE)});
    }
    buffer_of.push_back(idx);
  }

  void load_input(int k) {
    const PortInfo& p = ports[k];
    Memory::Buffer& b = mem.buffers[buffer_of[0][k]];
    for (const auto& [name, file] : opt.raw_in)
      if (name == p.name) {
        std::ifstream in(file, std::ios::binary);
        if (!in.read(reinterpret_cast<char*>(b.bytes.data()), std::streamsize(b.size))) die("cannot read " + file);
        return;
      }
    if (opt.data.empty()) die(std::string("no data for input ") + p.name + " (--data DIR or --in PORT=FILE)");
    std::vector<double> v(p.elems);
    std::FILE* f = std::fopen((opt.data + "/" + p.name + ".bin").c_str(), "rb");
    if (!f || std::fread(v.data(), sizeof(double), v.size(), f) != v.size()) die("cannot read " + opt.data + "/" + p.name + ".bin");
    std::fclose(f);
    // fit<ap_fixed<W, W - F>>: floor onto the grid, saturate (the HLS testbench's tb::feed).
    const double top = std::ldexp(1.0, p.w - 1);
    for (uint64_t e = 0; e < p.elems; ++e) {
      double x = std::isnan(v[e]) ? 0.0 : std::floor(std::ldexp(v[e], frac));
      input_saturated = input_saturated || !(x >= -top && x <= top - 1);
      x = x < -top ? -top : x > top - 1 ? top - 1 : x;
      set_element(b, p, e, int64_t(x));
    }
  }

  uint32_t arg_at(int k) const { return 16 + 8 * k; }

  template <class Host> bool program(Host& h, int run) {
    bool ok = true;
    for (int k = 0; k < nports; ++k) {
      const uint64_t a = mem.buffers[buffer_of[run][k]].base;
      ok = h.write(arg_at(k), uint32_t(a)) && h.write(arg_at(k) + 4, uint32_t(a >> 32)) && ok;
    }
    return ok;
  }

  // Polls the control register until `bit` is set; false on a hang (no AXI beat for --idle
  // cycles) or a failed access.
  template <class Host> bool poll(Host& h, uint32_t bit, uint32_t& ctrl) {
    uint64_t last_beats = beats, since = now;
    while (true) {
      if (!h.read(0, ctrl)) return false;
      if (ctrl & bit) return true;
      if (beats != last_beats) last_beats = beats, since = now;
      if (now - since > opt.idle) return false;
    }
  }

  // The register checks of one session, and every run's outcome, as the JSON line says.
  struct Seen {
    bool idle_before = false, args_readback = false, started = false, isr_done = false, isr_cleared = false;
    bool interrupt = false, idle_after = false, extra_run = false, hang = false;
    uint32_t flags = 0, status = 0;
    std::vector<uint64_t> cycles;
  };

  template <class Host> bool read64(Host& h, uint32_t at, uint64_t& v) {
    uint32_t lo = 0, hi = 0;
    const bool ok = h.read(at, lo) && h.read(at + 4, hi);
    v = uint64_t(hi) << 32 | lo;
    return ok;
  }

  // One start, or two back to back: auto_restart set with the first start, the second run's
  // output buffers written once the first has started, auto_restart cleared before the
  // second begins (ap_start is re-armed at each start from auto_restart).
  template <class Host> void session(Host& h, const std::function<bool()>& irq, Seen& s) {
    uint32_t ctrl = 0, v = 0;
    s.idle_before = h.read(0, ctrl) && (ctrl & 4);
    s.args_readback = program(h, 0) && h.read(arg_at(0), v) && v == uint32_t(mem.buffers[buffer_of[0][0]].base);
    h.write(4, 1), h.write(8, 1);  // global interrupt enable; interrupt on done
    h.write(0, opt.runs == 2 ? 0x81 : 0x01);
    if (opt.runs == 2) {
      s.started = h.read(0, ctrl) && !(ctrl & 4);
      h.write(0, 0);
      program(h, 1);
    }
    for (int r = 0; r < opt.runs; ++r) {
      if (!poll(h, 2, ctrl)) {
        s.hang = true;
        return;
      }
      s.interrupt = s.interrupt || irq();
      uint64_t c = 0;
      read64(h, flags_at + 4, c);
      s.cycles.push_back(c);
    }
    s.started = s.started || opt.runs == 1;
    s.isr_done = h.read(12, v) && (v & 1);
    s.isr_cleared = h.write(12, 1) && h.read(12, v) && !(v & 1);
    h.read(flags_at, s.flags), h.read(flags_at + 12, s.status);
    for (int i = 0; i < 64; ++i) h.read(0, ctrl), s.extra_run = s.extra_run || !(ctrl & 4);
    s.idle_after = (ctrl & 4) && !(ctrl & 1);
  }

  // Output k of run r against the C simulation's beats ("<ovf> <e0> <e1> ..." in hex).
  uint64_t compare(int r, int k, uint32_t flags, int flag_bit, std::string& first) {
    const PortInfo& p = ports[k];
    const Memory::Buffer& b = mem.buffers[buffer_of[r][k]];
    std::ifstream in(opt.expect + "/" + p.name + ".txt");
    uint64_t bad = 0, e = 0;
    int last_ovf = 0;
    const uint64_t mask = p.w == 64 ? ~0ull : (1ull << p.w) - 1;
    for (std::string line; std::getline(in, line) && e < p.elems;) {
      std::istringstream ls(line);
      ls >> last_ovf;
      for (std::string hex; ls >> hex && e < p.elems; ++e)
        if ((uint64_t(element(b, p, e)) & mask) != std::stoull(hex, nullptr, 16) && bad++ == 0)
          first = std::string(p.name) + " run " + std::to_string(r) + " element " + std::to_string(e) + ": " +
                  std::to_string(element(b, p, e)) + " != 0x" + hex;
    }
    if (e != p.elems) ++bad, first = std::string(p.name) + ": the C simulation has " + std::to_string(e) + " elements";
    if (bool(last_ovf) != bool((flags >> flag_bit) & 1))
      ++bad, first = std::string(p.name) + ": the overflow flag differs from the C simulation's";
    return bad;
  }

  void write_outputs(int r) {
    for (int k = 0; k < nports; ++k)
      if (!ports[k].input) {
        const Memory::Buffer& b = mem.buffers[buffer_of[r][k]];
        std::ofstream o(opt.out + "/" + ports[k].name + ".bin", std::ios::binary);
        o.write(reinterpret_cast<const char*>(b.bytes.data()), std::streamsize(b.size));
      }
  }

  template <class Host> int run(Host& h, const std::function<bool()>& irq) {
    Seen s;
    session(h, irq, s);
    uint64_t bad = 0;
    std::string first, flags_json, cycles_json;
    int bit = 0;
    for (int k = 0; k < nports; ++k) {
      if (ports[k].input) continue;
      flags_json += std::string(bit ? ", " : "") + "\"" + ports[k].name + "\": " + (((s.flags >> bit) & 1) ? "true" : "false");
      for (int r = 0; r < int(s.cycles.size()) && !opt.expect.empty(); ++r) bad += compare(r, k, s.flags, bit, first);
      ++bit;
    }
    for (uint64_t c : s.cycles) cycles_json += (cycles_json.empty() ? "" : ", ") + std::to_string(c);
    if (!opt.out.empty() && !s.cycles.empty()) write_outputs(int(s.cycles.size()) - 1);
    const bool regs_ok = s.idle_before && s.args_readback && s.started && s.isr_done && s.isr_cleared && s.interrupt &&
                         s.idle_after && !s.extra_run;
    const bool exact = !opt.expect.empty() && !s.hang && bad == 0;
    std::printf("{\"hang\": %s, \"runs\": [%s], \"sim_cycles\": %llu, \"axi_error\": %s, \"protocol_errors\": %zu, "
                "\"first_protocol_error\": \"%s\", \"registers\": {\"idle_before\": %d, \"args_readback\": %d, "
                "\"started\": %d, \"isr_done\": %d, \"isr_cleared\": %d, \"interrupt\": %d, \"idle_after\": %d, "
                "\"extra_run\": %d}, \"registers_ok\": %s, \"input_saturated\": %s, \"overflow_flags\": {%s}, ",
                s.hang ? "true" : "false", cycles_json.c_str(), (unsigned long long)now, s.status ? "true" : "false",
                mem.errors.size(), mem.errors.empty() ? "" : mem.errors[0].c_str(), s.idle_before, s.args_readback,
                s.started, s.isr_done, s.isr_cleared, s.interrupt, s.idle_after, s.extra_run,
                regs_ok ? "true" : "false", input_saturated ? "true" : "false", flags_json.c_str());
    if (opt.expect.empty()) std::printf("\"bit_exact\": null}\n");
    else std::printf("\"bit_exact\": %s, \"mismatches\": %llu, \"first_mismatch\": \"%s\"}\n", exact ? "true" : "false",
                     (unsigned long long)bad, first.c_str());
    const bool failed = s.hang || s.status || !mem.errors.empty() || !regs_ok || (!opt.expect.empty() && !exact);
    return failed ? 1 : 0;
  }
};

}  // namespace axi_sim
