// The memory-mapped kernel around the top (docs/deploy.md): inrarch_kernel.sv, an AXI4
// master per port moving its buffer (inrarch_axi_rd + inrarch_axi_unpack for an input,
// inrarch_axi_pack + inrarch_axi_wr for an output) and the AXI4-Lite control port
// (inrarch_axil_ctrl); kernel.xml and package_kernel.tcl for Vivado's packager.
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

namespace {

std::string lite_ports() {
  return "    input  logic [11:0] s_axi_control_awaddr,\n    input  logic s_axi_control_awvalid,\n"
         "    output logic s_axi_control_awready,\n    input  logic [31:0] s_axi_control_wdata,\n"
         "    input  logic [3:0] s_axi_control_wstrb,\n    input  logic s_axi_control_wvalid,\n"
         "    output logic s_axi_control_wready,\n    output logic [1:0] s_axi_control_bresp,\n"
         "    output logic s_axi_control_bvalid,\n    input  logic s_axi_control_bready,\n"
         "    input  logic [11:0] s_axi_control_araddr,\n    input  logic s_axi_control_arvalid,\n"
         "    output logic s_axi_control_arready,\n    output logic [31:0] s_axi_control_rdata,\n"
         "    output logic [1:0] s_axi_control_rresp,\n    output logic s_axi_control_rvalid,\n"
         "    input  logic s_axi_control_rready,\n"
         "    // The name Vitis requires; Verilator would warn that C++ uses the word.\n"
         "    /* verilator lint_off SYMRSVDWORD */\n    output logic interrupt\n    /* verilator lint_on SYMRSVDWORD */";
}

// A port's AXI4 master signals (read channels for an input, write channels for an output).
std::string master_ports(const KernelPort& p) {
  const std::string m = "m_axi_" + p.port + "_";
  if (p.input)
    return fmt::format(",\n    output logic [63:0] {0}araddr,\n    output logic [7:0] {0}arlen,\n"
                       "    output logic [2:0] {0}arsize,\n    output logic [1:0] {0}arburst,\n"
                       "    output logic {0}arvalid,\n    input  logic {0}arready,\n"
                       "    input  logic [{1}:0] {0}rdata,\n    input  logic [1:0] {0}rresp,\n"
                       "    input  logic {0}rlast,\n    input  logic {0}rvalid,\n    output logic {0}rready",
                       m, p.data_bits - 1);
  return fmt::format(",\n    output logic [63:0] {0}awaddr,\n    output logic [7:0] {0}awlen,\n"
                     "    output logic [2:0] {0}awsize,\n    output logic [1:0] {0}awburst,\n"
                     "    output logic {0}awvalid,\n    input  logic {0}awready,\n"
                     "    output logic [{1}:0] {0}wdata,\n    output logic [{2}:0] {0}wstrb,\n"
                     "    output logic {0}wlast,\n    output logic {0}wvalid,\n    input  logic {0}wready,\n"
                     "    input  logic [1:0] {0}bresp,\n    input  logic {0}bvalid,\n    output logic {0}bready",
                     m, p.data_bits - 1, p.data_bits / 8 - 1);
}

// The strobe of a buffer's last word: the bytes it still holds.
std::string last_strobe(const KernelPort& p) {
  const int64_t word_bytes = p.data_bits / 8, left = p.bytes - (p.words - 1) * word_bytes;
  std::string bits;
  for (int64_t i = word_bytes - 1; i >= 0; --i) bits += i < left ? '1' : '0';
  return fmt::format("{}'b{}", word_bytes, bits);
}

// A port's mover: its engine, its (un)packer and the top's stream port between them.
std::string mover(const KernelInterface& k, const KernelPort& p, size_t index) {
  const std::string m = "m_axi_" + p.port + "_", n = p.port;
  const std::string params = fmt::format(".DW({}), .WORDS({}), .MAX_BURST({}), .OUTSTANDING({}), .FIFO({}), "
                                         ".BOUNDARY(AXI_BOUNDARY)", p.data_bits, p.words, k.max_burst,
                                         k.outstanding, k.fifo_words);
  const std::string pack = fmt::format(".DW({}), .C({}), .W({}), .B({}), .ELEMS({})", p.data_bits,
                                       p.container_bits, k.width, p.block, p.elements);
  std::string s = fmt::format("  // {}: {} x fixed<{},{}> in {}-bit containers, {}-bit words, argument at 0x{:02x}\n",
                              n, p.elements, k.width, k.width - k.frac, p.container_bits, p.data_bits, p.arg_offset);
  s += fmt::format("  logic [{}:0] {}_word;\n  logic {}_word_valid, {}_word_ready;\n", p.data_bits - 1, n, n, n);
  const std::string addr = fmt::format("addr_q[{}+:64]", 64 * index);
  if (p.input) {
    s += fmt::format(
        "  inrarch_axi_rd #({0}) u_rd_{1} (\n      .clk(ap_clk), .rst(core_rst), .go, .addr({2}), .done(done[{3}]), "
        ".err(err[{3}]),\n      .araddr({4}araddr), .arlen({4}arlen), .arsize({4}arsize), .arburst({4}arburst), "
        ".arvalid({4}arvalid),\n      .arready({4}arready), .rdata({4}rdata), .rresp({4}rresp), .rlast({4}rlast), "
        ".rvalid({4}rvalid), .rready({4}rready),\n      .out_data({1}_word), .out_valid({1}_word_valid), "
        ".out_ready({1}_word_ready));\n",
        params, n, addr, index, m);
    return s + fmt::format(
        "  inrarch_axi_unpack #({0}) u_unpack_{1} (\n      .clk(ap_clk), .rst(core_rst), .in_data({1}_word), "
        ".in_valid({1}_word_valid), .in_ready({1}_word_ready),\n      .out_data({1}_tdata), .out_valid({1}_tvalid), "
        ".out_ready({1}_tready));\n",
        pack, n);
  }
  s += fmt::format(
      "  inrarch_axi_pack #({0}) u_pack_{1} (\n      .clk(ap_clk), .rst(core_rst), .in_data({1}_tdata), "
      ".in_valid({1}_tvalid), .in_ready({1}_tready),\n      .out_data({1}_word), .out_valid({1}_word_valid), "
      ".out_ready({1}_word_ready));\n",
      pack, n);
  return s + fmt::format(
      "  inrarch_axi_wr #({0}, .LAST_STRB({5})) u_wr_{1} (\n      .clk(ap_clk), .rst(core_rst), .go, .addr({2}), "
      ".done(done[{3}]), .err(err[{3}]),\n      .in_data({1}_word), .in_valid({1}_word_valid), .in_ready({1}_word_ready),\n"
      "      .awaddr({4}awaddr), .awlen({4}awlen), .awsize({4}awsize), .awburst({4}awburst), .awvalid({4}awvalid),\n"
      "      .awready({4}awready), .wdata({4}wdata), .wstrb({4}wstrb), .wlast({4}wlast), .wvalid({4}wvalid),\n"
      "      .wready({4}wready), .bresp({4}bresp), .bvalid({4}bvalid), .bready({4}bready));\n",
      params, n, addr, index, m, last_strobe(p));
}

std::string top_instance(const Ctx& c, const KernelInterface& k) {
  std::string conn, wires;
  int flag = 0;
  for (const KernelPort& p : k.ports) {
    const std::string& n = p.port;
    wires += fmt::format("  logic [{}:0] {}_tdata;\n  logic {}_tvalid, {}_tready;\n", p.block * k.width - 1, n, n, n);
    if (p.input) {
      conn += fmt::format("      .{0}_tdata, .{0}_tuser(1'b0), .{0}_tvalid, .{0}_tready,\n", n);
      continue;
    }
    wires += fmt::format("  logic {}_tuser;\n", n);
    conn += fmt::format("      .{0}_tdata, .{0}_tuser, .{0}_tvalid, .{0}_tready, .{0}_overflow(overflow[{1}]),\n", n, flag);
    wires += fmt::format("  assign flag_beat[{}] = {}_tuser && {}_tvalid && {}_tready;\n", flag++, n, n, n);
  }
  conn.resize(conn.size() - 2);  // the last ",\n"
  return wires + fmt::format("  {} u_top (\n      .clk(ap_clk), .rst(core_rst),\n{}\n  );\n", c.opt.top, conn);
}

constexpr const char* kControl = R"(
  // A start clears the top and the movers for a cycle (`clear`), then starts the movers on
  // the latched addresses (`go`); the run is done when every mover is, or at an AXI error.
  logic rst, clear, go, running, done_pulse, err_q;
  logic core_rst;
  logic start;
  logic [{0}:0] done, err;
  logic [{1}:0] overflow, flag_beat, seen, flags_q;
  logic [64*{2}-1:0] args, addr_q;
  logic [63:0] cycles, cycles_q;
  assign core_rst = rst || clear;
  always_ff @(posedge ap_clk) rst <= !ap_rst_n;
  always_ff @(posedge ap_clk) begin
    if (rst) begin
      {{clear, go, running, done_pulse, err_q}} <= '0;
      {{seen, flags_q}} <= '0;
      cycles <= '0;
      cycles_q <= '0;
      addr_q <= '0;
    end else begin
      clear <= start;
      go <= clear;
      done_pulse <= 1'b0;
      if (start) {{addr_q, cycles}} <= {{args, 64'd1}};
      else cycles <= cycles + 64'd1;
      if (clear) seen <= '0;
      else seen <= seen | flag_beat;
      if (go) running <= 1'b1;
      if (running && (&done || |err)) begin
        running <= 1'b0;
        done_pulse <= 1'b1;
        cycles_q <= cycles;
        flags_q <= overflow | seen;
        err_q <= |err;
      end
    end
  end

  inrarch_axil_ctrl #(.NARGS({2}), .NFLAGS({3})) u_ctrl (
      .clk(ap_clk), .rst, .awaddr(s_axi_control_awaddr), .awvalid(s_axi_control_awvalid),
      .awready(s_axi_control_awready), .wdata(s_axi_control_wdata), .wstrb(s_axi_control_wstrb),
      .wvalid(s_axi_control_wvalid), .wready(s_axi_control_wready), .bresp(s_axi_control_bresp),
      .bvalid(s_axi_control_bvalid), .bready(s_axi_control_bready), .araddr(s_axi_control_araddr),
      .arvalid(s_axi_control_arvalid), .arready(s_axi_control_arready), .rdata(s_axi_control_rdata),
      .rresp(s_axi_control_rresp), .rvalid(s_axi_control_rvalid), .rready(s_axi_control_rready), .irq(interrupt),
      .start, .done(done_pulse), .args, .flags(flags_q), .cycles(cycles_q), .axi_error(err_q));

)";

}  // namespace

