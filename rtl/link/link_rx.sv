// Receiver end of a link: alignment after training (a fixed AlignCycles
// latency; the last stage is the output register) and, per VC, the CRC-32 of
// each packet's BODY words checked against its TAIL. Spec: docs/link.md §6.
module link_rx #(
  parameter int NumVcs      = 2,
  parameter int AlignCycles = 2,
  localparam int VcW        = $clog2(NumVcs),
  localparam int FlitW      = 1 + 2 + VcW + 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [FlitW-1:0] flit_i,   // from the cable {valid, kind, vc, data}
  output logic [FlitW-1:0] flit_o,   // the output register
  output logic             crc_err_o,
  output logic             rx_inc_o, // a flit enters the output register (counter)
  output logic             err_inc_o // crc_err_o will pulse with it (counter)
);

  if (NumVcs != 2 && NumVcs != 4) begin : gen_vcs_check
    $error("link_rx: NumVcs must be 2 or 4");
  end
  if (AlignCycles < 1 || AlignCycles > 16) begin : gen_align_check
    $error("link_rx: AlignCycles must be 1..16");
  end

  localparam logic [1:0] KindHead = 2'd0, KindBody = 2'd1, KindTail = 2'd2;

  logic [FlitW-1:0] f, rxq_q;
  logic             crcerr_q, crcerr_d;
  logic             f_valid;
  logic [1:0]       f_kind;
  logic [VcW-1:0]   f_vc;
  logic [31:0]      f_data;
  logic [31:0]      crc [NumVcs];

  link_wire #(.Width(FlitW), .Cycles(AlignCycles - 1)) u_align (
    .clk_i, .rst_ni, .in_i(flit_i), .out_o(f)
  );

  assign {f_valid, f_kind, f_vc, f_data} = f;

  // one CRC register per VC: HEAD restarts it, BODY feeds 4 bytes
  for (genvar v = 0; v < NumVcs; v++) begin : gen_crc
    logic mine;
    logic unused_keep_err; // keep_i is constant 4'b1111
    assign mine = f_valid && (f_vc == VcW'(v));
    common_crc32 u_crc (
      .clk_i, .rst_ni,
      .init_i (mine && f_kind == KindHead),
      .valid_i(mine && f_kind == KindBody),
      .data_i (f_data),
      .keep_i (4'b1111),
      .crc_o  (crc[v]),
      .keep_err_o(unused_keep_err)
    );
  end

  assign crcerr_d = f_valid && f_kind == KindTail && f_data != crc[f_vc];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rxq_q    <= '0;
      crcerr_q <= 1'b0;
    end else begin
      rxq_q    <= f;
      crcerr_q <= crcerr_d;
    end
  end

  assign flit_o    = rxq_q;
  assign crc_err_o = crcerr_q;
  assign rx_inc_o  = f_valid;
  assign err_inc_o = crcerr_d;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    // a CRC error is only ever flagged for a TAIL
    lrx_err_only_tail: assert (!crcerr_d || (f_valid && f_kind == KindTail));
  end
`endif

endmodule
