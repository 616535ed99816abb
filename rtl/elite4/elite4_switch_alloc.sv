// SA, switch allocation of one output port (docs/elite4.md §5.5): a pending
// token goes first (lowest VC); otherwise the lowest candidate VC of a
// broadcast circuit; otherwise a round-robin choice among the candidate
// VCs. Whether a chosen broadcast VC really sends (all its outputs chose
// it) is decided across outputs by the top; a round-robin choice is always
// a unicast circuit whose only output is this one, so it always sends and
// the pointer moves past it.
module elite4_switch_alloc #(
  parameter int unsigned NumVcs = 2,
  localparam int unsigned VcW   = $clog2(NumVcs)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [NumVcs-1:0] tokp_i,      // a token pending on (o, v)
  input  logic [NumVcs-1:0] cand_i,      // (o, v) BUSY, its owner ready
  input  logic [NumVcs-1:0] bcand_i,     // ... and a broadcast circuit
  output logic              tok_send_o,
  output logic [VcW-1:0]    tok_vc_o,
  output logic [NumVcs-1:0] chose_o      // the data VC chosen (one-hot), none with a token
);

  logic [NumVcs-1:0] rr_gnt, bfirst, bc;
  logic [VcW-1:0]    unused_rr_idx;
  logic              rr_valid, rr_take, seen;

  common_rr_arbiter #(.NumReq(NumVcs)) u_rr (
    .clk_i, .rst_ni,
    .req_i       (cand_i),
    .ack_i       (rr_take),
    .gnt_o       (rr_gnt),
    .gnt_idx_o   (unused_rr_idx),
    .gnt_valid_o (rr_valid)
  );

  always_comb begin
    tok_send_o = tokp_i != '0;
    tok_vc_o   = '0;
    for (int v = NumVcs - 1; v >= 0; v--) if (tokp_i[v]) tok_vc_o = VcW'(v);
    bc = bcand_i & cand_i;   // a broadcast candidate is a candidate
    seen = 1'b0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      bfirst[v] = bc[v] && !seen;
      seen      = seen || bc[v];
    end
    rr_take = !tok_send_o && !seen && rr_valid;
    if (tok_send_o) chose_o = '0;
    else if (seen)  chose_o = bfirst;
    else            chose_o = rr_gnt;
  end

  // Assertions (docs/elite4.md "Assertions"; proved by `make formal`).
`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    // a token only on a VC with a token pending
    sa_token_pending: assert (!tok_send_o || tokp_i[tok_vc_o]);
    // token and data never on one link in one cycle
    sa_one_flit_per_link: assert (!(tok_send_o && chose_o != '0));
    // data only from a candidate (busy, owner ready: credit on every output), one VC
    sa_choice_candidate: assert ((chose_o & ~cand_i) == '0 && (chose_o & (chose_o - 1'b1)) == '0);
    // a broadcast candidate is never passed over for a unicast one
    sa_bcast_first: assert (tok_send_o || bc == '0 || (chose_o & bc) != '0);
  end
`endif

endmodule
