// The table argument of the log lane (inrarch_lane_explog, stages 4-9): the leading zeros L
// of the operand's magnitude bits v = x[W-2:0], placed at the top of 32 bits (the leading
// one p = W - 2 - L), and arg, the 32 bits below the leading one. For x <= 0 arg is of no
// use (the lane gives the least value) but defined.
//    4 each nibble of v: nonzero, its leading zeros   5 each half's   6 L (lz)
//    7-9 v shifted left by L: by 16, by L's multiples of 4, by the rest
// lz is the register of stage 6, arg of stage 9 (three and six stages after x).
module inrarch_explog_norm #(
    parameter int W = 32
) (
    input  logic         clk,
    input  logic         en,
    input  logic [W-1:0] x,
    output logic [4:0]   lz,
    output logic [31:0]  arg
);
  logic [31:0] v, v4, v5, v6, v7, v8;
  assign v = {x[W-2:0], {(33 - W) {1'b0}}};
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;  // x's sign: the lane reads it
  assign unused = x[W-1];
  /* verilator lint_on UNUSEDSIGNAL */

  // 4: each nibble's nonzero flag and leading zeros (0 … 3).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [7:0] nz4;  // the lowest nibble's: when every other is zero, its own count stands
  /* verilator lint_on UNUSEDSIGNAL */
  logic [1:0] lzn4[8];
  for (genvar i = 0; i < 8; i = i + 1) begin : g_nibble
    logic [3:0] n;
    assign n = v[4*i+:4];
    always_ff @(posedge clk)
      if (en) begin
        nz4[i] <= n != 4'd0;
        lzn4[i] <= n[3] ? 2'd0 : n[2] ? 2'd1 : n[1] ? 2'd2 : 2'd3;
      end
  end
  (* keep *) always_ff @(posedge clk) if (en) v4 <= v;

  // 5: each half's (nibbles 7 … 4 and 3 … 0) nonzero flag and leading zeros (0 … 15).
  logic nz_hi5;  // the upper half: the lower one's leading zeros count when it is zero
  logic [3:0] lzh5[2];
  always_ff @(posedge clk) if (en) nz_hi5 <= nz4[7:4] != 4'd0;
  for (genvar h = 0; h < 2; h = h + 1) begin : g_half
    always_ff @(posedge clk)
      if (en) begin
        lzh5[h] <= nz4[4*h+3] ? {2'd0, lzn4[4*h+3]} : nz4[4*h+2] ? {2'd1, lzn4[4*h+2]}
                 : nz4[4*h+1] ? {2'd2, lzn4[4*h+1]} : {2'd3, lzn4[4*h]};
      end
  end
  (* keep *) always_ff @(posedge clk) if (en) v5 <= v4;

  // 6: L.
  always_ff @(posedge clk) if (en) lz <= nz_hi5 ? {1'b0, lzh5[1]} : {1'b1, lzh5[0]};
  (* keep *) always_ff @(posedge clk) if (en) v6 <= v5;

  // 7-9: the shift, two or three bits of L a stage.
  logic [3:0] lz7;
  logic [1:0] lz8;
  always_ff @(posedge clk) if (en) v7 <= lz[4] ? v6 << 16 : v6;
  (* keep *) always_ff @(posedge clk) if (en) lz7 <= lz[3:0];
  always_ff @(posedge clk) if (en) v8 <= v7 << {lz7[3:2], 2'b00};
  (* keep *) always_ff @(posedge clk) if (en) lz8 <= lz7[1:0];
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] vs;  // its top bit is the leading one
  /* verilator lint_on UNUSEDSIGNAL */
  assign vs = v8 << lz8;
  always_ff @(posedge clk) if (en) arg <= {vs[30:0], 1'b0};
endmodule