std::string kernel_sv(const Ctx& c, const KernelInterface& k) {
  size_t outputs = 0;
  std::string ports = lite_ports(), movers;
  for (size_t i = 0; i < k.ports.size(); ++i) {
    ports += master_ports(k.ports[i]);
    movers += mover(k, k.ports[i], i);
    outputs += !k.ports[i].input;
  }
  return fmt::format(
      "// Generated by inrarch: the memory-mapped kernel of {0} (docs/deploy.md). Each port's buffer is\n"
      "// read or written by its own AXI4 master, m_axi_<port>; s_axi_control is the Vitis RTL kernel's\n"
      "// register map (ap_ctrl_hs: 0x00 control, 0x04 GIE, 0x08 IER, 0x0C ISR, the buffer addresses\n"
      "// from 0x10, then the overflow flags at 0x{1:02x}, the cycles at 0x{2:02x}, the status at 0x{3:02x}).\n"
      "// AXI_BOUNDARY is AXI4's 4 KB line; a test sets it wider to see the memory model object.\n"
      "module inrarch_kernel #(\n    parameter int AXI_BOUNDARY = 4096\n) (\n    input  logic ap_clk,\n"
      "    input  logic ap_rst_n,\n{4}\n);\n{5}{6}{7}endmodule\n",
      c.opt.top, k.flags_offset, k.cycles_offset, k.status_offset, ports,
      fmt::format(fmt::runtime(kControl), k.ports.size() - 1, std::max<size_t>(outputs, 1) - 1, k.ports.size(),
                  std::max<size_t>(outputs, 1)),
      top_instance(c, k), movers);
}

}  // namespace inrarch::rtl::detail
