// One stream of the design: a FIFO of DEPTH beats of WIDTH bits with valid/ready ports
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
  localparam int LUTRAM_DEPTH = 64;  // dataflow::kLutRamFifoDepth
  localparam logic [AW-1:0] LAST = AW'(DEPTH - 1);

  logic [CW-1:0] count;  // beats held (written, not yet read)
  logic full;            // count = DEPTH, kept as a register so that w_ready is one
  logic [AW-1:0] wptr, rptr;
  logic w_fire, r_fire;
  assign w_fire = w_valid && w_ready;
  assign r_fire = r_valid && r_ready;
  assign w_ready = !full;

  function automatic logic [AW-1:0] next(input logic [AW-1:0] p);
    next = p == LAST ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      count <= '0;
      full  <= 1'b0;
      wptr  <= '0;
      rptr  <= '0;
    end else begin
      if (w_fire) wptr <= next(wptr);
      if (r_fire) rptr <= next(rptr);
      count <= count + CW'(w_fire) - CW'(r_fire);
      if (w_fire && !r_fire) full <= count == CW'(DEPTH - 1);
      else if (r_fire && !w_fire) full <= 1'b0;
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
    // The next head's address is a register too (rptr's successor), so the read address is
    // one multiplexer on r_fire, not the successor's compare and increment.
    logic [CW-1:0] shown;
    logic any;  // shown != 0, kept as a register so that r_valid is one
    logic w_fire_q;
    logic [WIDTH-1:0] head;
    logic [AW-1:0] rnext;
    always_ff @(posedge clk) begin
      if (rst) begin
        shown <= '0;
        any <= 1'b0;
        w_fire_q <= 1'b0;
        rnext <= next('0);
      end else begin
        w_fire_q <= w_fire;
        shown <= shown + CW'(w_fire_q) - CW'(r_fire);
        if (w_fire_q && !r_fire) any <= 1'b1;
        else if (r_fire && !w_fire_q) any <= shown != CW'(1);
        if (r_fire) rnext <= next(rnext);
      end
    end
    logic [AW-1:0] raddr;
    assign raddr = r_fire ? rnext : rptr;
    // Up to LUTRAM_DEPTH beats in LUT RAM (RAM32M16 up to 32, RAM64M8 up to 64: a LUT a 14
    // or 7 bits), deeper in block RAM, as the resource model prices them (docs/resources.md
    // §2): left to Yosys, depths 65-128 became LUT RAM banks and their multiplexers.
    if (DEPTH <= LUTRAM_DEPTH) begin : g_lutram
      (* ram_style = "distributed" *) logic [WIDTH-1:0] mem[DEPTH];
      always_ff @(posedge clk) begin
        if (w_fire) mem[wptr] <= w_data;
        head <= mem[raddr];
      end
    end else begin : g_bram
      (* ram_style = "block" *) logic [WIDTH-1:0] mem[DEPTH];
      always_ff @(posedge clk) begin
        if (w_fire) mem[wptr] <= w_data;
        head <= mem[raddr];
      end
    end
    assign r_valid = any;
    assign r_data  = head;
  end
endmodule
