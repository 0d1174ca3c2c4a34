// Memory words to a port's beats: each DW-bit word holds DW / C containers of C bits
// (element i of the buffer in container i mod (DW / C) of word i / (DW / C), little-endian),
// each a W-bit element sign-extended (docs/deploy.md "Memory layout"); a beat is B elements,
// element e at [e*W +: W]. The last word's containers past ELEMS are padding and dropped.
// Elements wait in a queue of K + B slots, so a word is taken whenever at most B are
// queued: a beat a cycle while a word holds at least a beat, else a word a cycle.
module inrarch_axi_unpack #(
    parameter int DW = 64,
    parameter int C = 32,
    parameter int W = 32,
    parameter int B = 1,
    parameter int ELEMS = 1
) (
    input  logic           clk,
    input  logic           rst,   // also the start of a transfer
    input  logic [DW-1:0]  in_data,
    input  logic           in_valid,
    output logic           in_ready,
    output logic [B*W-1:0] out_data,
    output logic           out_valid,
    input  logic           out_ready
);
  localparam int K = DW / C;
  localparam int SLOTS = K + B;
  localparam int NW = $clog2(SLOTS + 1);
  localparam int EW = $clog2(ELEMS + 1);

  logic [SLOTS*W-1:0] q, shifted;
  logic [NW-1:0] n, kept, fresh;
  logic [EW-1:0] taken;  // elements taken from words so far
  logic pop, push;

  assign out_valid = n >= NW'(B);
  assign out_data = q[B*W-1:0];
  assign in_ready = n <= NW'(B);
  assign pop = out_valid && out_ready;
  assign push = in_valid && in_ready;
  assign kept = pop ? n - NW'(B) : n;
  assign shifted = pop ? q >> (B * W) : q;
  // Containers of this word that are elements (the last word may be padded).
  assign fresh = 32'(ELEMS) - 32'(taken) < 32'(K) ? NW'(32'(ELEMS) - 32'(taken)) : NW'(K);

  always_ff @(posedge clk) begin
    if (rst) begin
      n <= '0;
      taken <= '0;
    end else begin
      n <= kept + (push ? fresh : '0);
      if (push) taken <= taken + EW'(fresh);
      for (int i = 0; i < SLOTS; i = i + 1)
        if (push && i >= 32'(kept) && i < 32'(kept) + K) q[i*W+:W] <= in_data[(i-32'(kept))*C+:W];
        else q[i*W+:W] <= shifted[i*W+:W];
    end
  end
endmodule
