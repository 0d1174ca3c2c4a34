// A constant output played from a ROM (ROM_FILE, P words at the output's exponent; a splat
// is one word), one beat a step (schedule: II = 1, the first step one cycle after the
// start). Element e of beat i is word (i*B + e) mod P, the HLS library's rom_source and
// from_rom (P is 1 or a multiple of B; a whole array has P = its size). The words of the
// beat on offer sit in a register loaded from the ROM the cycle before (at reset, then at
// every write), so the ROM can be a block ROM. Constants never saturate: ovf is 0.
module inrarch_rom_source #(
    parameter int B = 1,
    parameter int W = 32,
    parameter int BEATS = 1,
    parameter int P = 1,
    parameter ROM_FILE = "rom.hex"
) (
    input  logic         clk,
    input  logic         rst,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  localparam int PW = P > 1 ? $clog2(P) : 1;
  logic [W-1:0] rom[0:P-1];  // ascending, as $readmemh fills it (Icarus warns on rom[P])
  initial $readmemh(ROM_FILE, rom);
  logic active;
  logic [PW-1:0] base, upcoming;  // the ROM word of element 0 of the beat on offer, of the next
  logic [PW:0] next;              // base + B, below 2P
  logic [B*W-1:0] words;
  inrarch_steps #(.STEPS(BEATS)) u_steps (.clk, .rst, .fire(out_valid), .active);
  assign out_valid = active && out_ready;
  assign out_data  = {1'b0, words};
  assign next      = {1'b0, base} + (PW + 1)'(B);
  assign upcoming  = rst || P == 1 ? '0 : !out_valid ? base : next >= (PW + 1)'(P) ? '0 : next[PW-1:0];
  always_ff @(posedge clk) base <= upcoming;
  for (genvar e = 0; e < B; e = e + 1) begin : g_word
    always_ff @(posedge clk) words[e*W+:W] <= rom[P > 1 ? upcoming + PW'(e) : '0];
  end
endmodule
