// x * 2^S in A, A's way: a left shift wraps, a right shift floors (shift_pow2).
module inrarch_shift #(
    parameter int S = 0
) (
    input  logic [63:0] x,
    output logic [63:0] y
);
  if (S >= 0) begin : g_left
    assign y = x << S;
  end else begin : g_right
    assign y = $signed(x) >>> (-S);
  end
endmodule
