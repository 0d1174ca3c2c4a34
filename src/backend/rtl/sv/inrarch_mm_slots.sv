// The last stage of inrarch_mm_engine's two engines and the beat they write (docs/rtl.md,
// "The mm engine's pipeline"): each beat slot's sum (on A's 64-bit grid) realigned by SHIFT
// and fit to W bits once per element, a register a slot beside whether the slot finished in
// this entry (`hit`) and belongs to the beat written now (`in_beat`). The beat takes those
// slots and, for the others, the slots finished in earlier MAC cycles (`done`); its flag is
// the entry's read flag, every fit of earlier MAC cycles and the fits of its own elements
// (the HLS kernel writes the beat before the later lanes fit).
module inrarch_mm_slots #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int BC = 1,
    parameter int SHIFT = 0
) (
    input  logic            clk,
    input  logic            rst,
    input  logic            tick,
    input  logic [BC*64-1:0] sum,      // at stage D - 1
    input  logic [BC-1:0]   hit,
    input  logic [BC-1:0]   in_beat,
    input  logic            mac_d,     // the entry at stage D: a MAC cycle's, and its read flag
    input  logic            flag_d,
    output logic [BC*W-1:0] beat,
    output logic            beat_ovf
);
  logic [BC*W-1:0] ef, done;
  logic [BC-1:0] eo, ehit, ewr;
  logic fs;  // every fit of earlier MAC cycles
  for (genvar e = 0; e < BC; e = e + 1) begin : g_slot
    logic [63:0] sh;
    logic [W-1:0] yy;
    logic oo;
    inrarch_shift #(.S(SHIFT)) u_shift (.x(sum[e*64+:64]), .y(sh));
    inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(sh), .y(yy), .ovf(oo));
    always_ff @(posedge clk)
      if (tick) begin
        ef[e*W+:W] <= yy;
        eo[e] <= oo;
        ehit[e] <= hit[e];
        ewr[e] <= in_beat[e];
      end
    assign beat[e*W+:W] = ewr[e] ? ef[e*W+:W] : done[e*W+:W];
    always_ff @(posedge clk) if (tick && mac_d && ehit[e]) done[e*W+:W] <= ef[e*W+:W];
  end
  assign beat_ovf = flag_d || fs || |(ewr & eo);
  always_ff @(posedge clk)
    if (rst) fs <= 1'b0;
    else if (tick && mac_d) fs <= fs || |(ehit & eo);
endmodule
