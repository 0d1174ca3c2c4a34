// The table argument of the exp and tanh lanes (inrarch_lane_explog, stages 4-9): t = m ·
// log2e · 2^-SH floored, 64 bits (k = t >> 32, the table index and interpolation bits in
// t's low 32), m = x, or -|x| for tanh (which fits for every x). log2e =
// 0xB8AA3B295C17F0BC · 2^-63. The product is exact modulo 2^(SH + 64), all t needs.
//    4 m, one chain   5 m · log2e's 27 x 18 tiles (K in 26-bit chunks, m in two 17-bit
//      halves: 6 DSPs, 3 at W <= 18)   6 two carry-save levels over the tiles   7 the third:
//      two vectors   8 their sum: the carry out of the bits below t, from two halves (the
//      upper one for either carry in), and t's halves for either carry into them   9 t
// t is the register of stage 9 (six stages after x).
module inrarch_explog_t #(
    parameter int W    = 32,
    parameter int SH   = 53,
    parameter bit TANH = 1'b0
) (
    input  logic         clk,
    input  logic         en,
    input  logic [W-1:0] x,
    output logic [63:0]  t
);
  localparam logic [63:0] K = 64'hB8AA3B295C17F0BC;
  localparam int PW = SH + 64;

  // 4: m = x, or -x for tanh's x >= 0 ((x ^ n) + n, one chain).
  logic [W-1:0] m;
  logic neg;
  assign neg = TANH && !x[W-1];
  always_ff @(posedge clk) if (en) m <= (x ^ {W{neg}}) + W'(neg);

  // 5-7: m · log2e modulo 2^PW as two carry-save vectors: the tiles, then three carry-save
  // levels over two stages.
  logic [PW-1:0] s4, c4;
  inrarch_mul_const_csa #(.W(W), .PW(PW), .K(K)) u_prod (.clk, .en, .x(m), .s(s4), .c(c4));

  // 8: the carry into bit SH from two halves of the bits below (the upper for either carry
  // in), t's low half for either carry in (with its carry out), its high half for either.
  // (x + y + 1 as {x, 1} + {y, 1}: its own carry chain, where Yosys would add 1 to x + y.)
  localparam int HA = SH / 2, HB = SH - HA;
  logic ca, cb0, cb1;
  logic [32:0] lo0, lo1;
  logic [31:0] hi0, hi1;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [33:0] lo1w;  // the low half plus one in bits 33 … 1
  logic [32:0] hi1w;  // the high half plus one in bits 32 … 1
  logic [HA:0] sa;
  logic [HB:0] sb0;
  logic [HB+1:0] sb1;
  /* verilator lint_on UNUSEDSIGNAL */
  assign sa   = {1'b0, s4[HA-1:0]} + {1'b0, c4[HA-1:0]};
  assign sb0  = {1'b0, s4[SH-1:HA]} + {1'b0, c4[SH-1:HA]};
  assign sb1  = {1'b0, s4[SH-1:HA], 1'b1} + {1'b0, c4[SH-1:HA], 1'b1};
  assign lo1w = {1'b0, s4[SH+31:SH], 1'b1} + {1'b0, c4[SH+31:SH], 1'b1};
  assign hi1w = {s4[PW-1:SH+32], 1'b1} + {c4[PW-1:SH+32], 1'b1};
  always_ff @(posedge clk)
    if (en) begin
      ca  <= sa[HA];
      cb0 <= sb0[HB];
      cb1 <= sb1[HB+1];
      lo0 <= {1'b0, s4[SH+31:SH]} + {1'b0, c4[SH+31:SH]};
      lo1 <= lo1w[33:1];
      hi0 <= s4[PW-1:SH+32] + c4[PW-1:SH+32];
      hi1 <= hi1w[32:1];
    end

  // 9: t, the halves selected by the carries.
  logic cin;
  logic [32:0] lo;
  assign cin = ca ? cb1 : cb0;
  assign lo  = cin ? lo1 : lo0;
  always_ff @(posedge clk) if (en) t <= {lo[32] ? hi1 : hi0, lo[31:0]};
endmodule
