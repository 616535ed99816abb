// Receiver end of a link: alignment after training (a fixed AlignCycles
// latency; the last stage is the output register) and, per VC, the CRC-32 of
// each packet's BODY words checked against its TAIL (link_crc). Spec: docs/link.md §6.
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
  output logic             err_inc_o // crc_err_o pulses in the next cycle (counter)
);

  if (NumVcs != 2 && NumVcs != 4) begin : gen_vcs_check
    $error("link_rx: NumVcs must be 2 or 4");
  end
  if (AlignCycles < 1 || AlignCycles > 16) begin : gen_align_check
    $error("link_rx: AlignCycles must be 1..16");
  end

  logic [FlitW-1:0] f, rxq_q;
  logic             f_valid;
  logic [1:0]       f_kind;
  logic [VcW-1:0]   f_vc;
  logic [31:0]      f_data;

  link_wire #(.Width(FlitW), .Cycles(AlignCycles - 1)) u_align (
    .clk_i, .rst_ni, .in_i(flit_i), .out_o(f)
  );

  assign {f_valid, f_kind, f_vc, f_data} = f;

  // the CRC check of the word entering rxq; its flag comes 5 cycles later (docs/link.md §6.1)
  link_crc #(.NumVcs(NumVcs)) u_crc (
    .clk_i, .rst_ni, .valid_i(f_valid), .kind_i(f_kind), .vc_i(f_vc), .data_i(f_data),
    .err_o(crc_err_o), .err_inc_o
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rxq_q <= '0;
    end else begin
      rxq_q <= f;
    end
  end

  assign flit_o   = rxq_q;
  assign rx_inc_o = f_valid;

endmodule
