// inrarch_mm_engine for lanes aligned with K (L divides K, or K divides L; docs/rtl.md, "The
// mm engine"): every MAC cycle's L products fall into whole groups of GS = min(L, K) lanes,
// each group's products belonging to one element. So each group is summed by a plain adder
// tree, an element of L < K lanes is summed over Q = K / L MAC cycles in one accumulator, and
// NG = L / GS elements end in a cycle at fixed lanes: no prefix sums, windows or routing by
// lane, and the per-cycle control is a few bits, not a few per lane. Same ports and cadence
// as inrarch_mm_engine_prefix (the general engine): the MAC cycle that takes a beat's last
// product sends it down the pipeline, and it leaves D ticks later when `wr` is high; every stage moves on
// `tick`.
// Arithmetic: each product exactly as the HLS kernel's (F + FB fraction bits, realigned to
// A = ap_fixed<64, 64-FA>). A realignment up (FA > F + FB) appends zero bits below the
// product, so the sums run on the product bits only, AW = W + WB + clog2(K) + 1 of them:
// an element's K products cannot leave that range, so the sum is the exact one the HLS
// kernel's wrapping 64-bit accumulator holds (where AW would pass 64 - UP, the sums wrap
// at those bits, which the realignment makes A's 64). Realigned by SHIFT, fit once per element.
// Stages on `tick`: 1 operands, MD products, LV = clog2(GS) tree levels, 1 the element sums'
// low halves (the accumulator when L < K: the one cross-cycle loop), 1 their high halves,
// S = select_stages(NG) to route each element to its beat slot, 1 the fits. Every sum is kept
// in two halves of about AW / 2 bits, the high ones a tick behind on the low ones' carries,
// so no carry chain is longer than that. D = 4 + MD + LV + S (dataflow::mm_pipeline_depth).
module inrarch_mm_engine_aligned #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BC = 1,
    parameter int L = 1,
    parameter int SHIFT = 0,
    parameter int D = 9,
    parameter int WB = W,
    parameter int FB = F,
    parameter int S = 1,  // inrarch_select_tree's stages for L / min(L, K) inputs (the route)
    parameter int CW = (N * K + L - 1) / L > 1 ? $clog2((N * K + L - 1) / L) : 1  // derived, not set
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          mac,
    input  logic          tick,
    input  logic          flag,
    input  logic [(L < K ? L : K)*W-1:0] arow,
    input  logic [L*WB-1:0] bq,
    input  logic          row_end,  // the MAC cycle is the row's last (inrarch_mm_engine's register)
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [CW-1:0] c_after,  // the MAC cycle after this one (a register; read when L >= K)
    /* verilator lint_on UNUSEDSIGNAL */
    output logic          wr,
    output logic [BC*W-1:0] beat,
    output logic          beat_ovf
);
  localparam int GS = L < K ? L : K, NG = L / GS, Q = K / GS;
  localparam int C = (N * K + L - 1) / L, LASTG = N - (C - 1) * NG;
  localparam int MD = (W <= 18 && WB <= 27) || (W <= 27 && WB <= 18) ? 1 : 4;
  localparam int LV = GS > 1 ? $clog2(GS) : 0;
  localparam int UP = FA > F + FB ? FA - F - FB : 0, DOWN = F + FB > FA ? F + FB - FA : 0;
  localparam int AW0 = W + WB + (K > 1 ? $clog2(K) : 0) + 1, AW = AW0 < 64 - UP ? AW0 : 64 - UP;
  localparam int LO = (AW + 1) / 2, HI = AW - LO;  // the sums' halves
  localparam int EW = BC > 1 ? $clog2(BC) : 1, QW = Q > 1 ? $clog2(Q) : 1;
  localparam int SS = 2 + MD + LV, DEPTH = SS + S + 2;  // SS: the element sums' low halves
  initial begin
    if (L % K != 0 && K % L != 0) $fatal(1, "inrarch_mm_engine_aligned: L = %0d and K = %0d: neither divides the other", L, K);
    if (N % BC != 0) $fatal(1, "inrarch_mm_engine_aligned: a beat of %0d straddles a row of %0d", BC, N);
    if (D != DEPTH) $fatal(1, "inrarch_mm_engine_aligned: D = %0d but L = %0d lanes make %0d stages", D, L, DEPTH);
  end

  // The MAC cycle's place. L < K: pos, the cycle's place in its element (an element starts
  // at 0 and ends at Q - 1), and es, the element's slot; a row is whole beats, so neither
  // needs a reset at its end. L >= K: e0, the slot of the cycle's first element; the row's
  // last cycle ends LASTG elements. A cycle writes when it ends slot BC - 1 (at most one beat
  // ends in a cycle, as L <= BC * K); `writes` is a register, set a MAC cycle ahead.
  // (v + NG) mod BC for a slot v < BC, as a table of v (a LUT a bit for EW <= 6): a modulo
  // of a register by a BC that is no power of two (3 outputs) is a divider, 9 MHz.
  function automatic logic [EW-1:0] slot_after(input logic [EW-1:0] v);
    slot_after = '0;
    for (int x = 0; x < BC; x = x + 1)
      if (v == EW'(x)) slot_after = EW'((x + NG) % BC);
  endfunction
  logic [QW-1:0] pos;
  logic [EW-1:0] es, e0;
  logic first;
  logic [NG-1:0] gv;    // group g ends an element this cycle
  logic [EW-1:0] slot;  // group 0's slot
  logic writes;         // this MAC cycle takes a beat's last product
  logic writes_next;    // the next MAC cycle does
  if (Q > 1) begin : g_acc
    assign first = pos == '0;
    assign gv = pos == QW'(Q - 1);
    assign slot = es;
    assign writes_next = pos == QW'(Q - 2) && es == EW'(BC - 1);
  end else begin : g_whole
    assign first = 1'b1;
    for (genvar g = 0; g < NG; g = g + 1) begin : g_valid
      assign gv[g] = !row_end || g < LASTG;
    end
    assign slot = e0;
    // After this cycle: the row's first (slot 0), or the cycle with slot (e0 + NG) mod BC,
    // which writes if it is the row's last or ends slot BC - 1.
    logic [EW-1:0] e_next;
    assign e_next = slot_after(e0);
    assign writes_next = row_end ? (C == 1 || NG >= BC) : (c_after == CW'(C - 1) || 32'(e_next) + NG >= BC);
  end
  always_ff @(posedge clk)
    if (rst) begin
      pos <= '0;
      es <= '0;
      e0 <= '0;
      writes <= Q > 1 ? 1'b0 : (C == 1 || NG >= BC);
    end else if (tick && mac) begin
      pos <= pos == QW'(Q - 1) ? '0 : pos + 1'b1;
      if (pos == QW'(Q - 1)) es <= es == EW'(BC - 1) ? '0 : es + 1'b1;
      e0 <= row_end ? '0 : slot_after(e0);
      writes <= writes_next;
    end

  // Control down the pipeline, stage s (1..D) at [(s-1)*CT +: CT]: mac, flag, the write,
  // the element's start, the groups that end one, group 0's slot.
  localparam int CT = 4 + NG + EW;
  logic [D*CT-1:0] ctl;
  always_ff @(posedge clk)
    if (rst) ctl <= '0;
    else if (tick) ctl <= {ctl[(D-1)*CT-1:0], {mac, flag, mac && writes, first, gv & {NG{mac}}, slot}};
  `define MM_CTL(s) ctl[((s)-1)*CT+:CT]
  `define C_MAC(c) c[CT-1]
  `define C_FLAG(c) c[CT-2]
  `define C_WR(c) c[CT-3]
  `define C_FIRST(c) c[CT-4]
  `define C_SLOT(c) c[EW-1:0]

  // Stage 1: the operands; then inrarch_mul_dsp's MD stages (inrarch_mm_products); each
  // product cut to the AW bits the sums need.
  logic [L*64-1:0] prod;
  logic [L*AW-1:0] pa;
  inrarch_mm_products #(.W(W), .WB(WB), .K(K), .L(L)) u_products (.clk, .tick, .arow, .bq, .p(prod));
  for (genvar u = 0; u < L; u = u + 1) begin : g_cut
    /* verilator lint_off UNUSEDSIGNAL */
    logic signed [63:0] down;  // bits above AW are copies of the sign
    /* verilator lint_on UNUSEDSIGNAL */
    assign down = $signed(prod[u*64+:64]) >>> DOWN;
    assign pa[u*AW+:AW] = down[AW-1:0];
  end

  // Each group's tree: level k + 1 adds pairs of level k's nodes (an odd last one carried
  // on), a register per node; level k's nodes (k >= 1) at tree_at(k) in `t..`. Every sum is
  // kept in two halves, so no carry chain is longer than LO + 1 bits: the low halves (LO
  // bits) with each node's carry out, and the high halves (HI bits) one tick behind, each
  // adding its children's high halves and the node's registered carry.
  function automatic int nodes(input int k);
    nodes = (GS + (1 << k) - 1) >> k;
  endfunction
  function automatic int tree_at(input int k);
    tree_at = 0;
    for (int j = 1; j < k; j = j + 1) tree_at = tree_at + ((GS + (1 << j) - 1) >> j);  // nodes(j)
  endfunction
  localparam int TN = tree_at(LV + 1) > 0 ? tree_at(LV + 1) : 1;
  logic [NG*LO-1:0] glo;  // the group sums' low halves at stage SS - 1, high halves at SS
  logic [NG*HI-1:0] ghi;
  for (genvar g = 0; g < NG; g = g + 1) begin : g_group
    logic [GS*LO-1:0] leaf_lo;
    logic [GS*HI-1:0] leaf_hi;  // a tick behind the low halves, as every high half
    /* verilator lint_off UNUSEDSIGNAL */
    logic [TN*LO-1:0] tlo;  // no tree when GS = 1
    logic [TN*HI-1:0] thi;
    logic [TN-1:0] tc;
    /* verilator lint_on UNUSEDSIGNAL */
    for (genvar i = 0; i < GS; i = i + 1) begin : g_leaf
      assign leaf_lo[i*LO+:LO] = pa[(g*GS+i)*AW+:LO];
      always_ff @(posedge clk) if (tick) leaf_hi[i*HI+:HI] <= pa[(g*GS+i)*AW+LO+:HI];
    end
    for (genvar k = 1; k <= LV; k = k + 1) begin : g_level
      for (genvar i = 0; i < nodes(k); i = i + 1) begin : g_node
        localparam int AT = tree_at(k) + i, BELOW = tree_at(k - 1);
        logic [LO-1:0] l_lo, r_lo;
        logic [HI-1:0] l_hi, r_hi;
        if (k == 1) begin : g_leaves
          assign {l_hi, l_lo} = {leaf_hi[(2*i)*HI+:HI], leaf_lo[(2*i)*LO+:LO]};
        end else begin : g_inner
          assign {l_hi, l_lo} = {thi[(BELOW+2*i)*HI+:HI], tlo[(BELOW+2*i)*LO+:LO]};
        end
        if (2 * i + 1 >= nodes(k - 1)) begin : g_odd
          assign {r_hi, r_lo} = '0;
        end else if (k == 1) begin : g_leaf_r
          assign {r_hi, r_lo} = {leaf_hi[(2*i+1)*HI+:HI], leaf_lo[(2*i+1)*LO+:LO]};
        end else begin : g_inner_r
          assign {r_hi, r_lo} = {thi[(BELOW+2*i+1)*HI+:HI], tlo[(BELOW+2*i+1)*LO+:LO]};
        end
        always_ff @(posedge clk)
          if (tick) begin
            {tc[AT], tlo[AT*LO+:LO]} <= {1'b0, l_lo} + {1'b0, r_lo};
            thi[AT*HI+:HI] <= l_hi + r_hi + HI'(tc[AT]);
          end
      end
    end
    if (LV == 0) begin : g_one
      assign glo[g*LO+:LO] = leaf_lo;
      assign ghi[g*HI+:HI] = leaf_hi;
    end else begin : g_root
      assign glo[g*LO+:LO] = tlo[tree_at(LV)*LO+:LO];
      assign ghi[g*HI+:HI] = thi[tree_at(LV)*HI+:HI];
    end
  end

  // The element sums, low halves at stage SS and high halves at SS + 1: L < K, the
  // accumulator, restarted at an element's first cycle (on MAC entries only; the high half
  // a tick later with the low half's carry); else each group's sum.
  logic [NG*LO-1:0] ylo, ylo_d;
  logic [NG*HI-1:0] yhi;
  logic [NG*AW-1:0] y;  // at stage SS + 1
  if (Q > 1) begin : g_accumulate
    logic [CT-1:0] c_lo, c_hi;
    logic carry;
    assign c_lo = `MM_CTL(SS - 1);
    assign c_hi = `MM_CTL(SS);
    always_ff @(posedge clk)
      if (tick) begin
        if (`C_MAC(c_lo)) {carry, ylo} <= {1'b0, `C_FIRST(c_lo) ? LO'(0) : ylo} + {1'b0, glo};
        if (`C_MAC(c_hi)) yhi <= (`C_FIRST(c_hi) ? HI'(0) : yhi) + ghi + HI'(carry);
      end
  end else begin : g_direct
    always_ff @(posedge clk)
      if (tick) begin
        ylo <= glo;
        yhi <= ghi;
      end
  end
  // Kept: where the sums are the tree's roots (L >= K), a root's low half, ylo and ylo_d are
  // three plain registers in a row, which Yosys would make a shift-register LUT read by the
  // route (1.2 ns later than a flip-flop).
  (* keep *) always_ff @(posedge clk) if (tick) ylo_d <= ylo;
  for (genvar g = 0; g < NG; g = g + 1) begin : g_y
    assign y[g*AW+:AW] = {yhi[g*HI+:HI], ylo_d[g*LO+:LO]};
  end

  // Route: slot e takes the element of group g with (slot0 + g) mod BC = e that ends in this
  // entry (at most one), with a bit saying it does and one saying it is in the beat written
  // now (slot0 + g < BC: later ones open the next beat). The one-hot selects are registers,
  // formed from stage SS of the control a cycle ahead: the select tree's first stage is two
  // LUT levels of AND-OR over registered selects (a compare in front of it made four).
  logic [CT-1:0] c_pre, c_route;
  assign c_pre = `MM_CTL(SS);
  assign c_route = `MM_CTL(SS + 1);
  logic [BC*NG-1:0] rsel_next, rsel;
  always_comb
    for (int e = 0; e < BC; e = e + 1)
      for (int g = 0; g < NG; g = g + 1)
        // (slot0 + g) mod BC == e, slot0 < BC: slot0 is the constant (e - g) mod BC.
        rsel_next[e*NG+g] = c_pre[EW+g] && 32'(`C_SLOT(c_pre)) == 32'((e + BC * NG - g) % BC);
  always_ff @(posedge clk)
    if (rst) rsel <= '0;
    else if (tick) rsel <= rsel_next;
  logic [BC-1:0] rhit, rwr;
  always_comb
    for (int e = 0; e < BC; e = e + 1) begin
      rhit[e] = 1'b0;
      rwr[e] = 1'b0;
      for (int g = 0; g < NG; g = g + 1) begin
        rhit[e] = rhit[e] || rsel[e*NG+g];
        // In the beat written now when slot0 + g < BC, that is slot0 = e - g without a wrap:
        // g <= e, a constant (an add and a compare here cost a carry chain before the OR).
        if (g <= e) rwr[e] = rwr[e] || (rsel[e*NG+g] && `C_WR(c_route));
      end
    end
  logic [S*BC-1:0] hitq, wrq;  // rhit, rwr down the S route stages
  always_ff @(posedge clk)
    if (tick) begin
      hitq[BC-1:0] <= rhit;
      wrq[BC-1:0] <= rwr;
      for (int s = 1; s < S; s = s + 1) begin
        hitq[s*BC+:BC] <= hitq[(s-1)*BC+:BC];
        wrq[s*BC+:BC] <= wrq[(s-1)*BC+:BC];
      end
    end

  // The route's outputs at stage D - 1, then the fits and the beat (inrarch_mm_slots).
  logic [BC*64-1:0] rsum;
  for (genvar e = 0; e < BC; e = e + 1) begin : g_slot
    logic [AW-1:0] r;
    inrarch_select_tree #(.N(NG), .W(AW)) u_route (.clk, .en(tick), .sel(rsel[e*NG+:NG]), .x(y), .y(r));
    assign rsum[e*64+:64] = 64'($signed(r)) << UP;
  end
  logic [CT-1:0] cf;
  assign cf = `MM_CTL(D);
  assign wr = `C_WR(cf);
  inrarch_mm_slots #(.W(W), .F(F), .FA(FA), .BC(BC), .SHIFT(SHIFT)) u_slots (
      .clk, .rst, .tick, .sum(rsum), .hit(hitq[(S-1)*BC+:BC]), .in_beat(wrq[(S-1)*BC+:BC]), .mac_d(`C_MAC(cf)),
      .flag_d(`C_FLAG(cf)), .beat, .beat_ovf);
  `undef MM_CTL
  `undef C_MAC
  `undef C_FLAG
  `undef C_WR
  `undef C_FIRST
  `undef C_SLOT
endmodule
