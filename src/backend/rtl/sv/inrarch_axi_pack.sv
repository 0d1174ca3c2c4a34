// A port's beats to memory words, the reverse of inrarch_axi_unpack: B elements of W bits a
// beat in, DW-bit words of K = DW / C containers out, each element sign-extended to C bits.
// After ELEMS elements a last, partial word is padded with zeros (the write engine's
// strobes keep the padding out of memory). Elements wait in a queue of K + B slots; a beat
// is taken while fewer than K would stay after this cycle's word.
module inrarch_axi_pack #(
    parameter int DW = 64,
    parameter int C = 32,
    parameter int W = 32,
    parameter int B = 1,
    parameter int ELEMS = 1
) (
    input  logic           clk,
    input  logic           rst,   // also the start of a transfer
    input  logic [B*W-1:0] in_data,
    input  logic           in_valid,
    output logic           in_ready,
    output logic [DW-1:0]  out_data,
    output logic           out_valid,
    input  logic           out_ready
);
  localparam int K = DW / C;
  localparam int SLOTS = K + B;
  localparam int NW = $clog2(SLOTS + 1);
  localparam int EW = $clog2(ELEMS + 1);

  logic [SLOTS*W-1:0] q, shifted;
  logic [NW-1:0] n, kept, popped;
  logic [EW-1:0] received;  // elements taken from beats so far
  logic pop, push, last;

  assign last = received == EW'(ELEMS);
  assign out_valid = n >= NW'(K) || (last && n != '0);
  assign pop = out_valid && out_ready;
  assign popped = !pop ? '0 : n >= NW'(K) ? NW'(K) : n;
  assign kept = n - popped;
  assign in_ready = kept < NW'(K) && !last;
  assign push = in_valid && in_ready;
  assign shifted = q >> (32'(popped) * W);

  always_comb
    for (int i = 0; i < K; i = i + 1)
      out_data[i*C+:C] = i < 32'(n) ? C'($signed(q[i*W+:W])) : '0;

  always_ff @(posedge clk) begin
    if (rst) begin
      n <= '0;
      received <= '0;
    end else begin
      n <= kept + (push ? NW'(B) : '0);
      if (push) received <= received + EW'(B);
      for (int i = 0; i < SLOTS; i = i + 1)
        if (push && i >= 32'(kept) && i < 32'(kept) + B) q[i*W+:W] <= in_data[(i-32'(kept))*W+:W];
        else q[i*W+:W] <= shifted[i*W+:W];
    end
  end
endmodule
