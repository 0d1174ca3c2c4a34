// The memory-mapped kernel's output mover: an AXI4 master write engine that writes the
// WORDS words handed to it, in order, from `addr` (aligned to DW / 8 bytes) in INCR bursts.
// A burst is at most MAX_BURST beats, never crosses a BOUNDARY-byte line (AXI4's 4 KB
// rule; a parameter only so a test can break it), and is requested only when all its words
// are in the FIFO, so W never waits once AW is sent. The last word's strobe is LAST_STRB (a
// buffer need not end on a word). At most OUTSTANDING bursts await their response. `err`
// is sticky: an error response.
module inrarch_axi_wr #(
    parameter int DW = 64,
    parameter int WORDS = 1,
    parameter logic [DW/8-1:0] LAST_STRB = '1,
    parameter int MAX_BURST = 64,
    parameter int OUTSTANDING = 4,  // a power of two
    parameter int FIFO = 256,
    parameter int BOUNDARY = 4096
) (
    input  logic            clk,
    input  logic            rst,
    input  logic            go,       // pulse: start a transfer to addr
    input  logic [63:0]     addr,
    output logic            done,     // every burst's response has come
    output logic            err,
    input  logic [DW-1:0]   in_data,
    input  logic            in_valid,
    output logic            in_ready,
    output logic [63:0]     awaddr,
    output logic [7:0]      awlen,
    output logic [2:0]      awsize,
    output logic [1:0]      awburst,
    output logic            awvalid,
    input  logic            awready,
    output logic [DW-1:0]   wdata,
    output logic [DW/8-1:0] wstrb,
    output logic            wlast,
    output logic            wvalid,
    input  logic            wready,
    input  logic [1:0]      bresp,
    input  logic            bvalid,
    output logic            bready
);
  localparam int BYTES = DW / 8;
  localparam int CW = $clog2(WORDS + 1) + 1;
  localparam int QW = $clog2(OUTSTANDING + 1);
  localparam int PW = OUTSTANDING > 1 ? $clog2(OUTSTANDING) : 1;

  logic [63:0] next_addr;
  logic [CW-1:0] to_issue, avail, sent;  // words without a burst; in the FIFO without one; written
  logic [QW-1:0] in_flight;              // bursts sent, response not yet in
  logic [8:0] len, beat;
  logic [8:0] lens[OUTSTANDING];         // bursts whose words are not all sent, oldest first
  logic [PW-1:0] head, tail;
  logic [QW-1:0] queued;
  logic f_valid, aw_fire, w_fire, b_fire, push;

  inrarch_axi_burst #(.DW(DW), .CW(CW), .MAX_BURST(MAX_BURST), .BOUNDARY(BOUNDARY)) u_burst (
      .addr(next_addr), .left(to_issue), .len);

  assign awaddr = next_addr;
  assign awlen = 8'(len - 9'd1);
  assign awsize = 3'($clog2(BYTES));
  assign awburst = 2'b01;
  assign awvalid = to_issue != '0 && avail >= CW'(len) && in_flight != QW'(OUTSTANDING);
  assign aw_fire = awvalid && awready;
  assign wvalid = queued != '0 && f_valid;
  assign wlast = beat + 1 == lens[head];
  assign wstrb = sent == CW'(WORDS - 1) ? LAST_STRB : '1;
  assign w_fire = wvalid && wready;
  assign bready = 1'b1;
  assign b_fire = bvalid && bready;
  assign push = in_valid && in_ready;
  assign done = to_issue == '0 && in_flight == '0 && queued == '0;

  function automatic logic [PW-1:0] wrap(input logic [PW-1:0] p);
    wrap = p == PW'(OUTSTANDING - 1) ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      {to_issue, avail, sent, in_flight, head, tail, queued, beat, err} <= '0;
      next_addr <= '0;
    end else begin
      if (go) begin
        next_addr <= addr;
        to_issue <= CW'(WORDS);
        {avail, sent, err} <= '0;
      end
      avail <= avail + CW'(push) - (aw_fire ? CW'(len) : '0);
      if (aw_fire) begin
        next_addr <= next_addr + 64'(len) * BYTES;
        to_issue <= to_issue - CW'(len);
        lens[tail] <= len;
        tail <= wrap(tail);
      end
      queued <= queued + QW'(aw_fire) - QW'(w_fire && wlast);
      in_flight <= in_flight + QW'(aw_fire) - QW'(b_fire);
      if (w_fire) begin
        sent <= sent + 1'b1;
        beat <= wlast ? '0 : beat + 1'b1;
        if (wlast) head <= wrap(head);
      end
      if (b_fire && bresp != 2'b00) err <= 1'b1;
    end
  end

  inrarch_fifo #(.WIDTH(DW), .DEPTH(FIFO)) u_words (
      .clk, .rst, .w_data(in_data), .w_valid(in_valid), .w_ready(in_ready), .r_data(wdata), .r_valid(f_valid),
      .r_ready(wvalid && wready));
endmodule
