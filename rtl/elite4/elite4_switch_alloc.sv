// Switch allocation: which flit each output sends this cycle. Spec:
// docs/elite4.md §5.5.
//
// A pending token always goes first. Among the data VCs, a broadcast VC wins
// (lowest VC first: one priority on every output, so two broadcasts sharing
// outputs cannot block each other); otherwise a round-robin arbiter per
// output chooses, and moves on only when its choice was actually sent. A
// broadcast flit leaves only when every one of its outputs chose it.
module elite4_switch_alloc #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumVcs   = 2,
  localparam int unsigned NumReq  = NumPorts * NumVcs,
  localparam int unsigned VcW     = $clog2(NumVcs),
  localparam int unsigned PortW   = $clog2(NumPorts),
  localparam int unsigned ReqW    = $clog2(NumReq)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // output VCs (o, v) at o*NumVcs + v
  input  logic [NumPorts*NumVcs-1:0]  obusy_i,
  input  logic [NumPorts*NumVcs*PortW-1:0] owner_i,
  input  logic [NumPorts*NumVcs-1:0]  cred_avail_i,
  input  logic [NumPorts*NumVcs-1:0]  tokp_i,       // pending token on (o, v)
  // input VCs (i, v) at i*NumVcs + v
  input  logic [NumReq-1:0]           ready_i,
  input  logic [NumReq-1:0]           bcast_i,
  input  logic [NumReq*NumPorts-1:0]  outs_i,
  // decisions
  output logic [NumPorts-1:0]         tok_send_o,
  output logic [NumPorts*VcW-1:0]     tok_vc_o,
  output logic [NumPorts-1:0]         data_send_o,
  output logic [NumPorts*VcW-1:0]     data_vc_o,
  output logic [NumReq-1:0]           send_o,        // input VC sends on all its outputs
  output logic [NumPorts-1:0]         waiting_o      // some circuit had a flit, no data went (XmitWait)
);

  logic [NumReq-1:0]          all_cred;
  logic [NumPorts*NumVcs-1:0] cand;
  logic [NumPorts-1:0]        chose, chose_bcast;
  logic [NumPorts*VcW-1:0]    choice;
  logic [NumPorts*NumVcs-1:0] unused_rr_gnt;  // the index output is used instead
  logic [NumPorts*VcW-1:0]    rr_idx;
  logic [NumPorts-1:0]        rr_valid, rr_ack;

  // Loop temporaries at the top with defaults (see elite4_vc_alloc); each
  // always_comb has its own (a variable may be driven by one block only).
  logic [ReqW-1:0]  cand_i, choice_i, send_r;
  logic [PortW-1:0] cand_own, choice_own, send_own;
  logic             agree;

  // An input VC can send when every output of its circuit has a credit.
  always_comb begin
    for (int unsigned q = 0; q < NumReq; q++) begin
      all_cred[q] = 1'b1;
      for (int unsigned o = 0; o < NumPorts; o++) begin
        if (outs_i[q*NumPorts+o] && !cred_avail_i[o*NumVcs + (q % NumVcs)]) all_cred[q] = 1'b0;
      end
    end
  end

  // Candidates per output VC, and the tokens that go first.
  always_comb begin
    cand_own = '0; cand_i = '0;
    tok_send_o = '0;
    tok_vc_o   = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        cand_own = owner_i[(o*NumVcs+v)*PortW +: PortW];
        cand_i   = ReqW'(32'(cand_own) * NumVcs + v);
        cand[o*NumVcs+v] = obusy_i[o*NumVcs+v] && ready_i[cand_i] && all_cred[cand_i];
      end
      for (int v = NumVcs - 1; v >= 0; v--) begin  // lowest pending VC wins
        if (tokp_i[o*NumVcs + 32'(v)]) begin
          tok_send_o[o] = 1'b1;
          tok_vc_o[o*VcW +: VcW] = VcW'(v);
        end
      end
    end
  end

  for (genvar o = 0; o < NumPorts; o++) begin : gen_rr
    common_rr_arbiter #(.NumReq(NumVcs)) u_rr (
      .clk_i,
      .rst_ni,
      .req_i       (cand[o*NumVcs +: NumVcs]),
      .ack_i       (rr_ack[o]),
      .gnt_o       (unused_rr_gnt[o*NumVcs +: NumVcs]),
      .gnt_idx_o   (rr_idx[o*VcW +: VcW]),
      .gnt_valid_o (rr_valid[o])
    );
  end

  // Each output's choice: broadcast VCs first (lowest), else round-robin.
  always_comb begin
    choice_own = '0; choice_i = '0;
    chose = '0; chose_bcast = '0; choice = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int v = NumVcs - 1; v >= 0; v--) begin
        choice_own = owner_i[(o*NumVcs + 32'(v))*PortW +: PortW];
        choice_i   = ReqW'(32'(choice_own) * NumVcs + 32'(v));
        if (cand[o*NumVcs + 32'(v)] && bcast_i[choice_i]) begin
          chose_bcast[o] = 1'b1;
          choice[o*VcW +: VcW] = VcW'(v);
        end
      end
      if (!chose_bcast[o] && rr_valid[o]) choice[o*VcW +: VcW] = rr_idx[o*VcW +: VcW];
      chose[o] = (chose_bcast[o] || rr_valid[o]) && !tok_send_o[o];
    end
  end

  // An input VC sends when all of its outputs chose it (one output for a
  // unicast); an output sends data when its choice sends.
  always_comb begin
    agree = 1'b0; send_r = '0; send_own = '0;
    send_o = '0;
    for (int unsigned q = 0; q < NumReq; q++) begin
      agree = ready_i[q] && (outs_i[q*NumPorts +: NumPorts] != '0);
      for (int unsigned o = 0; o < NumPorts; o++) begin
        if (outs_i[q*NumPorts+o] &&
            !(chose[o] && 32'(choice[o*VcW +: VcW]) == q % NumVcs &&
              32'(owner_i[(o*NumVcs + q % NumVcs)*PortW +: PortW]) == q / NumVcs)) begin
          agree = 1'b0;
        end
      end
      send_o[q] = agree;
    end
    data_send_o = '0;
    data_vc_o   = choice;
    rr_ack      = '0;
    waiting_o   = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      send_own = owner_i[(o*NumVcs + 32'(choice[o*VcW +: VcW]))*PortW +: PortW];
      send_r   = ReqW'(32'(send_own) * NumVcs + 32'(choice[o*VcW +: VcW]));
      data_send_o[o] = chose[o] && send_o[send_r];
      rr_ack[o]      = data_send_o[o] && !chose_bcast[o];
      for (int unsigned v = 0; v < NumVcs; v++) begin
        send_own = owner_i[(o*NumVcs+v)*PortW +: PortW];
        if (obusy_i[o*NumVcs+v] && ready_i[32'(send_own)*NumVcs+v] && !data_send_o[o]) waiting_o[o] = 1'b1;
      end
    end
  end

  // Assertions (docs/elite4.md "Assertions"; proved by `make formal`,
  // docs/formal.md). They hold for any inputs. Not synthesized.
`ifndef SYNTHESIS
  logic [NumPorts-1:0] a_tok_unpending, a_data_nocred, a_data_idle;
  always_comb begin
    for (int unsigned o = 0; o < NumPorts; o++) begin
      // a token goes only on a VC with a token pending (a circuit it closes)
      a_tok_unpending[o] = tok_send_o[o] && !tokp_i[o*NumVcs + 32'(tok_vc_o[o*VcW +: VcW])];
      // data goes only on a busy output VC with a credit
      a_data_nocred[o] = data_send_o[o] && !cred_avail_i[o*NumVcs + 32'(data_vc_o[o*VcW +: VcW])];
      a_data_idle[o]   = data_send_o[o] && !obusy_i[o*NumVcs + 32'(data_vc_o[o*VcW +: VcW])];
    end
  end
  always_ff @(posedge clk_i) begin
    sa_token_pending: assert (a_tok_unpending == '0);
    sa_one_flit_per_link: assert ((tok_send_o & data_send_o) == '0);
    sa_data_has_credit: assert (a_data_nocred == '0);
    sa_data_on_busy_vc: assert (a_data_idle == '0);
  end
`endif

endmodule
