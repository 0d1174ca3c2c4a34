// The next burst of an AXI4 master engine (inrarch_axi_rd, inrarch_axi_wr): as many of the
// LEFT words still to move as MAX_BURST allows, cut where the BOUNDARY-byte line ends
// (AXI4's 4 KB rule). `addr` is aligned to a word of DW / 8 bytes.
module inrarch_axi_burst #(
    parameter int DW = 64,
    parameter int CW = 8,
    parameter int MAX_BURST = 64,
    parameter int BOUNDARY = 4096
) (
    input  logic [63:0]   addr,
    input  logic [CW-1:0] left,
    output logic [8:0]    len
);
  logic [63:0] room;
  localparam int BYTES = DW / 8;
  assign room = (64'(BOUNDARY) - (addr & (64'(BOUNDARY) - 64'd1))) / 64'(BYTES);
  always_comb begin
    len = 9'(MAX_BURST);
    if (64'(left) < 64'(len)) len = 9'(left);
    if (room < 64'(len)) len = 9'(room);
  end
endmodule
