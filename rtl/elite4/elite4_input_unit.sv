// One input port of elite4: ARRIVE (a buffer per VC), the front rules of
// §5.2, the per-VC packet state (IDLE, ACTIVE, DROP, WAIT_TOKEN), the
// staging registers SA pops into, and the body CRC computed from them (ST).
// Spec: docs/elite4.md §5.1-5.3, §5.5, §5.6.
//
// Per-VC buses are flat: VC v's field at [v*W +: W]; per-(VC, port) masks at
// [v*NumPorts + o].
module elite4_input_unit #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumVcs   = 2,
  parameter int unsigned BufDepth = 8,
  localparam int unsigned VcW     = $clog2(NumVcs)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // the link: a flit arriving on this port (tokens are taken by the output unit)
  input  logic                       in_valid_i,
  input  logic [1:0]                 in_kind_i,
  input  logic [VcW-1:0]             in_vc_i,
  input  logic [31:0]                in_data_i,
  // VA: requests (IDLE with a legal HEAD at the front) and grants
  output logic [NumVcs-1:0]          req_o,
  output logic [NumVcs-1:0]          req_up_o,
  output logic [NumVcs-1:0]          req_bcast_o,
  output logic [NumVcs*NumPorts-1:0] req_mask_o,
  input  logic [NumVcs-1:0]          grant_i,
  input  logic [NumVcs*NumPorts-1:0] upsel_i,      // per VC: the adaptive choice, one-hot
  // SA: what it needs, and its decision
  input  logic [NumPorts*NumVcs-1:0] cred_avail_i, // (o, v) at o*NumVcs+v: cred > 0
  input  logic [NumPorts*NumVcs-1:0] cred_two_i,   // cred >= 2
  input  logic [NumPorts*NumVcs-1:0] in_credit_i,  // a credit returns to (o, v) this cycle
  output logic [NumVcs-1:0]          ready_o,      // ACTIVE, a flit, a credit on every output
  output logic [NumVcs-1:0]          waiting_o,    // ACTIVE with a flit (XmitWait)
  output logic [NumVcs*NumPorts-1:0] outs_o,
  output logic [NumVcs-1:0]          closing_o,    // the front ends the packet (TAIL, or HEAD after the HEAD)
  input  logic [NumVcs-1:0]          send_i,       // SA sends this VC's front this cycle
  // ST: the staged flits
  output logic [NumVcs-1:0]          stg_valid_o,
  output logic [NumVcs*2-1:0]        stg_kind_o,
  output logic [NumVcs*32-1:0]       stg_data_o,
  // T1: tokens that came back for this port's packets
  input  logic [NumVcs*NumPorts-1:0] tok_hit_i,    // ports whose token counts this cycle
  input  logic [NumVcs-1:0]          tok_ack_i,    // AND of those tokens' ack bits
  output logic [NumVcs-1:0]          tok_set_o,    // a token becomes pending upstream ...
  output logic [NumVcs-1:0]          tok_set_ack_o,// ... with this ack bit
  // credits to the upstream neighbour
  output logic [NumVcs-1:0]          out_credit_o,
  // error events of this cycle (§6)
  output logic [NumVcs-1:0]          ev_route_o,
  output logic [NumVcs-1:0]          ev_nopkt_o,
  output logic                       ev_ovf_o,
  output logic [NumVcs-1:0]          ev_trunc_o,
  output logic [NumVcs-1:0]          ev_crc_o
);

  logic [NumVcs*2-1:0]        ist_q, ist_d;
  logic [NumVcs*NumPorts-1:0] outs_q, outs_d, pend_q, pend_d;
  logic [NumVcs-1:0]          bcast_q, bcast_d, upn_q, upn_d, hsent_q, hsent_d, ack_q, ack_d;
  logic [NumVcs-1:0]          credit_q;
  // SA's facts, registered: computed at the end of each cycle from the next
  // state, so they are exactly what §5.5 would compute from it (see below)
  logic [NumVcs-1:0]          ready_q, ready_d, wait_q, wait_d;
  // staging registers (SA -> ST): flit, and whether it is the synthetic TAIL
  logic [NumVcs-1:0]          sv_q, sv_d, ssyn_q, ssyn_d;
  logic [NumVcs*2-1:0]        sk_q, sk_d;
  logic [NumVcs*32-1:0]       sd_q, sd_d;
  logic [NumVcs*32-1:0]       crc_q, crc_d, crc_nxt;
  // the staged TAIL's CRC check, prepared when it is staged: the front's data
  // against the CRC register as ST will read it (this cycle's crc_d)
  logic [NumVcs-1:0]          sbad_q, sbad_d;

  logic [NumVcs-1:0]          push, pop, full, fv, fv_next, legal, up, upn, bc;
  logic [NumVcs*2-1:0]        fkind;
  logic [NumVcs*32-1:0]       fdata;
  logic [NumVcs*NumPorts-1:0] fmask;

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    elite4_input_buf #(.NumPorts(NumPorts), .BufDepth(BufDepth)) u_buf (
      .clk_i, .rst_ni,
      .push_i        (push[v]),
      .push_kind_i   (in_kind_i),
      .push_data_i   (in_data_i),
      .pop_i         (pop[v]),
      .full_o        (full[v]),
      .front_valid_o (fv[v]),
      .front_valid_next_o (fv_next[v]),
      .front_kind_o  (fkind[v*2 +: 2]),
      .front_data_o  (fdata[v*32 +: 32]),
      .front_legal_o (legal[v]),
      .front_up_o    (up[v]),
      .front_upn_o   (upn[v]),
      .front_bcast_o (bc[v]),
      .front_mask_o  (fmask[v*NumPorts +: NumPorts])
    );
    elite4_crc_word u_crc (
      .crc_i  (crc_q[v*32 +: 32]),
      .data_i (sd_q[v*32 +: 32]),
      .nxt_o  (crc_nxt[v*32 +: 32])
    );
  end

  // Facts for the allocators: functions of registers only.
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      req_o[v]       = ist_q[v*2 +: 2] == elite4_pkg::InIdle && fv[v] &&
                       fkind[v*2 +: 2] == elite4_pkg::KindHead && legal[v];
      req_up_o[v]    = up[v];
      req_bcast_o[v] = bc[v];
      waiting_o[v]   = wait_q[v];
      ready_o[v]     = ready_q[v];
      closing_o[v]   = fkind[v*2 +: 2] == elite4_pkg::KindTail ||
                       (fkind[v*2 +: 2] == elite4_pkg::KindHead && hsent_q[v]);
    end
    req_mask_o = fmask;
    outs_o     = outs_q;
  end

  // Next state: front rules (§5.2), grants (§5.4), sends (§5.5), tokens (§5.3).
  always_comb begin
    ist_d   = ist_q;   outs_d  = outs_q;  pend_d = pend_q;
    bcast_d = bcast_q; upn_d = upn_q; hsent_d = hsent_q; ack_d  = ack_q;
    sv_d = '0; ssyn_d = '0; sk_d = '0; sd_d = '0;
    pop = '0; tok_set_o = '0; tok_set_ack_o = '0;
    ev_route_o = '0; ev_nopkt_o = '0; ev_trunc_o = '0;

    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic [1:0]          kind;
      logic [31:0]         data;
      logic [NumPorts-1:0] pend_left;
      logic                ack_left, head;
      kind = fkind[v*2 +: 2];
      data = fdata[v*32 +: 32];
      head = kind == elite4_pkg::KindHead;
      pend_left = pend_q[v*NumPorts +: NumPorts] & ~tok_hit_i[v*NumPorts +: NumPorts];
      ack_left  = ack_q[v] & tok_ack_i[v];

      case (ist_q[v*2 +: 2])
        elite4_pkg::InIdle: begin
          if (fv[v] && head && !legal[v]) begin
            pop[v] = 1'b1; ev_route_o[v] = 1'b1;
            tok_set_o[v] = 1'b1; tok_set_ack_o[v] = 1'b0;   // nack upstream
            ist_d[v*2 +: 2] = elite4_pkg::InDrop;
          end else if (fv[v] && !head) begin
            pop[v] = 1'b1; ev_nopkt_o[v] = 1'b1;
          end
          // §5.4's grant loads the circuit's fields; they are read only in
          // ACTIVE and WAIT_TOKEN, so an IDLE VC loads them every cycle and
          // the grant only moves the state: the grant's fan-out is two state
          // bits and ready, not the masks (docs/elite4.md §10; ours).
          // iu_idle_preload checks the fields against the grant's values.
          outs_d[v*NumPorts +: NumPorts] = up[v] ? upsel_i[v*NumPorts +: NumPorts]
                                                 : fmask[v*NumPorts +: NumPorts];
          pend_d[v*NumPorts +: NumPorts] = outs_d[v*NumPorts +: NumPorts];
          bcast_d[v] = bc[v];
          upn_d[v]   = upn[v];
          hsent_d[v] = 1'b0;
          ack_d[v]   = 1'b1;
          if (grant_i[v]) ist_d[v*2 +: 2] = elite4_pkg::InActive;
        end
        elite4_pkg::InDrop: begin
          if (fv[v] && head) begin
            ist_d[v*2 +: 2] = elite4_pkg::InIdle;   // decoded next cycle
            ev_trunc_o[v] = 1'b1;
          end else if (fv[v]) begin
            pop[v] = 1'b1;
            if (kind == elite4_pkg::KindTail) ist_d[v*2 +: 2] = elite4_pkg::InIdle;
          end
        end
        elite4_pkg::InActive: begin
          // early tokens (a switch further on nacked the HEAD) count already
          pend_d[v*NumPorts +: NumPorts] = pend_left;
          ack_d[v] = ack_left;
          if (send_i[v]) begin
            sv_d[v] = 1'b1;
            if (head && !hsent_q[v]) begin
              pop[v] = 1'b1;
              hsent_d[v] = 1'b1;
              sk_d[v*2 +: 2]   = elite4_pkg::KindHead;
              // §3: two tags off for a broadcast or a counted up tag with
              // k = 1, the count decremented in place for k > 1, else one tag
              if (upn_q[v] && data[7:4] != 4'd1)
                sd_d[v*32 +: 32] = {data[31:8], data[7:4] - 4'd1, elite4_pkg::TagUpN};
              else if (bcast_q[v] || upn_q[v])
                sd_d[v*32 +: 32] = {8'hFF, data[31:8]};
              else
                sd_d[v*32 +: 32] = {4'hF, data[31:4]};
            end else if (head) begin
              // a new HEAD where the tail should be: close with the poisoned TAIL
              ev_trunc_o[v] = 1'b1;
              ssyn_d[v] = 1'b1;
              sk_d[v*2 +: 2]   = elite4_pkg::KindTail;
              sd_d[v*32 +: 32] = elite4_pkg::PoisonTail;
            end else begin
              pop[v] = 1'b1;
              sk_d[v*2 +: 2]   = kind;
              sd_d[v*32 +: 32] = data;
            end
            if (closing_o[v]) begin
              if (pend_left == '0) begin
                ist_d[v*2 +: 2] = elite4_pkg::InIdle;
                tok_set_o[v] = 1'b1; tok_set_ack_o[v] = ack_left;
              end else begin
                ist_d[v*2 +: 2] = elite4_pkg::InWaitToken;
              end
            end
          end
        end
        default: begin  // InWaitToken
          pend_d[v*NumPorts +: NumPorts] = pend_left;
          ack_d[v] = ack_left;
          if (pend_left == '0) begin
            ist_d[v*2 +: 2] = elite4_pkg::InIdle;
            tok_set_o[v] = 1'b1; tok_set_ack_o[v] = ack_left;
          end
        end
      endcase
    end

    // ARRIVE: tokens are not buffered; a flit into a full buffer that is not
    // popped in this cycle is lost (credit overflow).
    push = '0;
    ev_ovf_o = 1'b0;
    if (in_valid_i && in_kind_i != elite4_pkg::KindToken) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        if (32'(in_vc_i) == v) begin
          push[v]  = 1'b1;
          ev_ovf_o = full[v] && !pop[v];
        end
      end
    end
  end

  // SA's registered facts for the next cycle: ACTIVE with a flit at the front
  // (wait), and a credit on every output of the circuit (ready). The credit
  // of (o, v), o in outs, can only be consumed by this VC's own send, so
  // "cred > 0 next cycle" is known from the counter, the returning credit and
  // send_i alone; a new circuit's outputs were FREE, so nothing consumes them.
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic ac_send, ac_hold, ac_new;
      logic [NumPorts-1:0] new_outs;
      new_outs = up[v] ? upsel_i[v*NumPorts +: NumPorts] : fmask[v*NumPorts +: NumPorts];
      ac_send = 1'b1; ac_hold = 1'b1; ac_new = 1'b1;
      for (int unsigned o = 0; o < NumPorts; o++) begin
        if (outs_q[v*NumPorts+o] && !(cred_two_i[o*NumVcs+v] || in_credit_i[o*NumVcs+v])) ac_send = 1'b0;
        if (outs_q[v*NumPorts+o] && !(cred_avail_i[o*NumVcs+v] || in_credit_i[o*NumVcs+v])) ac_hold = 1'b0;
        if (new_outs[o] && !(cred_avail_i[o*NumVcs+v] || in_credit_i[o*NumVcs+v])) ac_new = 1'b0;
      end
      wait_d[v]  = ist_d[v*2 +: 2] == elite4_pkg::InActive && fv_next[v];
      ready_d[v] = wait_d[v] && (grant_i[v] ? ac_new : send_i[v] ? ac_send : ac_hold);
    end
  end

  // ST: the body CRC from the staged flit; a grant starts a new packet's CRC.
  always_comb begin
    crc_d = crc_q;
    ev_crc_o = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (sv_q[v] && sk_q[v*2 +: 2] == elite4_pkg::KindBody) crc_d[v*32 +: 32] = crc_nxt[v*32 +: 32];
      if (sv_q[v] && sk_q[v*2 +: 2] == elite4_pkg::KindTail && !ssyn_q[v] && sbad_q[v]) ev_crc_o[v] = 1'b1;
      // a new packet's CRC starts at the grant; IDLE loads it every cycle
      // (read only in ACTIVE, and no BODY is staged while IDLE)
      if (ist_q[v*2 +: 2] == elite4_pkg::InIdle) crc_d[v*32 +: 32] = 32'hFFFFFFFF;
      // a grant (IDLE) and a staged TAIL (ACTIVE) never meet on one VC, so
      // the register ST reads in the next cycle is the CRC fed (or not) by
      // the staged BODY alone
      sbad_d[v] = fdata[v*32 +: 32] != ~((sv_q[v] && sk_q[v*2 +: 2] == elite4_pkg::KindBody)
                                         ? crc_nxt[v*32 +: 32] : crc_q[v*32 +: 32]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ist_q <= '0; outs_q <= '0; pend_q <= '0; bcast_q <= '0; upn_q <= '0; hsent_q <= '0; ack_q <= '0;
      credit_q <= '0; ready_q <= '0; wait_q <= '0;
      sv_q <= '0; ssyn_q <= '0; sk_q <= '0; sd_q <= '0; sbad_q <= '0;
      crc_q <= '1;
    end else begin
      ist_q <= ist_d; outs_q <= outs_d; pend_q <= pend_d; bcast_q <= bcast_d; upn_q <= upn_d;
      hsent_q <= hsent_d; ack_q <= ack_d;
      credit_q <= pop;      // every pop frees a slot upstream
      ready_q <= ready_d; wait_q <= wait_d;
      sv_q <= sv_d; ssyn_q <= ssyn_d; sk_q <= sk_d; sd_q <= sd_d; sbad_q <= sbad_d;
      crc_q <= crc_d;
    end
  end

`ifndef SYNTHESIS
  // the registered facts are exactly §5.5's, computed from this cycle's state
  logic [NumVcs-1:0] a_ready, a_wait;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic all_cred;
      all_cred = 1'b1;
      for (int unsigned o = 0; o < NumPorts; o++) begin
        if (outs_q[v*NumPorts+o] && !cred_avail_i[o*NumVcs+v]) all_cred = 1'b0;
      end
      a_wait[v]  = ist_q[v*2 +: 2] == elite4_pkg::InActive && fv[v];
      a_ready[v] = a_wait[v] && all_cred;
    end
  end
  // the circuit's fields, loaded every IDLE cycle, are in the cycle after a
  // grant what §5.4's grant sets (the reference form: loaded at the grant)
  logic [NumVcs-1:0]          a_gnt_q, a_bc_q, a_upn_q, a_load;
  logic [NumVcs*NumPorts-1:0] a_outs_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) a_gnt_q <= '0;
    else         a_gnt_q <= grant_i;
  end
  always_ff @(posedge clk_i) begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (grant_i[v]) begin
        a_outs_q[v*NumPorts +: NumPorts] <= up[v] ? upsel_i[v*NumPorts +: NumPorts]
                                                  : fmask[v*NumPorts +: NumPorts];
        a_bc_q[v]  <= bc[v];
        a_upn_q[v] <= upn[v];
      end
    end
  end
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      a_load[v] = !a_gnt_q[v] ||
                  (ist_q[v*2 +: 2] == elite4_pkg::InActive &&
                   outs_q[v*NumPorts +: NumPorts] == a_outs_q[v*NumPorts +: NumPorts] &&
                   pend_q[v*NumPorts +: NumPorts] == a_outs_q[v*NumPorts +: NumPorts] &&
                   bcast_q[v] == a_bc_q[v] && upn_q[v] == a_upn_q[v] &&
                   !hsent_q[v] && ack_q[v] && crc_q[v*32 +: 32] == 32'hFFFFFFFF);
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      iu_ready_exact: assert (ready_q == a_ready && wait_q == a_wait);
      iu_idle_preload: assert (a_load == '1);
    end
  end
`endif

  assign out_credit_o = credit_q;
  assign stg_valid_o  = sv_q;
  assign stg_kind_o   = sk_q;
  assign stg_data_o   = sd_q;

endmodule
