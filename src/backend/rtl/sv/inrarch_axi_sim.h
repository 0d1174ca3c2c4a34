// The memory-mapped kernel's Verilator testbench support (docs/deploy.md "Simulated device"):
// a device memory of host buffers, an AXI4 slave per master port with random latency and
// back-pressure that checks the protocol (4 KB lines, sizes, WLAST, writes inside their
// buffer), and an AXI4-Lite master for the host's register reads and writes. The generated
// tb_kernel.cpp binds them to the kernel's ports. Plain C++17, no Verilator types but
// VlWide through inrarch_tb_bits.h.
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "inrarch_tb_bits.h"

namespace axi_sim {

using inrarch_tb::get_bits;
using inrarch_tb::put_bits;

// Random timing of the slaves: a request's latency in [lat_min, lat_max] cycles, and the
// probability that a ready or a data beat is withheld in a cycle.
struct Timing {
  int lat_min = 1, lat_max = 1;
  double stall = 0;
  std::mt19937_64 rng{1};
  bool stalled() { return stall > 0 && std::uniform_real_distribution<double>(0, 1)(rng) < stall; }
  uint64_t latency() { return std::uniform_int_distribution<int>(lat_min, lat_max)(rng); }
};

// Device memory: the host's buffers, each `size` bytes at `base`, padded to whole words.
struct Memory {
  struct Buffer {
    std::string name;
    uint64_t base, size;
    std::vector<uint8_t> bytes;
  };
  std::vector<Buffer> buffers;
  std::vector<std::string> errors;  // protocol errors, in order

