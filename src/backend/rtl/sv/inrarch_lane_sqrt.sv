// OP 13: sqrt (scaled1<op_sqrt, EA, EO>, kOnTrueValues): the operand to its true value in T
// (A, shift by -EA, fit), then fixed_sqrt.h's fx_sqrt, then A, a shift by EO, and fit.
// fx_sqrt: x <= 0 gives 0; otherwise the root floor(sqrt(r * 2^S)) of the radicand
// D = r << S (r the raw bits, S = F where W - 1 + F <= 64), shifted left by (F - S) / 2:
// floor(sqrt(x) * 2^F) with F fraction bits. The integer root is the non-restoring digit
// recurrence: NQ = ceil(NB / 2) stages for an NB-bit radicand, each shifting the next two
// radicand bits into the partial remainder r and subtracting 4q + 1 (r >= 0) or adding
// 4q + 3 (r < 0), then appending the root bit r >= 0. r is never restored.
//
// Pipelined (docs/rtl.md, "Pipelined lanes") for 300 MHz: a register after every stage, no
// more than one (NQ + 5)-bit carry chain behind one LUT level between two. The kernel's
// depth D (elementwise.def's sqrt_depth: min(W, 32) + 4) leaves D - 1 registers to the lane:
// the operand's range flags (inrarch_fit_stage), the initial state, one a recurrence stage,
// D - 4 - NQ more on the root (NQ <= min(W, 32) at every F, so the depth is W's alone), and
// the result's range flags; the kernel's result register follows the last select.
// A stage writes r - (4q + 1) and r + (4q + 3) as one subtraction, ({X, 0} - {Z, 0, 0, 1})
// >> 1 with X = {r, pair} and Z = q ^ ~(r >= 0) at full width, so the select is the
// subtrahend's inversion, inside the adder's LUTs.
module inrarch_lane_sqrt #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter int D  = 36
) (
    input  logic         clk,
    input  logic         en,
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane code (the OP column of src/dataflow/elementwise.def; a test checks it): inrarch_ew1
  // instantiates this lane for OP == OP_SQRT.
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_SQRT = 13;
  /* verilator lint_on UNUSEDPARAM */
  localparam int ROOM = 65 - W;
  localparam int S = F <= ROOM ? F : F - ((F - ROOM + 1) / 2) * 2;  // fixed_sqrt.h sqrt_shift
  localparam int NB = W - 1 + S;
  localparam int NQ = (NB + 1) / 2;
  localparam int RW = NQ + 4;  // |r| < 2^(NQ + 3) at every step
  localparam int PAD = D - 4 - NQ;  // registers on the root after the recurrence
  initial if (PAD < 0) $fatal(1, "inrarch_lane_sqrt: D = %0d, below the %0d stages of %0d root bits", D, NQ + 4, NQ);

  // The operand's true value in T: its range flags registered, then the initial state.
  logic [63:0] xa;
  logic [W-1:0] x;
  logic x_ovf;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a))), .y(xa));
  inrarch_fit_stage #(.W(W), .F(F), .FA(FA)) u_fit_in (.clk, .en, .x(xa), .sat(1'b0), .y(x), .ovf(x_ovf));

  // The recurrence, two radicand bits a stage from the top. Entering stage k: the radicand
  // bits not yet taken in rad[k] (plain flip-flops, which Yosys may pack into shift-register
  // LUTs), and in flip-flops marked keep, as the stage's adder starts at them (a
  // shift-register LUT's output comes 1.2 ns after a flip-flop's): {x_ovf, pos, q, r} in
  // qr[k] and the pair the stage takes in pr[k].
  localparam int QW = 2 + NQ + RW;
  logic [2*NQ-1:0] d;
  logic [(NQ+1)*2*NQ-1:0] rad;
  logic [(NQ+1)*QW-1:0] qr;
  logic [(NQ+1)*2-1:0] pr;
  assign d = (2 * NQ)'(64'(x) << S);
  always_ff @(posedge clk) if (en) rad[0+:2*NQ] <= d;
  (* keep *) always_ff @(posedge clk)
    if (en) begin
      qr[0+:QW] <= {x_ovf, x[W-1], {NQ{1'b1}}, RW'(0)};  // the sign: stage 0 makes it x > 0
      pr[0+:2] <= d[2*NQ-1-:2];
    end
  for (genvar k = 0; k < NQ; k = k + 1) begin : g_stage
    localparam int I = NQ - 1 - k;  // the radicand pair this stage takes
    logic [2*NQ-1:0] dk;
    logic [1:0] flags;
    logic [NQ-1:0] q, qs, qs_next;  // qs: the root bits inverted (r < 0), as the chain ends
    logic [RW-1:0] r, r_next, x2;
    logic [RW-3:0] z;
    assign dk = rad[k*2*NQ+:2*NQ];
    assign {flags, qs, r} = qr[k*QW+:QW];
    assign q = ~qs;
    assign x2 = {r[RW-3:0], pr[k*2+:2]};
    assign z = (RW - 2)'(q) ^ {(RW - 2){r[RW-1]}};  // q when r >= 0, ~q (that is -1 - q) when not
    assign r_next = RW'(({x2, 1'b0} - {z, 2'b00, 1'b1}) >> 1);
    assign qs_next = (qs << 1) | NQ'(r_next[RW-1]);
    logic [1:0] flags_next;  // x > 0 from its sign and the radicand (x's low W - 1 bits, shifted)
    if (k == 0) begin : g_pos
      assign flags_next = {flags[1], !flags[0] && dk != '0};
    end else begin : g_keep
      assign flags_next = flags;
    end
    always_ff @(posedge clk) if (en) rad[(k+1)*2*NQ+:2*NQ] <= dk;
    (* keep *) always_ff @(posedge clk)
      if (en) begin
        qr[(k+1)*QW+:QW] <= {flags_next, qs_next, r_next};
        pr[(k+1)*2+:2] <= I > 0 ? dk[(I > 0 ? 2 * I - 2 : 0)+:2] : 2'b00;
      end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic [QW-1:0] last;  // its remainder is spent
  logic [2*NQ-1:0] rad_last;
  logic [1:0] pr_last;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NQ-1:0] root;
  logic pos, in_ovf;
  assign last = qr[NQ*QW+:QW];
  assign rad_last = rad[NQ*2*NQ+:2*NQ];
  assign pr_last = pr[NQ*2+:2];
  inrarch_delay #(.WIDTH(NQ + 2), .N(PAD), .LAST_FF(1'b1)) u_pad (
      .clk, .en, .x({last[QW-1:QW-2], ~last[RW+:NQ]}), .y({in_ovf, pos, root}));
  logic [W-1:0] s;  // fx_sqrt's result in T
  logic [63:0] sa;
  logic s_ovf;
  assign s = pos ? W'(64'(root) << ((F - S) / 2)) : '0;
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit_stage #(.W(W), .F(F), .FA(FA)) u_fit_out (.clk, .en, .x(sa), .sat(1'b0), .y(y), .ovf(s_ovf));
  logic in_ovf_q;
  always_ff @(posedge clk) if (en) in_ovf_q <= in_ovf;
  assign ovf = in_ovf_q || s_ovf;
endmodule
