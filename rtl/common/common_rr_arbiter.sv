// Round-robin arbiter. Spec: docs/common.md#common_rr_arbiter.
//
// The grant is combinational from req_i; the priority pointer moves past the
// winner only when the grant is taken (ack_i), so a requester that keeps
// asking waits for at most NumReq-1 other grants.
module common_rr_arbiter #(
  parameter int unsigned NumReq = 4,
  localparam int unsigned IdxW = $clog2(NumReq)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [NumReq-1:0] req_i,
  input  logic              ack_i,
  output logic [NumReq-1:0] gnt_o,
  output logic [IdxW-1:0]   gnt_idx_o,
  output logic              gnt_valid_o
);

  if (NumReq < 2 || NumReq > 64) begin : gen_req_check
    $error("common_rr_arbiter: NumReq must be 2..64");
  end

  logic [IdxW-1:0] ptr_q, ptr_d;
  logic [IdxW-1:0] winner;
  logic            found;

  // Scan from ptr_q upwards, wrapping at NumReq; the first request wins.
  always_comb begin
    winner = '0;
    found  = 1'b0;
    for (int unsigned k = 0; k < NumReq; k++) begin
      int unsigned idx;
      idx = 32'(ptr_q) + k;
      if (idx >= NumReq) idx = idx - NumReq;
      if (!found && req_i[idx]) begin
        found  = 1'b1;
        winner = IdxW'(idx);
      end
    end
  end

  always_comb begin
    ptr_d = ptr_q;
    if (found && ack_i) begin
      ptr_d = (winner == IdxW'(NumReq - 1)) ? '0 : winner + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ptr_q <= '0;
    else         ptr_q <= ptr_d;
  end

  assign gnt_valid_o = found;
  assign gnt_idx_o   = winner;
  assign gnt_o       = found ? (NumReq'(1) << winner) : '0;

  // Assertions (docs/common.md#assertions): on in every Verilated lockstep,
  // proved by `make formal` (docs/formal.md). Not synthesized.
`ifndef SYNTHESIS
  // No rst_ni guard: the invariants hold in the reset state too.
  always_ff @(posedge clk_i) begin
    arb_ptr_in_range: assert (32'(ptr_q) < NumReq);
    arb_gnt_onehot0: assert ((gnt_o & (gnt_o - 1'b1)) == '0);
    arb_gnt_requested: assert ((gnt_o & ~req_i) == '0);
    arb_work_conserving: assert (gnt_valid_o == (req_i != '0));
  end
`endif

endmodule
