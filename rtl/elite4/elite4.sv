// elite4: NumPorts-port, NumVcs-VC source-routed wormhole switch, pipelined.
// Spec: docs/elite4.md (§5: ARRIVE -> VA -> SA -> ST, tokens in T1).
//
// Every stage reads registered state only: VA (elite4_vc_alloc, one per VC)
// sees the decoded HEADs held in the input buffers' front registers, the
// output VC states and the registered adaptive choice (elite4_up_select);
// SA (elite4_switch_alloc, one per output) pops into the input units'
// staging registers; ST (elite4_crossbar) moves staged flits into the output
// registers. This module only routes facts between the units: per output
// VC, its owner (one-hot) selects the owner's facts, so no stage chains the
// decisions of different requesters.
// Buses are flat: port p's field at [p*W +: W], (port, VC) bits at p*NumVcs+v.
module elite4 #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumVcs   = 2,
  parameter int unsigned BufDepth = 8,
  parameter int unsigned UpMask   = 32'hF0,   // bit p: port p is an up-link
  localparam int unsigned VcW     = $clog2(NumVcs),
  localparam int unsigned NumReq  = NumPorts * NumVcs,
  localparam int unsigned EvW     = $clog2(2 * NumVcs + 2)   // early error events per port and cycle
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [NumPorts-1:0]        in_valid_i,
  input  logic [2*NumPorts-1:0]      in_kind_i,
  input  logic [VcW*NumPorts-1:0]    in_vc_i,
  input  logic [32*NumPorts-1:0]     in_data_i,
  input  logic [NumReq-1:0]          in_credit_i,
  output logic [NumPorts-1:0]        out_valid_o,
  output logic [2*NumPorts-1:0]      out_kind_o,
  output logic [VcW*NumPorts-1:0]    out_vc_o,
  output logic [32*NumPorts-1:0]     out_data_o,
  output logic [NumReq-1:0]          out_credit_o,
  output logic [NumReq-1:0]          alloc_o,
  output logic [NumPorts-1:0]        err_o,
  output logic [3*NumPorts-1:0]      err_code_o,
  output logic [32*NumPorts-1:0]     cnt_xmit_flits_o,
  output logic [32*NumPorts-1:0]     cnt_rcv_flits_o,
  output logic [32*NumPorts-1:0]     cnt_xmit_pkts_o,
  output logic [32*NumPorts-1:0]     cnt_rcv_pkts_o,
  output logic [32*NumPorts-1:0]     cnt_xmit_wait_o,
  output logic [32*NumPorts-1:0]     cnt_errors_o,
  output logic [32*NumPorts-1:0]     cnt_crc_errors_o
);

  if (NumPorts < 2 || NumPorts > 16) begin : gen_ports_check
    $error("elite4: NumPorts must be 2..16");
  end
  if (NumVcs != 2 && NumVcs != 4) begin : gen_vcs_check
    $error("elite4: NumVcs must be 2 or 4");
  end
  if (BufDepth < 4 || BufDepth > 64) begin : gen_depth_check
    $error("elite4: BufDepth must be 4..64");
  end

  localparam int unsigned PP = NumPorts * NumPorts;

  // input units, (i, v) at i*NumVcs+v; masks of (i, v) at (i*NumVcs+v)*NumPorts + o
  logic [NumReq-1:0]          req, req_up, req_bc, grant, ready, waiting, closing, send;
  logic [NumReq*NumPorts-1:0] req_mask, outs, tok_hit_in;
  logic [NumReq-1:0]          tok_ack_in, tok_set, tok_set_ack;
  logic [NumReq-1:0]          stg_valid;
  logic [NumReq*2-1:0]        stg_kind;
  logic [NumReq*32-1:0]       stg_data;
  logic [NumReq-1:0]          ev_route, ev_nopkt, ev_trunc, ev_crc;
  logic [NumPorts-1:0]        ev_ovf;
  // output units, (o, v) at o*NumVcs+v; owners of (o, v) at (o*NumVcs+v)*NumPorts + i
  logic [NumReq-1:0]          free, busy, cred_avail, cred_empty, cred_two, tokp, tokack, tok_hit;
  logic [NumReq-1:0]          take, tail_sent;
  logic [NumReq*NumPorts-1:0] owner, take_owner, take_outs, oouts;
  logic [NumReq-1:0]          take_bc, obcast, agree, consume;
  logic [NumPorts-1:0]        tok_ack_out, ev_stray;
  logic [NumReq-1:0]          ev_tok_ovf, ev_cred_ovf;
  // per VC: VA inputs in VC-major order, and the adaptive choice
  logic [NumVcs*NumPorts-1:0] va_req, va_up, va_bc, va_free, va_grant, va_take;
  logic [NumVcs*PP-1:0]       va_mask, va_owner;
  logic [NumVcs*NumPorts-1:0] va_take_bc, va_lmask;
  logic [NumVcs-1:0]          up_valid, up_granted;
  logic [NumVcs*NumPorts-1:0] up_sel;
  logic [NumVcs*NumPorts-1:0] up_free, up_empty, up_avail;
  // SA
  logic [NumReq-1:0]          cand, bcand, chose;
  logic [NumPorts-1:0]        tok_send, data_send, wait_out, xmit, xmit_pkt;
  logic [NumPorts*VcW-1:0]    tok_vc, data_vc;
  logic [NumPorts-1:0]        tok_ack_sel;
  logic [NumPorts*NumReq-1:0] data_src;

  for (genvar p = 0; p < NumPorts; p++) begin : gen_in
    elite4_input_unit #(.NumPorts(NumPorts), .NumVcs(NumVcs), .BufDepth(BufDepth)) u_in (
      .clk_i, .rst_ni,
      .in_valid_i    (in_valid_i[p]),
      .in_kind_i     (in_kind_i[p*2 +: 2]),
      .in_vc_i       (in_vc_i[p*VcW +: VcW]),
      .in_data_i     (in_data_i[p*32 +: 32]),
      .req_o         (req[p*NumVcs +: NumVcs]),
      .req_up_o      (req_up[p*NumVcs +: NumVcs]),
      .req_bcast_o   (req_bc[p*NumVcs +: NumVcs]),
      .req_mask_o    (req_mask[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .grant_i       (grant[p*NumVcs +: NumVcs]),
      .upsel_i       (up_sel),
      .cred_avail_i  (cred_avail),
      .cred_two_i    (cred_two),
      .in_credit_i   (in_credit_i),
      .ready_o       (ready[p*NumVcs +: NumVcs]),
      .waiting_o     (waiting[p*NumVcs +: NumVcs]),
      .outs_o        (outs[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .closing_o     (closing[p*NumVcs +: NumVcs]),
      .send_i        (send[p*NumVcs +: NumVcs]),
      .stg_valid_o   (stg_valid[p*NumVcs +: NumVcs]),
      .stg_kind_o    (stg_kind[p*NumVcs*2 +: NumVcs*2]),
      .stg_data_o    (stg_data[p*NumVcs*32 +: NumVcs*32]),
      .tok_hit_i     (tok_hit_in[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .tok_ack_i     (tok_ack_in[p*NumVcs +: NumVcs]),
      .tok_set_o     (tok_set[p*NumVcs +: NumVcs]),
      .tok_set_ack_o (tok_set_ack[p*NumVcs +: NumVcs]),
      .out_credit_o  (out_credit_o[p*NumVcs +: NumVcs]),
      .ev_route_o    (ev_route[p*NumVcs +: NumVcs]),
      .ev_nopkt_o    (ev_nopkt[p*NumVcs +: NumVcs]),
      .ev_ovf_o      (ev_ovf[p]),
      .ev_trunc_o    (ev_trunc[p*NumVcs +: NumVcs]),
      .ev_crc_o      (ev_crc[p*NumVcs +: NumVcs])
    );
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_out
    elite4_output_unit #(.NumPorts(NumPorts), .NumVcs(NumVcs), .BufDepth(BufDepth)) u_out (
      .clk_i, .rst_ni,
      .in_valid_i    (in_valid_i[p]),
      .in_kind_i     (in_kind_i[p*2 +: 2]),
      .in_vc_i       (in_vc_i[p*VcW +: VcW]),
      .in_ack_i      (in_data_i[p*32]),
      .take_i        (take[p*NumVcs +: NumVcs]),
      .take_owner_i  (take_owner[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .take_bcast_i  (take_bc[p*NumVcs +: NumVcs]),
      .take_outs_i   (take_outs[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .tail_sent_i   (tail_sent[p*NumVcs +: NumVcs]),
      .data_send_i   (data_send[p]),
      .data_vc_i     (data_vc[p*VcW +: VcW]),
      .consume_i     (consume[p*NumVcs +: NumVcs]),
      .tok_set_i     (tok_set[p*NumVcs +: NumVcs]),
      .tok_set_ack_i (tok_set_ack[p*NumVcs +: NumVcs]),
      .tok_send_i    (tok_send[p]),
      .tok_vc_i      (tok_vc[p*VcW +: VcW]),
      .tokp_o        (tokp[p*NumVcs +: NumVcs]),
      .tokack_o      (tokack[p*NumVcs +: NumVcs]),
      .free_o        (free[p*NumVcs +: NumVcs]),
      .busy_o        (busy[p*NumVcs +: NumVcs]),
      .owner_o       (owner[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .obcast_o      (obcast[p*NumVcs +: NumVcs]),
      .oouts_o       (oouts[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .cred_avail_o  (cred_avail[p*NumVcs +: NumVcs]),
      .cred_empty_o  (cred_empty[p*NumVcs +: NumVcs]),
      .cred_two_o    (cred_two[p*NumVcs +: NumVcs]),
      .tok_hit_o     (tok_hit[p*NumVcs +: NumVcs]),
      .tok_ack_o     (tok_ack_out[p]),
      .in_credit_i   (in_credit_i[p*NumVcs +: NumVcs]),
      .ev_stray_o    (ev_stray[p]),
      .ev_tok_ovf_o  (ev_tok_ovf[p*NumVcs +: NumVcs]),
      .ev_cred_ovf_o (ev_cred_ovf[p*NumVcs +: NumVcs])
    );
  end

  // VA and the adaptive choice, one of each per VC: regroup the buses by VC.
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      for (int unsigned a = 0; a < NumPorts; a++) begin
        va_req[v*NumPorts+a]  = req[a*NumVcs+v];
        va_up[v*NumPorts+a]   = req_up[a*NumVcs+v];
        va_bc[v*NumPorts+a]   = req_bc[a*NumVcs+v];
        va_free[v*NumPorts+a] = free[a*NumVcs+v];
        up_free[v*NumPorts+a] = free[a*NumVcs+v];
        up_empty[v*NumPorts+a] = cred_empty[a*NumVcs+v];
        up_avail[v*NumPorts+a] = cred_avail[a*NumVcs+v];
        for (int unsigned b = 0; b < NumPorts; b++) begin
          va_mask[v*PP + a*NumPorts+b] = req_mask[(a*NumVcs+v)*NumPorts+b];
        end
      end
    end
    for (int unsigned a = 0; a < NumPorts; a++) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        grant[a*NumVcs+v] = va_grant[v*NumPorts+a];
        take[a*NumVcs+v]  = va_take[v*NumPorts+a];
        take_bc[a*NumVcs+v] = va_take_bc[v*NumPorts+a];
        for (int unsigned b = 0; b < NumPorts; b++) begin
          take_owner[(a*NumVcs+v)*NumPorts+b] = va_owner[v*PP + a*NumPorts+b];
          // a unicast circuit's only output is this one; a broadcast's, its range
          take_outs[(a*NumVcs+v)*NumPorts+b]  = va_take_bc[v*NumPorts+a] ? va_lmask[v*NumPorts+b] : (a == b);
        end
      end
    end
  end

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    elite4_vc_alloc #(.NumPorts(NumPorts)) u_va (
      .clk_i, .rst_ni,
      .req_i         (va_req[v*NumPorts +: NumPorts]),
      .up_i          (va_up[v*NumPorts +: NumPorts]),
      .bcast_i       (va_bc[v*NumPorts +: NumPorts]),
      .mask_i        (va_mask[v*PP +: PP]),
      .free_i        (va_free[v*NumPorts +: NumPorts]),
      .upsel_valid_i (up_valid[v]),
      .upsel_i       (up_sel[v*NumPorts +: NumPorts]),
      .grant_o       (va_grant[v*NumPorts +: NumPorts]),
      .take_o        (va_take[v*NumPorts +: NumPorts]),
      .owner_o       (va_owner[v*PP +: PP]),
      .take_bcast_o  (va_take_bc[v*NumPorts +: NumPorts]),
      .lmask_o       (va_lmask[v*NumPorts +: NumPorts]),
      .up_granted_o  (up_granted[v])
    );
    elite4_up_select #(.NumPorts(NumPorts), .UpMask(UpMask)) u_up (
      .clk_i, .rst_ni,
      .free_i    (up_free[v*NumPorts +: NumPorts]),
      .empty_i   (up_empty[v*NumPorts +: NumPorts]),
      .avail_i   (up_avail[v*NumPorts +: NumPorts]),
      .granted_i (up_granted[v]),
      .valid_o   (up_valid[v]),
      .sel_o     (up_sel[v*NumPorts +: NumPorts])
    );
  end

  // SA candidates: an output VC that is BUSY and whose owner is ready.
  always_comb begin
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        logic r;
        r = 1'b0;
        for (int unsigned i = 0; i < NumPorts; i++) begin
          if (owner[(o*NumVcs+v)*NumPorts+i]) begin
            r = r | ready[i*NumVcs+v];
          end
        end
        cand[o*NumVcs+v]  = busy[o*NumVcs+v] && r;
        bcand[o*NumVcs+v] = busy[o*NumVcs+v] && r && obcast[o*NumVcs+v];
      end
    end
  end

  for (genvar o = 0; o < NumPorts; o++) begin : gen_sa
    elite4_switch_alloc #(.NumVcs(NumVcs)) u_sa (
      .clk_i, .rst_ni,
      .tokp_i     (tokp[o*NumVcs +: NumVcs]),
      .cand_i     (cand[o*NumVcs +: NumVcs]),
      .bcand_i    (bcand[o*NumVcs +: NumVcs]),
      .tok_send_o (tok_send[o]),
      .tok_vc_o   (tok_vc[o*VcW +: VcW]),
      .chose_o    (chose[o*NumVcs +: NumVcs])
    );
  end

  // An input VC sends when every output of its circuit chose it (the one
  // output of a unicast; all of a broadcast's); an output sends data when
  // its chosen VC's owner sends.
  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        logic all;
        all = ready[i*NumVcs+v];
        for (int unsigned o = 0; o < NumPorts; o++) begin
          if (outs[(i*NumVcs+v)*NumPorts+o] && !chose[o*NumVcs+v]) all = 1'b0;
        end
        send[i*NumVcs+v] = all;
      end
    end
    // the same agreement seen from each output: all outputs of the circuit
    // of (o, v) chose v (the copy of the owner's outs avoids a multiplexer)
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        logic all;
        all = 1'b1;
        for (int unsigned b = 0; b < NumPorts; b++) begin
          if (oouts[(o*NumVcs+v)*NumPorts+b] && !chose[b*NumVcs+v]) all = 1'b0;
        end
        agree[o*NumVcs+v]   = all;
        consume[o*NumVcs+v] = all && chose[o*NumVcs+v];
      end
    end
    data_src = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      logic w;
      data_send[o] = 1'b0;
      data_vc[o*VcW +: VcW] = '0;
      tok_ack_sel[o] = tokack[o*NumVcs + 32'(tok_vc[o*VcW +: VcW])];
      w = 1'b0;
      for (int unsigned v = 0; v < NumVcs; v++) begin
        logic t;
        t = 1'b0;
        for (int unsigned i = 0; i < NumPorts; i++) begin
          if (owner[(o*NumVcs+v)*NumPorts+i]) begin
            t = t | closing[i*NumVcs+v];
            w = w | (busy[o*NumVcs+v] & waiting[i*NumVcs+v]);
            data_src[o*NumReq + i*NumVcs+v] = chose[o*NumVcs+v];
          end
        end
        if (chose[o*NumVcs+v]) begin
          data_send[o] = agree[o*NumVcs+v];
          data_vc[o*VcW +: VcW] = VcW'(v);
        end
        tail_sent[o*NumVcs+v] = chose[o*NumVcs+v] && agree[o*NumVcs+v] && t;
      end
      wait_out[o] = w && !data_send[o];
    end
  end

  for (genvar o = 0; o < NumPorts; o++) begin : gen_st
    elite4_crossbar #(.NumPorts(NumPorts), .NumVcs(NumVcs)) u_xbar (
      .clk_i, .rst_ni,
      .tok_send_i  (tok_send[o]),
      .tok_vc_i    (tok_vc[o*VcW +: VcW]),
      .tok_ack_i   (tok_ack_sel[o]),
      .data_send_i (data_send[o]),
      .data_vc_i   (data_vc[o*VcW +: VcW]),
      .data_src_i  (data_src[o*NumReq +: NumReq]),
      .stg_kind_i  (stg_kind),
      .stg_data_i  (stg_data),
      .out_valid_o (out_valid_o[o]),
      .out_kind_o  (out_kind_o[o*2 +: 2]),
      .out_vc_o    (out_vc_o[o*VcW +: VcW]),
      .out_data_o  (out_data_o[o*32 +: 32]),
      .xmit_o      (xmit[o]),
      .xmit_pkt_o  (xmit_pkt[o])
    );
  end

  // T1: the tokens that count go to the input VC owning their output VC; all
  // the tokens of one input VC in a cycle combine (ack only if all ack).
  always_comb begin
    tok_hit_in = '0;
    tok_ack_in = '1;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        for (int unsigned i = 0; i < NumPorts; i++) begin
          if (tok_hit[o*NumVcs+v] && owner[(o*NumVcs+v)*NumPorts+i]) begin
            tok_hit_in[(i*NumVcs+v)*NumPorts + o] = 1'b1;
            if (!tok_ack_out[o]) tok_ack_in[i*NumVcs+v] = 1'b0;
          end
        end
      end
    end
  end

  // Counters and error status per port. The error and wait group (§5.7)
  // shows a cycle's events two cycles later: the events are registered here
  // at the end of the cycle that decides them (SA decides some late) and
  // counted, coded and shown from these registers in the next cycle, so no
  // counter path starts in SA (docs/elite4.md §10). The early events (the
  // front's 1 and 2, the stray token from T1) are also counted before the
  // register; the rest stay one bit each and are counted by the counter
  // (elite4_event_counter's late input), so no path adds up all of them.
  for (genvar p = 0; p < NumPorts; p++) begin : gen_cnt
    localparam int unsigned V = NumVcs;
    logic [6*V+2:0]    ev_d, ev_q, ev;
    logic [EvW-1:0]    early_d, early_q, early;
    logic [V-1:0]      route_q, nopkt_q, crc_q, trunc_q, tok_ovf_q, cred_ovf_q;
    logic              ovf_q, stray_q, wait_q;
    logic [EvW-1:0]    crc_count;
    logic [2:0]        ev_code;

    assign ev_d = {wait_out[p], ev_stray[p], ev_ovf[p], ev_cred_ovf[p*V +: V], ev_tok_ovf[p*V +: V],
                   ev_trunc[p*V +: V], ev_crc[p*V +: V], ev_nopkt[p*V +: V], ev_route[p*V +: V]};
    always_comb begin
      early_d = EvW'(ev_stray[p]);
      for (int unsigned v = 0; v < V; v++)
        early_d = early_d + EvW'(ev_route[p*V+v]) + EvW'(ev_nopkt[p*V+v]);
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ev_q <= '0; early_q <= '0;
      end else begin
        ev_q <= ev_d; early_q <= early_d;
      end
    end
    assign {ev, early} = {ev_q, early_q};   // the previous cycle's events
    assign {wait_q, stray_q, ovf_q, cred_ovf_q, tok_ovf_q, trunc_q, crc_q, nopkt_q, route_q} = ev;

    always_comb begin
      crc_count = '0;
      for (int unsigned v = 0; v < V; v++) crc_count = crc_count + EvW'(crc_q[v]);
      // the lowest code present (§6)
      if      (route_q != '0)                  ev_code = elite4_pkg::ErrRoute;
      else if (nopkt_q != '0)                  ev_code = elite4_pkg::ErrNoPacket;
      else if (ovf_q)                          ev_code = elite4_pkg::ErrCreditOvf;
      else if (trunc_q != '0)                  ev_code = elite4_pkg::ErrTruncated;
      else if (stray_q)                        ev_code = elite4_pkg::ErrStrayTok;
      else if ((tok_ovf_q | cred_ovf_q) != '0) ev_code = elite4_pkg::ErrOverflow;
      else if (crc_q != '0)                    ev_code = elite4_pkg::ErrCrc;
      else                                     ev_code = 3'd0;
    end

    elite4_counters #(.EvW(EvW), .LateW(4*V+1)) u_cnt (
      .clk_i, .rst_ni,
      .xmit_i       (xmit[p]),
      .xmit_pkt_i   (xmit_pkt[p]),
      .rcv_i        (in_valid_i[p]),
      .rcv_pkt_i    (in_valid_i[p] && in_kind_i[p*2 +: 2] == elite4_pkg::KindTail),
      .wait_q_i     (wait_q),
      .ev_early_q_i (early),
      .ev_late_q_i  ({ovf_q, cred_ovf_q, tok_ovf_q, trunc_q, crc_q}),
      .ev_code_q_i  (ev_code),
      .crc_errs_q_i (crc_count),
      .xmit_flits_o (cnt_xmit_flits_o[p*32 +: 32]),
      .rcv_flits_o  (cnt_rcv_flits_o[p*32 +: 32]),
      .xmit_pkts_o  (cnt_xmit_pkts_o[p*32 +: 32]),
      .rcv_pkts_o   (cnt_rcv_pkts_o[p*32 +: 32]),
      .xmit_wait_o  (cnt_xmit_wait_o[p*32 +: 32]),
      .errors_o     (cnt_errors_o[p*32 +: 32]),
      .crc_errors_o (cnt_crc_errors_o[p*32 +: 32]),
      .err_o        (err_o[p]),
      .err_code_o   (err_code_o[p*3 +: 3])
    );
  end

  // alloc_o: a registered copy of this cycle's grants (for latency breakdowns).
  logic [NumReq-1:0] alloc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) alloc_q <= '0;
    else         alloc_q <= grant;
  end
  assign alloc_o = alloc_q;

  logic unused_stg_valid;
  assign unused_stg_valid = ^stg_valid;   // ST is told by sel which staged flit to take

`ifndef SYNTHESIS
  // Data leaves only on a busy output VC with a credit (§5.5), and SA only
  // stages a flit it sends to every output of its circuit.
  logic [NumPorts-1:0] a_nocred, a_idle;
  always_comb begin
    for (int unsigned o = 0; o < NumPorts; o++) begin
      a_nocred[o] = data_send[o] && !cred_avail[o*NumVcs + 32'(data_vc[o*VcW +: VcW])];
      a_idle[o]   = data_send[o] && !busy[o*NumVcs + 32'(data_vc[o*VcW +: VcW])];
    end
  end
  always_ff @(posedge clk_i) begin
    sa_data_has_credit: assert (a_nocred == '0);
    sa_data_on_busy_vc: assert (a_idle == '0);
  end
`endif

endmodule