  Buffer* find(uint64_t a, uint64_t n) {
    for (Buffer& b : buffers)
      if (a >= b.base && a + n <= b.base + b.bytes.size()) return &b;
    return nullptr;
  }
  void error(const std::string& e) { errors.push_back(e); }
};

// The checks an AR or AW request must pass: INCR, the port's full size, aligned, inside
// one 4 KB line and inside one buffer.
inline void check_request(Memory& m, const std::string& port, uint64_t addr, int len, int size, int burst, int bytes) {
  const uint64_t span = uint64_t(len + 1) * bytes;
  char buf[200];
  auto fail = [&](const char* what) {
    std::snprintf(buf, sizeof buf, "%s: %s (addr 0x%llx, %d beats)", port.c_str(), what, (unsigned long long)addr, len + 1);
    m.error(buf);
  };
  if (burst != 1) fail("not an INCR burst");
  if ((1 << size) != bytes) fail("size is not the port's width");
  if (addr % bytes) fail("unaligned address");
  if ((addr & 4095) + span > 4096) fail("burst crosses a 4 KB boundary");
  if (!m.find(addr, span)) fail("burst outside every buffer");
}

// The kernel's signals a slave or the host drives or samples, as Verilator names their
// types: CData up to 8 bits, SData 16, IData 32, QData 64, VlWide wider.
template <class D> struct RdSig {
  QData& araddr;
  CData &arlen, &arsize, &arburst, &arvalid, &arready;
  D& rdata;
  CData &rresp, &rlast, &rvalid, &rready;
};
template <class D, class S> struct WrSig {
  QData& awaddr;
  CData &awlen, &awsize, &awburst, &awvalid, &awready;
  D& wdata;
  S& wstrb;
  CData &wlast, &wvalid, &wready, &bresp, &bvalid, &bready;
};
struct LiteSig {
  SData& awaddr;
  CData &awvalid, &awready;
  IData& wdata;
  CData &wstrb, &wvalid, &wready, &bresp, &bvalid, &bready;
  SData& araddr;
  CData &arvalid, &arready;
  IData& rdata;
  CData &rresp, &rvalid, &rready;
};

struct Burst {
  uint64_t addr;
  int len, beat = 0;
  uint64_t ready_at;
};

// A read slave: AR requests queue with a latency each; R returns their beats in order.
// `drop_beat`: the first burst of two or more beats ends a beat early (a fault a test injects).
template <class Sig> struct ReadSlave {
  std::string port;
  int bytes;
  Sig s;
  Memory& mem;
  Timing& t;
  bool drop_beat = false;
  std::deque<Burst> q;
  bool r_up = false;
  uint64_t beats = 0;

  void drive(uint64_t now) {
    s.arready = !t.stalled();
    if (!r_up && !q.empty() && q.front().ready_at <= now && !t.stalled()) {
      Burst& b = q.front();
      const uint64_t a = b.addr + uint64_t(b.beat) * bytes;
      Memory::Buffer* buf = mem.find(a, bytes);
      for (int i = 0; i < bytes; ++i) put_bits(s.rdata, 8 * i, 8, buf ? buf->bytes[a - buf->base + i] : 0xA5);
      s.rresp = 0;
      s.rlast = b.beat == b.len;
      if (drop_beat && b.len >= 1 && b.beat == b.len - 1) s.rlast = 1;
      r_up = true;
    }
    s.rvalid = r_up;
  }
  void clock(uint64_t now) {
    if (s.arvalid && s.arready) {
      check_request(mem, port, s.araddr, s.arlen, s.arsize, s.arburst, bytes);
      q.push_back({s.araddr, int(s.arlen), 0, now + t.latency()});
    }
    if (s.rvalid && s.rready) {
      r_up = false;
      ++beats;
      Burst& b = q.front();
      if (s.rlast) {
        q.pop_front();
        drop_beat = drop_beat && b.beat == b.len;  // dropped once
      } else
        ++b.beat;
    }
  }
};

// A write slave: AW requests queue; W beats are taken for the oldest (never before its AW);
// a burst's response comes a latency after its last beat.
template <class Sig> struct WriteSlave {
  std::string port;
  int bytes;
  Sig s;
  Memory& mem;
  Timing& t;
  std::deque<Burst> q;
  std::deque<uint64_t> responses;  // cycles at which B is due
  bool b_up = false;
  uint64_t beats = 0;

  void drive(uint64_t now) {
    s.awready = !t.stalled();
    s.wready = !q.empty() && !t.stalled();
    if (!b_up && !responses.empty() && responses.front() <= now && !t.stalled()) b_up = true;
    s.bvalid = b_up;
    s.bresp = 0;
  }
  void clock(uint64_t now) {
    if (s.awvalid && s.awready) {
      check_request(mem, port, s.awaddr, s.awlen, s.awsize, s.awburst, bytes);
      q.push_back({s.awaddr, int(s.awlen), 0, 0});
    }
    if (s.wvalid && s.wready) write_beat(now);
    if (s.bvalid && s.bready) b_up = false, responses.pop_front();
  }

 private:
  void write_beat(uint64_t now) {
    ++beats;
    Burst& b = q.front();
    const uint64_t a = b.addr + uint64_t(b.beat) * bytes;
    Memory::Buffer* buf = mem.find(a, bytes);
    for (int i = 0; i < bytes; ++i) {
      if (!((get_bits(s.wstrb, i, 1)) & 1)) continue;
      if (!buf || a + i >= buf->base + buf->size) {
        mem.error(port + ": a strobed byte outside its buffer");
        continue;
      }
      buf->bytes[a - buf->base + i] = uint8_t(get_bits(s.wdata, 8 * i, 8));
    }
    if (bool(s.wlast) != (b.beat == b.len)) mem.error(port + ": WLAST not on the burst's last beat");
    if (b.beat == b.len || s.wlast) {
      q.pop_front();
      responses.push_back(now + t.latency());
    } else
      ++b.beat;
  }
};

// The host's AXI4-Lite master: one register access at a time, each channel's valid raised
// after a random wait; `tick` advances the simulation one cycle.
template <class Sig> struct LiteMaster {
  Sig s;
  Timing& t;
  std::function<void()> tick;
  uint64_t budget = 100000;  // cycles an access may take (a hung slave is an error)

  bool write(uint32_t addr, uint32_t data) {
    bool aw = false, w = false;
    s.bready = 1;
    for (uint64_t i = 0; i < budget; ++i) {
      s.awvalid = !aw && !t.stalled();
      s.wvalid = !w && !t.stalled();
      s.awaddr = addr, s.wdata = data, s.wstrb = 0xF;
      const bool aw_fire = s.awvalid && s.awready, w_fire = s.wvalid && s.wready, b_fire = s.bvalid && s.bready;
      tick();
      aw = aw || aw_fire, w = w || w_fire;
      if (b_fire) {
        s.awvalid = s.wvalid = 0;
        return true;
      }
    }
    return false;
  }
  bool read(uint32_t addr, uint32_t& data) {
    bool ar = false;
    s.rready = 1;
    for (uint64_t i = 0; i < budget; ++i) {
      s.arvalid = !ar && !t.stalled();
      s.araddr = addr;
      const bool ar_fire = s.arvalid && s.arready, r_fire = s.rvalid && s.rready;
      const uint32_t d = s.rdata;
      tick();
      ar = ar || ar_fire;
      if (r_fire) {
        s.arvalid = 0;
        data = d;
        return true;
      }
    }
    return false;
  }
};

}  // namespace axi_sim
