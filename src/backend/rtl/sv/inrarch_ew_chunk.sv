// The operand chunk a folded elementwise kernel's lanes take (inrarch_ew_fsm, C cycles a
// beat): chunk 0 straight from the stream's beat as it is read (`load`), chunks 1 .. C-1 from
// a register that holds the rest of that beat. C = 1: the beat itself.
module inrarch_ew_chunk #(
    parameter int DW  = 32,  // the beat's element bits
    parameter int C   = 1,
    localparam int GW = DW / C,
    localparam int KW = C > 1 ? $clog2(C) : 1
) (
    input  logic          clk,
    input  logic          load,
    input  logic [KW-1:0] chunk,
    input  logic [DW-1:0] data,
    output logic [GW-1:0] y
);
  if (C == 1) begin : g_whole
    assign y = data;
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = clk ^ load ^ chunk[0];
    /* verilator lint_on UNUSEDSIGNAL */
  end else begin : g_fold
    logic [DW-GW-1:0] held;  // chunks 1 .. C-1
    logic [   DW-1:0] parts;  // chunk k at bits k*GW
    always_ff @(posedge clk) if (load) held <= data[DW-1:GW];
    assign parts = {held, data[GW-1:0]};
    // An AND-OR multiplexer on the decoded chunk: two LUT levels at C = 8. A part-select at
    // chunk*GW is a shifter whose offset is a multiply-add where GW is not a power of two
    // (205 MHz at 24-bit lanes).
    always_comb begin
      y = '0;
      for (int k = 0; k < C; k = k + 1) y = y | (parts[k*GW+:GW] & {GW{chunk == KW'(k)}});
    end
  end
endmodule
