// The memory-mapped kernel's control port: an AXI4-Lite slave with the register map of a
// Vitis RTL kernel under ap_ctrl_hs (docs/deploy.md "Register map"):
//   0x00 control: bit 0 ap_start (set by the host, cleared when the kernel takes it unless
//        auto_restart), bit 1 ap_done (clear on read), bit 2 ap_idle, bit 3 ap_ready (clear
//        on read), bit 7 auto_restart
//   0x04 global interrupt enable, 0x08 interrupt enable (bit 0 done, bit 1 ready),
//   0x0C interrupt status (toggle on write)
//   0x10 + 8k, 0x14 + 8k: argument k (a 64-bit buffer address), low and high word
//   then, read-only: the outputs' sticky overflow flags (bit k: output k), and the last
//   run's cycles from start to done (low and high word), and a status word (bit 0: an AXI
//   error response or a burst of the wrong length ended the run).
// One write and one read are served at a time (AXI4-Lite needs no more); a write takes its
// address and data in any order.
module inrarch_axil_ctrl #(
    parameter int NARGS = 1,
    parameter int NFLAGS = 1,
    parameter int AW = 12
) (
    input  logic                 clk,
    input  logic                 rst,
    input  logic [AW-1:0]        awaddr,
    input  logic                 awvalid,
    output logic                 awready,
    input  logic [31:0]          wdata,
    input  logic [3:0]           wstrb,
    input  logic                 wvalid,
    output logic                 wready,
    output logic [1:0]           bresp,
    output logic                 bvalid,
    input  logic                 bready,
    input  logic [AW-1:0]        araddr,
    input  logic                 arvalid,
    output logic                 arready,
    output logic [31:0]          rdata,
    output logic [1:0]           rresp,
    output logic                 rvalid,
    input  logic                 rready,
    output logic                 irq,
    // the kernel: `start` pulses when it takes ap_start (it is idle then), `done` when it ends
    output logic                 start,
    input  logic                 done,
    output logic [64*NARGS-1:0]  args,
    input  logic [NFLAGS-1:0]    flags,
    input  logic [63:0]          cycles,
    input  logic                 axi_error
);
  localparam int FLAGS_AT = 16 + 8 * NARGS;

  logic ap_start, ap_done, ap_idle, ap_ready, auto_restart, gie;
  logic [1:0] ier, isr;
  logic [AW-1:0] wa;
  logic have_wa, have_wd;
  logic [31:0] wd;
  logic [3:0] ws;

  // The kernel takes ap_start in a cycle it is idle; a done frees it the next cycle.
  assign start = ap_start && ap_idle;
  assign irq = gie && |(ier & isr);
  assign awready = !have_wa && !bvalid;
  assign wready = !have_wd && !bvalid;
  assign bresp = 2'b00;
  assign rresp = 2'b00;
  assign arready = !rvalid;

  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] d, input logic [3:0] s);
    for (int b = 0; b < 4; b = b + 1) merge[8*b+:8] = s[b] ? d[8*b+:8] : old[8*b+:8];
  endfunction

  function automatic logic [31:0] read_reg(input logic [AW-1:0] a);
    read_reg = '0;
    if (a == AW'(0)) read_reg = {24'b0, auto_restart, 3'b0, ap_ready, ap_idle, ap_done, ap_start};
    else if (a == AW'(4)) read_reg = {31'b0, gie};
    else if (a == AW'(8)) read_reg = {30'b0, ier};
    else if (a == AW'(12)) read_reg = {30'b0, isr};
    else if (a == AW'(FLAGS_AT)) read_reg = 32'(flags);
    else if (a == AW'(FLAGS_AT + 4)) read_reg = cycles[31:0];
    else if (a == AW'(FLAGS_AT + 8)) read_reg = cycles[63:32];
    else if (a == AW'(FLAGS_AT + 12)) read_reg = {31'b0, axi_error};
    else
      for (int k = 0; k < NARGS; k = k + 1) begin
        if (a == AW'(16 + 8 * k)) read_reg = args[64*k+:32];
        if (a == AW'(20 + 8 * k)) read_reg = args[64*k+32+:32];
      end
  endfunction

  logic do_write, read_control;
  assign do_write = have_wa && have_wd;
  assign read_control = arvalid && arready && araddr == AW'(0);

  always_ff @(posedge clk) begin
    if (rst) begin
      {ap_start, ap_done, ap_ready, auto_restart, gie, have_wa, have_wd, bvalid, rvalid} <= '0;
      ap_idle <= 1'b1;
      ier <= '0;
      isr <= '0;
      args <= '0;
      rdata <= '0;
    end else begin
      if (awvalid && awready) {wa, have_wa} <= {awaddr, 1'b1};
      if (wvalid && wready) {wd, ws, have_wd} <= {wdata, wstrb, 1'b1};
      if (bvalid && bready) bvalid <= 1'b0;
      if (rvalid && rready) rvalid <= 1'b0;
      if (arvalid && arready) {rdata, rvalid} <= {read_reg(araddr), 1'b1};
      // Reading the control register clears done and ready (after it shows them).
      if (read_control) {ap_done, ap_ready} <= 2'b00;
      if (start) begin
        ap_idle <= 1'b0;
        ap_ready <= 1'b1;
        ap_start <= auto_restart;
        if (ier[1]) isr[1] <= 1'b1;
      end
      if (done) begin
        ap_idle <= 1'b1;
        ap_done <= 1'b1;
        if (ier[0]) isr[0] <= 1'b1;
      end
      if (do_write) begin
        {have_wa, have_wd, bvalid} <= 3'b001;
        if (wa == AW'(0)) begin
          if (ws[0] && wd[0]) ap_start <= 1'b1;
          if (ws[0]) auto_restart <= wd[7];
        end else if (wa == AW'(4)) gie <= ws[0] ? wd[0] : gie;
        else if (wa == AW'(8)) ier <= ws[0] ? wd[1:0] : ier;
        else if (wa == AW'(12)) isr <= ws[0] ? isr ^ wd[1:0] : isr;
        for (int k = 0; k < NARGS; k = k + 1) begin
          if (wa == AW'(16 + 8 * k)) args[64*k+:32] <= merge(args[64*k+:32], wd, ws);
          if (wa == AW'(20 + 8 * k)) args[64*k+32+:32] <= merge(args[64*k+32+:32], wd, ws);
        end
      end
    end
  end
endmodule
