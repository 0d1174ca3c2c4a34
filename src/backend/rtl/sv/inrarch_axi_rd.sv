// The memory-mapped kernel's input mover: an AXI4 master read engine that reads WORDS
// words of DW bits from `addr` (aligned to DW / 8 bytes) in INCR bursts and hands them on
// in order. A burst is at most MAX_BURST beats and never crosses a BOUNDARY-byte line
// (AXI4's 4 KB rule; a parameter only so a test can break it). A burst is requested only
// when the word FIFO has room for all of it, so R is never held back and at most
// OUTSTANDING bursts are in flight. `err` is sticky: an error response, or RLAST where the
// burst's length does not put it.
module inrarch_axi_rd #(
    parameter int DW = 64,
    parameter int WORDS = 1,
    parameter int MAX_BURST = 64,
    parameter int OUTSTANDING = 4,  // a power of two
    parameter int FIFO = 256,
    parameter int BOUNDARY = 4096
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          go,       // pulse: start a transfer from addr
    input  logic [63:0]   addr,
    output logic          done,     // every word has arrived
    output logic          err,
    output logic [63:0]   araddr,
    output logic [7:0]    arlen,
    output logic [2:0]    arsize,
    output logic [1:0]    arburst,
    output logic          arvalid,
    input  logic          arready,
    input  logic [DW-1:0] rdata,
    input  logic [1:0]    rresp,
    input  logic          rlast,
    input  logic          rvalid,
    output logic          rready,
    output logic [DW-1:0] out_data,
    output logic          out_valid,
    input  logic          out_ready
);
  localparam int BYTES = DW / 8;
  localparam int CW = $clog2(WORDS + 1) + 1;
  localparam int FW = $clog2(FIFO + 1) + 1;
  localparam int QW = $clog2(OUTSTANDING + 1);
  localparam int PW = OUTSTANDING > 1 ? $clog2(OUTSTANDING) : 1;

  logic [63:0] next_addr;
  logic [CW-1:0] to_request, to_receive;
  logic [FW-1:0] credits;  // FIFO slots not yet promised to a requested burst
  logic [QW-1:0] in_flight;
  logic [8:0] len, beat;   // the next burst's beats; the beat of the burst arriving
  logic [8:0] lens[OUTSTANDING];  // requested bursts' lengths, oldest first
  logic [PW-1:0] head, tail;
  logic w_ready, ar_fire, r_fire;

  // The next burst: as long as allowed, cut at the boundary line.
  inrarch_axi_burst #(.DW(DW), .CW(CW), .MAX_BURST(MAX_BURST), .BOUNDARY(BOUNDARY)) u_burst (
      .addr(next_addr), .left(to_request), .len);

  assign arsize = 3'($clog2(BYTES));
  assign arburst = 2'b01;
  assign araddr = next_addr;
  assign arlen = 8'(len - 9'd1);
  assign arvalid = to_request != '0 && in_flight != QW'(OUTSTANDING) && credits >= FW'(len);
  assign ar_fire = arvalid && arready;
  assign rready = w_ready;
  assign r_fire = rvalid && rready;
  assign done = to_request == '0 && to_receive == '0;

  function automatic logic [PW-1:0] wrap(input logic [PW-1:0] p);
    wrap = p == PW'(OUTSTANDING - 1) ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      {to_request, to_receive, in_flight, head, tail, beat, err} <= '0;
      credits <= FW'(FIFO);
      next_addr <= '0;
    end else begin
      if (go) begin
        next_addr <= addr;
        to_request <= CW'(WORDS);
        to_receive <= CW'(WORDS);
        err <= 1'b0;
      end
      if (ar_fire) begin
        next_addr <= next_addr + 64'(len) * BYTES;
        to_request <= to_request - CW'(len);
        lens[tail] <= len;
        tail <= wrap(tail);
      end
      credits <= credits - (ar_fire ? FW'(len) : '0) + FW'(out_valid && out_ready);
      in_flight <= in_flight + QW'(ar_fire) - QW'(r_fire && beat + 1 == lens[head]);
      if (r_fire) begin
        to_receive <= to_receive - 1'b1;
        if (rresp != 2'b00 || rlast != (beat + 1 == lens[head])) err <= 1'b1;
        if (beat + 1 == lens[head]) begin
          beat <= '0;
          head <= wrap(head);
        end else beat <= beat + 1'b1;
      end
    end
  end

  inrarch_fifo #(.WIDTH(DW), .DEPTH(FIFO)) u_words (
      .clk, .rst, .w_data(rdata), .w_valid(rvalid), .w_ready, .r_data(out_data), .r_valid(out_valid),
      .r_ready(out_ready));
endmodule
