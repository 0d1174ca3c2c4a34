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
    logic [KW-1:0] slot;     // chunk - 1: its place in `held`
    always_ff @(posedge clk) if (load) held <= data[DW-1:GW];
    assign slot = chunk - 1'b1;
    assign y = chunk == '0 ? data[GW-1:0] : held[32'(slot)*GW+:GW];
  end
endmodule
