// x · K modulo 2^PW as two carry-save vectors (s + c = x · K mod 2^PW), x a W-bit signed
// operand and K a 64-bit unsigned constant, three register stages on `en` after x: the
// DSP48E2 tiles x_i · K_j, two carry-save levels over them, the third. The tiles, as few as
// the 27 x 18 multiplier allows (dataflow::dsp_for_product(W, 64)): W <= 18, x on the 18-bit
// port and K in 26-bit chunks on the 27-bit one (3 DSPs); W <= 27, x on the 27-bit port and
// K in 17-bit chunks (4); wider, x in two pieces, its low 17 bits unsigned, times K's 26-bit
// chunks (6). The sine lane's phase product and the exp and tanh lanes' table argument
// (docs/rtl.md "Pipelined lanes").
module inrarch_mul_const_csa #(
    parameter int W = 32,
    parameter int PW = 88,
    parameter logic [63:0] K = 64'd1
) (
    input  logic          clk,
    input  logic          en,
    input  logic [W-1:0]  x,
    output logic [PW-1:0] s,
    output logic [PW-1:0] c
);
  // The tiles, aligned into PW-bit terms (six at most; the others zero).
  logic [PW-1:0] term[6];
  if (W <= 27 && W > 18) begin : g_wide_port
    for (genvar j = 0; j < 4; j = j + 1) begin : g_k
      localparam int KB = j < 3 ? 17 : 13;
      localparam logic [16:0] KJ = 17'(K >> (17 * j));
      logic signed [W+17:0] t;
      always_ff @(posedge clk) if (en) t <= $signed(x) * $signed({1'b0, KJ[KB-1:0]});
      assign term[j] = PW'(t) << (17 * j);
    end
    assign term[4] = '0;
    assign term[5] = '0;
  end else begin : g_narrow_port
    for (genvar j = 0; j < 3; j = j + 1) begin : g_k
      localparam int KB = j < 2 ? 26 : 12;
      localparam logic [25:0] KJ = 26'(K >> (26 * j));
      if (W <= 18) begin : g_one
        logic signed [W+26:0] t;
        always_ff @(posedge clk) if (en) t <= $signed(x) * $signed({1'b0, KJ[KB-1:0]});
        assign term[j] = PW'(t) << (26 * j);
        assign term[j+3] = '0;
      end else begin : g_two
        logic [42:0] t_lo;             // x[16:0] · K_j, unsigned
        logic signed [W+9:0] t_hi;     // x[W-1:17] · K_j
        always_ff @(posedge clk)
          if (en) begin
            t_lo <= 43'({1'b0, x[16:0]} * {1'b0, KJ[KB-1:0]});
            t_hi <= $signed(x[W-1:17]) * $signed({1'b0, KJ[KB-1:0]});
          end
        assign term[j] = PW'(t_lo) << (26 * j);
        assign term[j+3] = PW'(t_hi) << (26 * j + 17);
      end
    end
  end

  // Carry-save levels: 6 terms to 4, 4 to 3 (registered), 3 to 2 (registered).
  function automatic logic [2*PW-1:0] csa(input logic [PW-1:0] t0, input logic [PW-1:0] t1, input logic [PW-1:0] t2);
    csa = {t0 ^ t1 ^ t2, ((t0 & t1) | (t0 & t2) | (t1 & t2)) << 1};
  endfunction
  logic [PW-1:0] s1, c1, s2, c2, s3, c3, v3;
  assign {s1, c1} = csa(term[0], term[1], term[2]);
  assign {s2, c2} = csa(term[3], term[4], term[5]);
  always_ff @(posedge clk) if (en) {s3, c3, v3} <= {csa(s1, c1, s2), c2};
  // (Kept: the product's low bits pass through the levels alone, and Yosys would make a
  // shift-register LUT of such a chain, whose output, feeding the sum's chains, comes 1.2
  // ns later than a flip-flop's.)
  (* keep *) always_ff @(posedge clk) if (en) {s, c} <= csa(s3, c3, v3);
endmodule
