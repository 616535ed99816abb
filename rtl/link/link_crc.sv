// Per-VC CRC-32 check of each TAIL against the BODY words of its packet.
// Spec: docs/link.md §6. The CRC itself is common_crc32 (one instance per VC,
// keep fixed at 4'b1111): the link has no CRC of its own.
//
// Timing (docs/link.md §6.1): the word is registered first (stage A) so the
// CRC's feedback starts from a register; a TAIL's compare ~crc ^ data is
// split over stages B, C, D so it never follows the VC select in one cycle.
// err_o pulses 5 cycles after the TAIL was at the input, as before.
module link_crc #(
  parameter int NumVcs = 2,
  localparam int VcW   = $clog2(NumVcs)
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           valid_i,
  input  logic [1:0]     kind_i,
  input  logic [VcW-1:0] vc_i,
  input  logic [31:0]    data_i,
  output logic           err_o,     // registered pulse: a TAIL's CRC did not match
  output logic           err_inc_o  // err_o of the next cycle (the counter's increment)
);

  if (NumVcs != 2 && NumVcs != 4) begin : gen_vcs_check
    $error("link_crc: NumVcs must be 2 or 4");
  end

  localparam logic [1:0] KindHead = 2'd0, KindBody = 2'd1, KindTail = 2'd2;

  // stage A: the word at the input
  logic           a_valid_q;
  logic [1:0]     a_kind_q;
  logic [VcW-1:0] a_vc_q;
  logic [31:0]    a_data_q;
  // stage B: a TAIL's crc_o ^ data (zero when it matches)
  logic           b_tail_q;
  logic [31:0]    b_x_q;
  // stage C: its bytes OR-reduced; stage D: the mismatch
  logic           c_check_q, c_tail_q;
  logic [3:0]     c_nz_q;
  logic           d_check_q, d_tail_q, d_ne_q;
  logic           err_q;

  logic              a_head, a_body, a_tail, check_d, err_d;
  logic [NumVcs-1:0] crc_init, crc_feed, unused_keep_err;
  logic [32*NumVcs-1:0] crc_all;
  logic [31:0]       crc_sel;

  assign a_head = a_valid_q && a_kind_q == KindHead;
  assign a_body = a_valid_q && a_kind_q == KindBody;
  assign a_tail = a_valid_q && a_kind_q == KindTail;

  // a HEAD restarts its VC's CRC, a BODY feeds it; a TAIL (and TOKEN) leaves it alone
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    assign crc_init[v] = a_head && a_vc_q == VcW'(v);
    assign crc_feed[v] = a_body && a_vc_q == VcW'(v);
    common_crc32 u_crc (
      .clk_i, .rst_ni,
      .init_i(crc_init[v]), .valid_i(crc_feed[v]), .data_i(a_data_q), .keep_i(4'b1111),
      .crc_o(crc_all[32*v +: 32]), .keep_err_o(unused_keep_err[v])
    );
  end

  always_comb begin
    // selection by a loop, not a computed part-select (docs/cosim.md, yosys 0.23)
    crc_sel = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (a_vc_q == VcW'(v)) crc_sel = crc_all[32*v +: 32];
    end
    check_d = b_tail_q;
    err_d   = d_check_q && d_ne_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q <= 1'b0;
      a_kind_q  <= '0;
      a_vc_q    <= '0;
      a_data_q  <= '0;
      b_tail_q  <= 1'b0;
      b_x_q     <= '0;
      c_check_q <= 1'b0;
      c_tail_q  <= 1'b0;
      c_nz_q    <= '0;
      d_check_q <= 1'b0;
      d_tail_q  <= 1'b0;
      d_ne_q    <= 1'b0;
      err_q     <= 1'b0;
    end else begin
      a_valid_q <= valid_i;
      a_kind_q  <= kind_i;
      a_vc_q    <= vc_i;
      a_data_q  <= data_i;
      b_tail_q  <= a_tail;
      b_x_q     <= crc_sel ^ a_data_q;
      c_check_q <= check_d;
      c_tail_q  <= b_tail_q;
      for (int g = 0; g < 4; g++) c_nz_q[g] <= |b_x_q[8*g +: 8];
      d_check_q <= c_check_q;
      d_tail_q  <= c_tail_q;
      d_ne_q    <= |c_nz_q;
      err_q     <= err_d;
    end
  end

  assign err_o     = err_q;
  assign err_inc_o = err_d;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    // a CRC error is only ever flagged for a TAIL
    lcrc_err_only_tail: assert (!err_d || d_tail_q);
  end
`endif

endmodule
