// The RTL kernel library, part: The stream and data-movement modules: FIFO, source, sink, copy, and the elementwise step sequence.
// Each module is one file of OUT/rtl (Verilator wants a module's file named after it);
// flat ports and SystemVerilog that Verilator 5.006, Icarus 11 and Yosys 0.23 all accept.
#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

std::vector<SvFile> library_stream_files() {
  return {
      {"inrarch_fifo.sv", R"sv(// One stream of the design: a FIFO of DEPTH beats of WIDTH bits with valid/ready ports
// (AXI4-Stream meaning: a beat moves in a cycle where both are high). Its timing is the
// event graph's (docs/dataflow.md §3): w_ready and r_valid are registered, so a slot freed
// by a read is writable the next cycle (WAR delay 1), and a beat written in cycle t is
// readable in t + 1 when DEPTH <= 2 (registers) or in t + 2 when deeper (an inferred RAM
// with a registered read port: RAW delay 1 or 2, dataflow/design.h raw_delay).
module inrarch_fifo #(
    parameter int WIDTH = 33,
    parameter int DEPTH = 2
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [WIDTH-1:0] w_data,
    input  logic             w_valid,
    output logic             w_ready,
    output logic [WIDTH-1:0] r_data,
    output logic             r_valid,
    input  logic             r_ready
);
  localparam int AW = DEPTH > 1 ? $clog2(DEPTH) : 1;
  localparam int CW = $clog2(DEPTH + 1);
  localparam logic [AW-1:0] LAST = AW'(DEPTH - 1);

  logic [CW-1:0] count;  // beats held (written, not yet read)
  logic [AW-1:0] wptr, rptr;
  logic w_fire, r_fire;
  assign w_fire = w_valid && w_ready;
  assign r_fire = r_valid && r_ready;
  assign w_ready = count != CW'(DEPTH);

  function automatic logic [AW-1:0] next(input logic [AW-1:0] p);
    next = p == LAST ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      count <= '0;
      wptr  <= '0;
      rptr  <= '0;
    end else begin
      if (w_fire) wptr <= next(wptr);
      if (r_fire) rptr <= next(rptr);
      count <= count + CW'(w_fire) - CW'(r_fire);
    end
  end

  if (DEPTH <= 2) begin : g_regs
    // Registers: the head is readable the cycle after its write.
    logic [WIDTH-1:0] s0, s1;
    always_ff @(posedge clk) begin
      if (w_fire && wptr == '0) s0 <= w_data;
      if (w_fire && wptr != '0) s1 <= w_data;
    end
    assign r_valid = count != '0;
    assign r_data  = rptr == '0 ? s0 : s1;
  end else begin : g_ram
    // RAM, read synchronously: the read port registers the head, addressed one cycle
    // ahead (the next head when this cycle reads), so a beat is readable two cycles after
    // its write. `shown` counts the beats written two or more cycles ago, not yet read.
    logic [WIDTH-1:0] mem[DEPTH];
    logic [CW-1:0] shown;
    logic w_fire_q;
    logic [WIDTH-1:0] head;
    always_ff @(posedge clk) begin
      if (rst) begin
        shown <= '0;
        w_fire_q <= 1'b0;
      end else begin
        w_fire_q <= w_fire;
        shown <= shown + CW'(w_fire_q) - CW'(r_fire);
      end
    end
    always_ff @(posedge clk) begin
      if (w_fire) mem[wptr] <= w_data;
      head <= mem[r_fire ? next(rptr) : rptr];
    end
    assign r_valid = shown != '0;
    assign r_data  = head;
  end
endmodule
)sv"},
      {"inrarch_steps.sv", R"sv(// The step counter of a kernel whose every step has delay 1 (source, sink, copy): `active`
// while steps are left, and never in cycle 0 (a first step comes one cycle after the start).
module inrarch_steps #(
    parameter int STEPS = 1
) (
    input  logic clk,
    input  logic rst,
    input  logic fire,   // a step fires this cycle
    output logic active  // a step may fire this cycle
);
  localparam int NW = $clog2(STEPS + 1);
  logic started;
  logic [NW-1:0] n;
  assign active = started && n != NW'(STEPS);
  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      n <= '0;
    end else begin
      started <= 1'b1;
      if (fire) n <= n + 1'b1;
    end
  end
endmodule
)sv"},
      {"inrarch_source.sv", R"sv(// A source: the top's input port writing its stream, one beat a step (schedule: II = 1, the
// first step one cycle after the start). The port is an AXI4-Stream slave: ready does not
// wait for valid, a beat moves when both are high. It takes BEATS beats and then no more.
module inrarch_source #(
    parameter int WIDTH = 33,
    parameter int BEATS = 1
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [WIDTH-1:0] port_data,
    input  logic             port_valid,
    output logic             port_ready,
    output logic [WIDTH-1:0] out_data,
    output logic             out_valid,
    input  logic             out_ready
);
  logic active;
  inrarch_steps #(.STEPS(BEATS)) u_steps (.clk, .rst, .fire(out_valid), .active);
  assign port_ready = active && out_ready;
  assign out_valid  = port_valid && port_ready;
  assign out_data   = port_data;
endmodule
)sv"},
      {"inrarch_sink.sv", R"sv(// A sink: the top's output port reading its stream, one beat a step (schedule: II = 1).
// The port is an AXI4-Stream master: valid does not wait for ready.
module inrarch_sink #(
    parameter int WIDTH = 33,
    parameter int BEATS = 1
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [WIDTH-1:0] in_data,
    input  logic             in_valid,
    output logic             in_ready,
    output logic [WIDTH-1:0] port_data,
    output logic             port_valid,
    input  logic             port_ready
);
  logic active;
  inrarch_steps #(.STEPS(BEATS)) u_steps (.clk, .rst, .fire(in_ready), .active);
  assign port_valid = active && in_valid;
  assign in_ready   = port_valid && port_ready;
  assign port_data  = in_data;
endmodule
)sv"},
      {"inrarch_copy.sv", R"sv(// A copy (fan-out): step i reads beat i and writes it to every output in the same cycle
// (schedule: II = 1, L = 0). The step fires as a whole: only when the input has a beat and
// every output has room; otherwise no handshake of it is raised.
module inrarch_copy #(
    parameter int WIDTH = 33,
    parameter int BEATS = 1,
    parameter int OUTS  = 2
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [WIDTH-1:0] in_data,
    input  logic             in_valid,
    output logic             in_ready,
    output logic [WIDTH-1:0] out_data,
    output logic [ OUTS-1:0] out_valid,
    input  logic [ OUTS-1:0] out_ready
);
  logic active, fire;
  inrarch_steps #(.STEPS(BEATS)) u_steps (.clk, .rst, .fire, .active);
  assign fire      = active && in_valid && &out_ready;
  assign in_ready  = fire;
  assign out_valid = {OUTS{fire}};
  assign out_data  = in_data;
