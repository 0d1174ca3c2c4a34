// An elementwise binary kernel (add, sub, mul) with one streamed operand and a constant
// one, held in a ROM (ROM_FILE, P words at the constant's exponent; a splat is one word):
// element e of beat i is word (i*B + e) mod P, the HLS library's from_rom (P is 1 or a
// multiple of B; a ROM of the whole operand has P = its size). CSLOT says which operand is
// the constant (0: a, 1: b). Otherwise as inrarch_ew2.
module inrarch_ew2r #(
    parameter int OP    = 0,
    parameter int CSLOT = 1,
    parameter int B     = 1,
    parameter int W     = 32,
    parameter int F     = 22,
    parameter int FA    = 36,
    parameter int EA    = 0,
    parameter int EB    = 0,
    parameter int EO    = 0,
    parameter int BEATS = 1,
    parameter int P     = 1,
    parameter int D     = 5,  // the lanes' pipeline depth (src/dataflow/elementwise.def)
    parameter int C     = 1,  // cycles a beat (the process's ew_fold): B / C lanes
    parameter ROM_FILE  = "rom.hex"
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [B*W:0] in_data,
    input  logic         in_valid,
    output logic         in_ready,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  localparam int PW = P > 1 ? $clog2(P) : 1;
  // mem2reg: the words become constants behind a LUT multiplexer on the address. As a
  // memory, Yosys merges the lanes' operand register into the read port and moves the
  // address's next-value logic in front of the table, a path of the adder, the table and a
  // LUT (270 MHz at P = 32, against 335).
  (* mem2reg *) logic [W-1:0] rom[P];
  initial $readmemh(ROM_FILE, rom);
  localparam int G = B / C, KW = C > 1 ? $clog2(C) : 1;
  // Lane e's ROM word, a register per lane so that the read starts at flip-flops: e plus
  // base, a multiple of G below P (P is 1 or a multiple of B), which wraps to 0 exactly when
  // base = P - G (an equality, not a compare of a sum). It moves on with every chunk fed.
  logic [PW-1:0] addr[G];
  logic wrap, feed;
  assign wrap = P > G ? addr[0] == PW'(P - G) : 1'b1;
  for (genvar e = 0; e < G; e = e + 1) begin : g_addr
    always_ff @(posedge clk) begin
      if (rst) addr[e] <= PW'(e);
      else if (feed && P > 1) addr[e] <= wrap ? PW'(e) : addr[e] + PW'(G);
    end
  end
  logic [G*W-1:0] y, xs;
  logic [G-1:0] sat;
  logic en;  // the lanes' stage enable: their D - 1 register stages advance on it
  logic [KW-1:0] chunk;
  inrarch_ew_fsm #(.NIN(1), .BEATS(BEATS), .DW(B * W), .D(D), .C(C)) u_fsm (
      .clk, .rst, .in_valid, .in_ready, .in_ovf(in_data[B*W]), .en, .feed, .chunk, .lanes(y), .lanes_ovf(|sat),
      .out_data, .out_valid, .out_ready);
  inrarch_ew_chunk #(.DW(B * W), .C(C)) u_in (.clk, .load(in_ready), .chunk, .data(in_data[B*W-1:0]), .y(xs));
  // The lane code of the divider (the OP column of src/dataflow/elementwise.def; a test checks it).
  localparam int OP_DIV = 11;
  for (genvar e = 0; e < G; e = e + 1) begin : g_lane
    logic [W-1:0] x, c;
    assign x = xs[e*W+:W];
    assign c = rom[P > 1 ? addr[e] : '0];
    if (OP == OP_DIV) begin : g_div
      inrarch_lane_div #(.W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(CSLOT == 0 ? c : x), .b(CSLOT == 0 ? x : c), .y(y[e*W+:W]), .ovf(sat[e]));
    end else begin : g_plain
      inrarch_lane2 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(CSLOT == 0 ? c : x), .b(CSLOT == 0 ? x : c), .y(y[e*W+:W]), .ovf(sat[e]));
    end
  end
endmodule
