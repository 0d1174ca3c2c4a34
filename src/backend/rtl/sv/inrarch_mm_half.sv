// One 32-bit half of inrarch_mm_engine's 64-bit sums (docs/rtl.md, "The mm engine"): the
// lanes' prefix tree, the window sums, the sum before the open element, the element sums and
// the accumulator. Every adder is HW bits with a carry in and a carry out, so no carry chain
// is longer than HW + 2 bits. The low half (LOW) adds constant carries (1 where it
// subtracts: a - b = a + ~b + 1); the high half runs one tick behind on the high halves and
// takes the low half's registered carries. Stages, each on `tick`, from the products `m`:
//   LV tree levels (Sklansky: level k adds the last sum of the lower half of every
//   2^(k+1)-lane block into its upper half), a register after every level;
//   S select stages: the window sums v_u = P_u - P_(u-K) (lanes u >= K that can end an
//   element; P_u for u < K) in the first, the sum before the cycle's last element end
//   (`lastb`, one-hot) through inrarch_select_tree, P_(L-1) and v carried beside it;
//   the difference d = P_(L-1) - P_lastb (the open element's sum from this cycle);
//   the element sums y_u = (u < K-1 ? acc : 0) + v_u, and on `acc_en` (a MAC cycle's entry)
//   acc = (keep ? acc : 0) + d: the one loop, one adder fed by a LUT3 per bit.
// Carries: cin/cout are indexed tree level k lane u at k*L + u, then window lane u at LV*L + u,
// d at LV*L + L, acc at LV*L + L + 1, element sum lane u at LV*L + L + 2 + u.
module inrarch_mm_half #(
    parameter int HW = 32,
    parameter int L = 1,
    parameter int K = 1,
    parameter int G = 1,
    parameter int LV = 0,
    parameter int S = 1,  // inrarch_select_tree's stages for L inputs
    parameter bit LOW = 1'b1,
    parameter int NC = LV * L + 2 * L + 2  // derived, not set
) (
    input  logic            clk,
    input  logic            tick,
    input  logic [L*HW-1:0] m,
    input  logic [L-1:0]    lastb,   // at the first select stage
    input  logic            acc_en,  // at the sum stage
    input  logic            keep,
    input  logic [NC-1:0]   cin,     // the low half's carries, a tick old (high half only)
    output logic [NC-1:0]   cout,
    output logic [L*HW-1:0] y
);
  localparam int CW = LV * L, CD = CW + L, CA = CD + 1, CY = CD + 2;
  logic [NC-1:0] cq, c;  // carries out, and in
  assign cout = cq;
  if (LOW) begin : g_low
    /* verilator lint_off UNUSEDSIGNAL */
    logic [NC-1:0] unused;
    assign unused = cin;
    /* verilator lint_on UNUSEDSIGNAL */
    always_comb begin
      c = '0;
      c[CW+:L] = '1;  // window sums and d subtract
      c[CD] = 1'b1;
    end
  end else begin : g_high
    assign c = cin;
  end
  // {carry, a + b + ci}: one chain ({a, ci} + {b, ci} takes the carry in its low bit).
  function automatic logic [HW:0] add(input logic [HW-1:0] a, input logic [HW-1:0] b, input logic ci);
    add = (HW + 1)'(({1'b0, a, ci} + {1'b0, b, ci}) >> 1);
  endfunction
  logic [NC-1:0] co;
  always_ff @(posedge clk) if (tick) cq <= co;

  // The tree values anything reads: after the last level only the lanes that can end an
  // element (u = G-1 mod G, as G divides K and L), and before a level what that level's
  // needed lanes read. The rest are not built: with G > 1 that is most of the tree (L = 216,
  // G = 8: 324 of 1,728 registers; docs/rtl.md, "The mm engine"); mm_tree_registers in
  // dataflow/attributes.h counts the same.
  function automatic logic [(LV+1)*L-1:0] tree_need();
    logic [(LV+1)*L-1:0] n;
    n = '0;
    // (lane and level counters named apart from the generate loops', which they would hide)
    for (int tl = 0; tl < L; tl = tl + 1) if (tl % G == G - 1) n[LV*L+tl] = 1'b1;
    for (int tk = LV - 1; tk >= 0; tk = tk - 1)
      for (int tl = 0; tl < L; tl = tl + 1)
        if (n[(tk+1)*L+tl]) begin
          n[tk*L+tl] = 1'b1;
          if ((tl >> tk) % 2 == 1) n[tk*L+((tl>>tk)<<tk)-1] = 1'b1;
        end
    tree_need = n;
  endfunction
  localparam logic [(LV+1)*L-1:0] NEED = tree_need();

  /* verilator lint_off UNUSEDSIGNAL */  // the values no level needs are 0, read by none
  logic [(LV+1)*L*HW-1:0] pv  /* verilator split_var */;  // level k, lane u at [(k*L + u)*HW +: HW]
  /* verilator lint_on UNUSEDSIGNAL */
  assign pv[L*HW-1:0] = m;
  for (genvar k = 0; k < LV; k = k + 1) begin : g_lv
    for (genvar u = 0; u < L; u = u + 1) begin : g_u
      logic [HW-1:0] q;
      if (!NEED[(k+1)*L+u]) begin : g_none
        assign co[k*L+u] = 1'b0;
        assign q = '0;
      end else if ((u >> k) % 2 == 1) begin : g_add
        logic [HW:0] s;
        assign s = add(pv[(k*L+u)*HW+:HW], pv[(k*L+((u>>k)<<k)-1)*HW+:HW], c[k*L+u]);
        assign co[k*L+u] = s[HW];
        always_ff @(posedge clk) if (tick) q <= s[HW-1:0];
      end else begin : g_keep
        // Kept a flip-flop: a lane passed on through plain flip-flops for three levels or
        // more would become a shift-register LUT, whose output comes 1.2 ns later, where an
        // adder follows.
        assign co[k*L+u] = 1'b0;
        (* keep *) always_ff @(posedge clk) if (tick) q <= pv[(k*L+u)*HW+:HW];
      end
      assign pv[((k+1)*L+u)*HW+:HW] = q;
    end
  end
  logic [L*HW-1:0] p;
  assign p = pv[LV*L*HW+:L*HW];

  /* verilator lint_off UNUSEDSIGNAL */
  logic [L*HW-1:0] vs;  // the window sums, S stages after the first select stage (lanes that end)
  /* verilator lint_on UNUSEDSIGNAL */
  for (genvar u = 0; u < L; u = u + 1) begin : g_win
    if (u % G == (K - 1) % G) begin : g_end
      logic [HW-1:0] q;
      if (u >= K) begin : g_sub
        logic [HW:0] s;
        assign s = add(p[u*HW+:HW], ~p[(u >= K ? u - K : 0)*HW+:HW], c[CW+u]);
        assign co[CW+u] = s[HW];
        always_ff @(posedge clk) if (tick) q <= s[HW-1:0];
      end else begin : g_first
        assign co[CW+u] = 1'b0;
        always_ff @(posedge clk) if (tick) q <= p[u*HW+:HW];
      end
      inrarch_delay #(.WIDTH(HW), .N(S), .LAST_FF(1'b1)) u_v (.clk, .en(tick), .x(q), .y(vs[u*HW+:HW]));
    end else begin : g_mid
      assign co[CW+u] = 1'b0;
      assign vs[u*HW+:HW] = '0;
    end
  end
  logic [HW-1:0] ps, pl;
  inrarch_select_tree #(.N(L), .W(HW)) u_sel (.clk, .en(tick), .sel(lastb), .x(p), .y(ps));
  inrarch_delay #(.WIDTH(HW), .N(S), .LAST_FF(1'b1)) u_pl (.clk, .en(tick), .x(p[(L-1)*HW+:HW]), .y(pl));

  logic [HW-1:0] d;
  logic [HW:0] ds;
  assign ds = add(pl, ~ps, c[CD]);
  assign co[CD] = ds[HW];
  always_ff @(posedge clk) if (tick) d <= ds[HW-1:0];

  logic [HW-1:0] acc;
  logic [HW:0] as;
  assign as = add(keep ? acc : '0, d, c[CA]);
  assign co[CA] = as[HW];
  always_ff @(posedge clk) if (tick && acc_en) acc <= as[HW-1:0];
  for (genvar u = 0; u < L; u = u + 1) begin : g_sum
    if (u % G == (K - 1) % G) begin : g_end
      logic [HW:0] s;
      logic [HW-1:0] q;
      assign s = add(u < K - 1 ? acc : '0, vs[u*HW+:HW], c[CY+u]);
      assign co[CY+u] = s[HW];
      always_ff @(posedge clk) if (tick) q <= s[HW-1:0];
      assign y[u*HW+:HW] = q;
    end else begin : g_mid
      assign co[CY+u] = 1'b0;
      assign y[u*HW+:HW] = '0;
    end
  end
endmodule