endmodule
)sv"},
      {"inrarch_ew_fsm.sv", R"sv(// The step sequence of an elementwise kernel (schedule: II = 1, L = 1): step i (0..BEATS)
// reads beat i of every streamed operand when i < BEATS and writes result beat i - 1 when
// i >= 1. A step fires as a whole, in the first cycle (at least one after the previous
// step or the start) where all its reads find a beat and its write finds room. A step that
// reads also takes the lanes' results into the result register (the pipeline of depth 1)
// with the sticky overflow bit: the OR of every operand beat's flag and every saturation
// so far, which each written beat carries (the HLS library's beat::ovf).
module inrarch_ew_fsm #(
    parameter int NIN   = 2,
    parameter int BEATS = 1,
    parameter int DW    = 32  // the beat's element bits
) (
    input  logic           clk,
    input  logic           rst,
    input  logic [NIN-1:0] in_valid,
    output logic [NIN-1:0] in_ready,
    input  logic [ DW-1:0] lanes,      // this step's results
    input  logic           lanes_ovf,  // a lane saturated, or an operand beat is flagged
    output logic [   DW:0] out_data,
    output logic           out_valid,
    input  logic           out_ready
);
  localparam int NW = $clog2(BEATS + 2);
  logic started;
  logic [NW-1:0] i;  // the next step; BEATS + 1 when done
  logic reads, writes, fire, sticky;
  assign reads     = i < NW'(BEATS);
  assign writes    = i != '0 && i <= NW'(BEATS);
  assign fire      = started && (reads || writes) && (!reads || &in_valid) && (!writes || out_ready);
  assign in_ready  = {NIN{fire && reads}};
  assign out_valid = fire && writes;
  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      i <= '0;
      sticky <= 1'b0;
    end else begin
      started <= 1'b1;
      if (fire) i <= i + 1'b1;
      if (fire && reads) sticky <= sticky || lanes_ovf;
    end
  end
  always_ff @(posedge clk) if (fire && reads) out_data <= {sticky || lanes_ovf, lanes};
endmodule
)sv"},
  };
}

}  // namespace inrarch::rtl::detail
