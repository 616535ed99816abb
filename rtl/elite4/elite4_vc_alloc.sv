// VA, output allocation of one VC (docs/elite4.md §5.4). A packet keeps its
// VC, so each VC is allocated on its own: one instance per VC.
//
// Broadcasts first: the lowest-numbered broadcast requester is the leader;
// it is granted when every output of its range is free, and its range is
// reserved either way. Each other output is arbitrated on its own by a
// round-robin arbiter over the inputs (elite4_va_arbiter, common_rr_arbiter's
// function; the pointer moves past the winner only when the output was free
// and not reserved). A unicast or adaptive requester asks for exactly one
// output, so no input is granted twice and no input-side selection is needed
// (separable, no chain of decisions across requesters).
//
// Written for depth (docs/elite4.md §10): the arbiters see the requests
// directly, and whether an output is free and unreserved gates their choice
// afterwards; the leader, its range and whether that range is free are
// worked out beside them, and the pieces of a request that are registered
// state only (route, tag, adaptive choice) are formed apart from the IDLE
// test. Same function as arbitrating only the grantable outputs.
//
// Per-input masks at [i*NumPorts + o]; per-output owners at [o*NumPorts + i].
module elite4_vc_alloc #(
  parameter int unsigned NumPorts = 8
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [NumPorts-1:0]          req_i,      // input i: IDLE, legal HEAD at the front
  input  logic [NumPorts-1:0]          up_i,       // ... with the adaptive tag
  input  logic [NumPorts-1:0]          bcast_i,    // ... with a broadcast
  input  logic [NumPorts*NumPorts-1:0] mask_i,     // ... its ports (explicit or range)
  input  logic [NumPorts-1:0]          free_i,     // output o: FREE
  input  logic                         upsel_valid_i,
  input  logic [NumPorts-1:0]          upsel_i,    // the adaptive choice, one-hot
  output logic [NumPorts-1:0]          grant_o,    // per input
  output logic [NumPorts-1:0]          take_o,     // per output: becomes BUSY
  output logic [NumPorts*NumPorts-1:0] owner_o,    // per output: the granted input, one-hot
  output logic [NumPorts-1:0]          take_bcast_o, // per output: taken by the broadcast leader
  output logic [NumPorts-1:0]          lmask_o,    // the leader's range
  output logic                         up_granted_o // an adaptive requester was granted
);

  logic [NumPorts-1:0]          leader, lmask, ureq_any, won, bcreq, lfree, earlier;
  logic [NumPorts*NumPorts-1:0] ureq, gnt;        // [o*NumPorts + i]
  logic                         lgrant;

  // the leader (the first broadcast requester), its range, and whether the
  // range is free: each input's range is checked against free_i on its own
  // (registered state only), the leader picks its answer
  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++) begin
      bcreq[i] = req_i[i] && bcast_i[i];
      lfree[i] = (mask_i[i*NumPorts +: NumPorts] & ~free_i) == '0;
    end
    for (int unsigned i = 0; i < NumPorts; i++) begin
      earlier[i] = 1'b0;
      for (int unsigned j = 0; j < i; j++) earlier[i] = earlier[i] || bcreq[j];
      leader[i] = bcreq[i] && !earlier[i];
    end
    lmask = '0;
    for (int unsigned i = 0; i < NumPorts; i++) begin
      if (leader[i]) lmask = lmask | mask_i[i*NumPorts +: NumPorts];
    end
    lgrant = (leader & lfree) != '0;
    lmask_o = lmask;
  end

  // unicast and adaptive requests, per output
  always_comb begin
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned i = 0; i < NumPorts; i++) begin
        ureq[o*NumPorts+i] = req_i[i] && !bcast_i[i] &&
                             (up_i[i] ? (upsel_valid_i && upsel_i[o]) : mask_i[i*NumPorts+o]);
      end
    end
  end

  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    elite4_va_arbiter #(.NumReq(NumPorts)) u_rr (
      .clk_i, .rst_ni,
      .req_i       (ureq[o*NumPorts +: NumPorts]),
      .ack_i       (won[o]),
      .gnt_o       (gnt[o*NumPorts +: NumPorts]),
      .gnt_valid_o (ureq_any[o])
    );
    // the arbiter's choice counts only on a free output outside the leader's range
    assign won[o] = ureq_any[o] && free_i[o] && !lmask[o];
  end

  always_comb begin
    grant_o = leader & lfree;
    up_granted_o = 1'b0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      take_o[o] = won[o] || (lgrant && lmask[o]);
      take_bcast_o[o] = lgrant && lmask[o];
      owner_o[o*NumPorts +: NumPorts] = won[o] ? gnt[o*NumPorts +: NumPorts] : leader;
      // a grant implies a request, so won's "some request" term is left
      // out of the input's grant (one level off the path to the input unit)
      for (int unsigned i = 0; i < NumPorts; i++) begin
        if (gnt[o*NumPorts+i] && free_i[o] && !lmask[o]) begin
          grant_o[i] = 1'b1;
          if (up_i[i]) up_granted_o = 1'b1;
        end
      end
    end
  end

  // Assertions (docs/elite4.md "Assertions"; proved by `make formal`).
`ifndef SYNTHESIS
  logic [NumPorts-1:0] a_ungranted, a_unfree, a_two;
  logic [NumPorts-1:0] a_claims, a_gnt_two, a_gnt_idle, a_gnt_lost;
  always_comb begin
    a_claims = '0; a_two = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      // each arbiter: common_rr_arbiter's grant properties (docs/common.md)
      a_gnt_two[o]  = (gnt[o*NumPorts +: NumPorts] & (gnt[o*NumPorts +: NumPorts] - 1'b1)) != '0;
      a_gnt_idle[o] = (gnt[o*NumPorts +: NumPorts] & ~ureq[o*NumPorts +: NumPorts]) != '0;
      a_gnt_lost[o] = ureq_any[o] != (gnt[o*NumPorts +: NumPorts] != '0);
      // a taken output goes to exactly one input that asked for it
      a_ungranted[o] = take_o[o] && ((owner_o[o*NumPorts +: NumPorts] & grant_o) == '0);
      a_unfree[o]    = take_o[o] && !free_i[o];
      a_two[o]       = take_o[o] && ((owner_o[o*NumPorts +: NumPorts] &
                                      (owner_o[o*NumPorts +: NumPorts] - 1'b1)) != '0);
    end
    for (int unsigned i = 0; i < NumPorts; i++) a_claims[i] = grant_o[i] && !req_i[i];
  end
  always_ff @(posedge clk_i) begin
    vca_grant_requested: assert (a_claims == '0 && a_ungranted == '0);
    vca_output_vc_once: assert (a_two == '0);
    vca_output_vc_free: assert (a_unfree == '0);
    vaa_gnt_onehot0: assert (a_gnt_two == '0);
    vaa_gnt_requested: assert (a_gnt_idle == '0);
    vaa_work_conserving: assert (a_gnt_lost == '0);
  end
`endif

endmodule
