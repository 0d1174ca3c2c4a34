// The end of the tanh lane (inrarch_lane_explog, stages 20-54): from e = 2^t (t <= 0, 32
// fraction bits, e <= 1.0; the register of stage 19) to s = ±q in T, the register of stage
// 54, with q = floor((1 - e) · 2^64 / (1 + e)) < 2^32 (2^32 when e = 0), scaled to T and
// negated for x < 0.
//   20 1 - e (below 1.0; 0 for e = 1), the divisor 1 + e, e = 0
//   21-52 the quotient, non-restoring, a bit a stage: the partial remainder P in [-d, d)
//      becomes 2P - d where P >= 0 and 2P + d where not (modulo 2^35, which holds it), one
//      chain with no select after it; the quotient bit is P's new sign, the restoring
//      one's (the dividend's low 32 bits being zeros, nothing else enters)
//   53 q in T (or 2^32 for e = 0), its bits inverted for x < 0   54 the carry in
// What only passes on is in registers marked `keep`, as in the divider.
module inrarch_explog_tanh_end #(
    parameter int W = 32,
    parameter int F = 22
) (
    input  logic         clk,
    input  logic         en,
    input  logic [33:0]  e,
    input  logic [W-1:0] x,  // the register of stage 3: its sign
    output logic [W-1:0] s
);
  localparam int NQ = 32, PB = 35;
  localparam int TANH_SH = 32 - F;
  logic xneg52, e_zero52;
  inrarch_delay #(.WIDTH(1), .N(49), .LAST_FF(1'b1)) u_neg (.clk, .en, .x(x[W-1]), .y(xneg52));
  /* verilator lint_off UNUSEDSIGNAL */
  logic [W-2:0] unused;  // x's magnitude bits: the lane reads them
  assign unused = x[W-2:0];
  /* verilator lint_on UNUSEDSIGNAL */

  // 20: P = 1 - e, d = 1 + e (e <= 2^32: a 2-bit add on the top).
  logic [33:0] den[NQ+1];  // the divisor entering stage k
  logic signed [PB-1:0] p[NQ+1];
  logic e_zero20;
  logic [31:0] onem;
  assign onem = -e[31:0];
  always_ff @(posedge clk) if (en) p[0] <= {3'b000, onem};
  (* keep *) always_ff @(posedge clk) if (en) den[0] <= {e[33:32] + 2'd1, e[31:0]};
  always_ff @(posedge clk) if (en) e_zero20 <= e == '0;
  inrarch_delay #(.WIDTH(1), .N(32), .LAST_FF(1'b1)) u_zero (.clk, .en, .x(e_zero20), .y(e_zero52));

  // 21-52: a quotient bit a stage.
  for (genvar k = 0; k < NQ; k = k + 1) begin : g_stage
    logic [PB-1:0] s2;
    logic pos;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [PB:0] t;  // bit 0: pos - 1, its borrow taken
    /* verilator lint_on UNUSEDSIGNAL */
    assign s2 = {p[k][PB-2:0], 1'b0};
    assign pos = !p[k][PB-1];
    // 2P - d where pos, 2P + d where not, as ({2P, pos} - {d ^ ~pos, 1}) >> 1 (the divider's
    // chain, inrarch_lane_div).
    assign t = {s2, pos} - {PB'(den[k]) ^ {PB{!pos}}, 1'b1};
    always_ff @(posedge clk) if (en) p[k+1] <= $signed(t[PB:1]);
    (* keep *) always_ff @(posedge clk) if (en) den[k+1] <= den[k];
    /* verilator lint_off UNUSEDSIGNAL */
    logic [NQ-1:0] qr;  // the quotient bits of the stages before k (the signs of p[1 … k])
    /* verilator lint_on UNUSEDSIGNAL */
    if (k == 0) begin : g_first
      assign qr = '0;
    end else begin : g_next
      (* keep *) always_ff @(posedge clk) if (en) qr <= {g_stage[k-1].qr[NQ-2:0], !p[k][PB-1]};
    end
  end
  /* verilator lint_off UNUSEDSIGNAL */
  logic [33:0] den_spent;
  assign den_spent = den[NQ];
  /* verilator lint_on UNUSEDSIGNAL */

  // 53-54: q in T, negated for x < 0 as (q ^ n) + n.
  logic [NQ:0] qv;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NQ:0] qs;  // its low W bits are T's
  /* verilator lint_on UNUSEDSIGNAL */
  logic [W-1:0] mx;
  logic xneg53;
  assign qv = e_zero52 ? {1'b1, {NQ{1'b0}}} : {1'b0, g_stage[NQ-1].qr[NQ-2:0], !p[NQ][PB-1]};
  assign qs = qv >> TANH_SH;
  always_ff @(posedge clk) if (en) mx <= W'(qs) ^ {W{xneg52}};
  (* keep *) always_ff @(posedge clk) if (en) xneg53 <= xneg52;
  always_ff @(posedge clk) if (en) s <= mx + W'(xneg53);
endmodule
