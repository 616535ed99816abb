// elan4_link_tx: the link transmitter, credits, outstanding lists, tokens in
// and ack timeouts (docs/elan4.md §6.4 "Link transmitter", "Outstanding
// packets and tokens", "Timeout").
//
// One flit per cycle: a queued token, else the packet in progress (if its VC
// has a credit), else a new packet's HEAD: the reply unit's (VcReply), else
// STEN's (VcSten), else the DMA's (VcDma). The
// token queue is the input processor's. Each VC keeps its outstanding
// packets in send order, each entry naming its owner (STEN, RP or DMA); a TOKEN
// on VC v, or the oldest's timeout, retires the oldest and reports it to its
// owner.
module elan4_link_tx #(
  parameter int unsigned NumCq          = 8,
  parameter int unsigned NumVcs         = 2,
  parameter int unsigned LinkBuf        = 8,
  parameter int unsigned VcSten         = 0,
  parameter int unsigned VcReply        = 0,
  parameter int unsigned VcDma          = 1,
  parameter int unsigned ReplySlots     = 4,
  parameter int unsigned MaxOutstanding = 16,
  parameter int unsigned AckTimeout     = 16384,
  localparam int unsigned VcW           = $clog2(NumVcs),
  localparam int unsigned SW            = (NumCq > 1) ? $clog2(NumCq) : 1,
  localparam int unsigned RsW           = (ReplySlots > 1) ? $clog2(ReplySlots) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // STEN
  input  logic                  st_req_i,
  input  logic [31:0]           st_route_i,
  input  logic [4:0]            st_nbody_i,
  input  logic [22*32-1:0]      st_words_i,
  input  logic [SW-1:0]         st_slot_i,
  input  logic [19:0]           st_pos_i,
  input  logic [3:0]            st_len_i,
  input  logic [7:0]            st_try_i,
  input  logic [11:0]           st_dest_i,
  output logic                  st_head_o,
  output logic                  st_tail_o,
  input  logic [NumCq-1:0]      abandon_i,
  // the reply unit (VC VcReply; before STEN for a new packet, §6.4)
  input  logic                  rp_req_i,
  input  logic [31:0]           rp_route_i,
  input  logic [4:0]            rp_nbody_i,
  input  logic [22*32-1:0]      rp_words_i,
  input  logic [RsW-1:0]        rp_slot_i,
  input  logic [7:0]            rp_try_i,
  output logic                  rp_head_o,
  output logic                  rp_tail_o,
  output logic                  rp_res_v_o,
  output logic                  rp_res_ack_o,
  output logic [RsW-1:0]        rp_res_slot_o,
  output logic [7:0]            rp_res_try_o,
  // the DMA (VcDma; after STEN for a new packet, §6.4)
  input  logic                  dm_req_i,
  input  logic [31:0]           dm_route_i,
  input  logic [4:0]            dm_nbody_i,
  input  logic [22*32-1:0]      dm_words_i,
  input  logic [31:0]           dm_off_i,
  input  logic [7:0]            dm_try_i,
  output logic                  dm_head_o,
  input  logic                  dm_abandon_i,
  output logic                  dm_res_v_o,
  output logic                  dm_res_ack_o,
  output logic [31:0]           dm_res_off_o,
  output logic [7:0]            dm_res_try_o,
  // tokens queued by the input processor (end of this cycle)
  input  logic                  tk_push_i,
  input  logic [VcW-1:0]        tk_vc_i,
  input  logic                  tk_ack_i,
  // results of STEN packets (VC VcSten)
  output logic                  res_v_o,
  output logic                  res_ack_o,
  output logic                  res_abn_o,
  output logic [SW-1:0]         res_slot_o,
  output logic [19:0]           res_pos_o,
  output logic [3:0]            res_len_o,
  output logic [7:0]            res_try_o,
  output logic [11:0]           res_dest_o,
  // link
  output logic                  out_valid_o,
  output logic [1:0]            out_kind_o,
  output logic [VcW-1:0]        out_vc_o,
  output logic [31:0]           out_data_o,
  input  logic                  in_valid_i,
  input  logic [1:0]            in_kind_i,
  input  logic [VcW-1:0]        in_vc_i,
  input  logic [31:0]           in_data_i,
  input  logic [NumVcs-1:0]     in_credit_i,
  // counter events of this cycle
  output logic                  cnt_tx_pkt_o,
  output logic                  cnt_tx_tok_o,
  output logic                  cnt_nack_tx_o,
  output logic                  cnt_rx_tok_o,
  output logic                  cnt_ack_o,
  output logic                  cnt_nack_o,
  output logic                  cnt_resend_o,
  output logic [2:0]            cnt_timeout_o,
  output logic [2:0]            cnt_proto_o
);
  localparam int unsigned CW  = $clog2(LinkBuf + 1);
  localparam int unsigned OW  = $clog2(MaxOutstanding);
  localparam int unsigned NW  = $clog2(MaxOutstanding + 1);
  // {own (1 = RP), abn, dest (STEN's, for a resend's route: §6.4), slot, pos (RP: its reply slot), len, try}
  localparam int unsigned EW  = 2 + 12 + SW + 20 + 4 + 8;
  localparam int unsigned TW  = $clog2(AckTimeout + 1);

  logic [NumVcs*CW-1:0]  cred_q, cred_d;
  logic                  ip_q, ip_d;           // a packet in progress
  logic                  iprp_q, iprp_d;       // ... of the reply unit
  logic                  ipdm_q, ipdm_d;       // ... of the DMA
  logic [NumVcs*MaxOutstanding-1:0] dmo_q, dmo_d; // the entry is the DMA's
  logic [NumVcs*MaxOutstanding-1:0] dab_q, dab_d; // ... and abandoned
  logic [VcW-1:0]        ipvc_q, ipvc_d;
  logic [4:0]            ipidx_q, ipidx_d;     // next body word
  logic [NumVcs*MaxOutstanding*EW-1:0] ol_q, ol_d;
  logic [NumVcs*OW-1:0]  oh_q, oh_d;           // oldest index
  logic [NumVcs*NW-1:0]  on_q, on_d;           // entries
  logic [NumVcs*TW-1:0]  tm_q, tm_d;
  logic                  ov_q, ov_d;
  logic [1:0]            ok_q, ok_d;
  logic [VcW-1:0]        ovc_q, ovc_d;
  logic [31:0]           od_q, od_d;

  localparam logic [VcW-1:0] StVc = VcW'(VcSten);
  localparam logic [VcW-1:0] RpVc = VcW'(VcReply);
  localparam logic [VcW-1:0] DmVc = VcW'(VcDma);

  // token queue, oldest first: the IP queues at most one token per cycle and
  // a packet register per VC is FREE only once its token is queued, so
  // NumVcs entries always suffice (tx_token_queue_bound)
  localparam int unsigned TQ  = NumVcs;
  localparam int unsigned TQW = $clog2(TQ + 1);
  logic [TQ*(VcW+1)-1:0] tq_q, tq_d;
  logic [TQW-1:0]        tn_q, tn_d;
  logic                  tok_send, tq_lost;
  assign tok_send = tn_q != '0;
  always_comb begin
    logic [TQW-1:0] k;
    tq_d = tq_q;
    k    = tn_q;
    if (tok_send) begin
      for (int unsigned i = 0; i + 1 < TQ; i++) tq_d[i*(VcW+1) +: VcW+1] = tq_q[(i+1)*(VcW+1) +: VcW+1];
      tq_d[(TQ-1)*(VcW+1) +: VcW+1] = '0;
      k = k - 1'b1;
    end
    tq_lost = tk_push_i && 32'(k) >= TQ;
    if (tk_push_i && 32'(k) < TQ) begin
      tq_d[32'(k)*(VcW+1) +: VcW+1] = {tk_vc_i, tk_ack_i};
      k = k + 1'b1;
    end
    tn_d = k;
  end

  logic [NumVcs-1:0] tail_pend;   // newest entry's TAIL not yet sent
  logic [NumVcs-1:0] old_sent;    // the oldest entry's TAIL has been sent
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      tail_pend[v] = ip_q && ipvc_q == VcW'(v);
      old_sent[v]  = on_q[v*NW +: NW] != '0 && !(tail_pend[v] && 32'(on_q[v*NW +: NW]) == 1);
    end
  end

  logic send_body, send_head, head_rp, head_st, head_dm;
  always_comb begin
    send_body = !tok_send && ip_q && cred_q[32'(ipvc_q)*CW +: CW] != '0;
    head_rp   = !tok_send && !ip_q && rp_req_i && cred_q[32'(RpVc)*CW +: CW] != '0 &&
                32'(on_q[32'(RpVc)*NW +: NW]) < MaxOutstanding;
    head_st   = !tok_send && !ip_q && !head_rp && st_req_i && cred_q[32'(StVc)*CW +: CW] != '0 &&
                32'(on_q[32'(StVc)*NW +: NW]) < MaxOutstanding;
    head_dm   = !tok_send && !ip_q && !head_rp && !head_st && dm_req_i &&
                cred_q[32'(DmVc)*CW +: CW] != '0 && 32'(on_q[32'(DmVc)*NW +: NW]) < MaxOutstanding;
    send_head = head_rp || head_st || head_dm;
  end

  // the packet in progress: its owner's words
  logic [22*32-1:0] words;
  logic [4:0]       nbody;
  assign words = iprp_q ? rp_words_i : (ipdm_q ? dm_words_i : st_words_i);
  assign nbody = iprp_q ? rp_nbody_i : (ipdm_q ? dm_nbody_i : st_nbody_i);

  logic tail_now;
  assign tail_now  = send_body && ipidx_q == nbody;
  assign st_head_o = head_st;
  assign st_tail_o = tail_now && !iprp_q && !ipdm_q;
  assign dm_head_o = head_dm;
  assign rp_head_o = head_rp;
  assign rp_tail_o = tail_now && iprp_q;

  // the CRC of the body words sent (common_crc32: balanced XOR trees)
  logic [31:0] crc;
  logic        crc_keep_err;
  common_crc32 u_crc (
    .clk_i, .rst_ni, .init_i(send_head), .valid_i(send_body && !tail_now),
    .data_i(words[32'(ipidx_q)*32 +: 32]), .keep_i(4'b1111), .crc_o(crc),
    .keep_err_o(crc_keep_err)
  );

  // flit, credits
  always_comb begin
    ov_d = 1'b0; ok_d = '0; ovc_d = '0; od_d = '0;
    ip_d = ip_q; ipvc_d = ipvc_q; ipidx_d = ipidx_q; iprp_d = iprp_q; ipdm_d = ipdm_q;
    if (tok_send) begin
      ov_d = 1'b1; ok_d = 2'd3; ovc_d = tq_q[1 +: VcW]; od_d = {31'd0, tq_q[0]};
    end else if (send_body) begin
      ov_d = 1'b1; ovc_d = ipvc_q;
      if (tail_now) begin
        ok_d = 2'd2; od_d = crc; ip_d = 1'b0;
      end else begin
        ok_d = 2'd1; od_d = words[32'(ipidx_q)*32 +: 32];
        ipidx_d = ipidx_q + 1'b1;
      end
    end else if (head_rp) begin
      ov_d = 1'b1; ok_d = 2'd0; ovc_d = RpVc; od_d = rp_route_i;
      ip_d = 1'b1; ipvc_d = RpVc; ipidx_d = '0; iprp_d = 1'b1; ipdm_d = 1'b0;
    end else if (head_st) begin
      ov_d = 1'b1; ok_d = 2'd0; ovc_d = StVc; od_d = st_route_i;
      ip_d = 1'b1; ipvc_d = StVc; ipidx_d = '0; iprp_d = 1'b0; ipdm_d = 1'b0;
    end else if (head_dm) begin
      ov_d = 1'b1; ok_d = 2'd0; ovc_d = DmVc; od_d = dm_route_i;
      ip_d = 1'b1; ipvc_d = DmVc; ipidx_d = '0; iprp_d = 1'b0; ipdm_d = 1'b1;
    end
  end

  logic [2:0] proto;
  always_comb begin
    proto = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic [CW:0] c;
      c = {1'b0, cred_q[v*CW +: CW]} - (CW+1)'(ov_d && ok_d != 2'd3 && ovc_d == VcW'(v));
      if (in_credit_i[v]) begin
        if (32'(c) + 1 > LinkBuf) proto = proto + 1'b1;
        else c = c + 1'b1;
      end
      cred_d[v*CW +: CW] = CW'(c);
    end
  end

  // outstanding lists, tokens in, timeouts
  logic        tok_in;
  assign tok_in = in_valid_i && in_kind_i == 2'd3;
  logic        rv, rrv;
  logic        rack, rabn, rrack;
  logic [EW-1:0] rent, rrent, drent;
  logic        drv, drack;
  logic [2:0]  nto;
  // the popped oldest's report to its owner, from start-of-cycle state only
  // (apart from the list update below, so no owner's reaction loops through it)
  always_comb begin
    rv = 1'b0; rack = 1'b0; rent = '0;
    rrv = 1'b0; rrack = 1'b0; rrent = '0;
    drv = 1'b0; drack = 1'b0; drent = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic pop, tok, to;
      logic [OW-1:0] h;
      h   = oh_q[v*OW +: OW];
      tok = tok_in && in_vc_i == VcW'(v);
      to  = !tok && old_sent[v] && 32'(tm_q[v*TW +: TW]) == AckTimeout;
      pop = (tok || to) && on_q[v*NW +: NW] != '0;
      // the oldest's owner: STEN on VcSten, RP on VcReply, the DMA on VcDma
      if (pop && VcW'(v) == StVc && !ol_q[(v*MaxOutstanding + 32'(h))*EW + EW - 1] &&
          !dmo_q[v*MaxOutstanding + 32'(h)]) begin
        rv = 1'b1; rack = tok && in_data_i[0];
        rent = ol_q[(v*MaxOutstanding + 32'(h))*EW +: EW];
      end
      if (pop && VcW'(v) == RpVc && ol_q[(v*MaxOutstanding + 32'(h))*EW + EW - 1]) begin
        rrv = 1'b1; rrack = tok && in_data_i[0];
        rrent = ol_q[(v*MaxOutstanding + 32'(h))*EW +: EW];
      end
      // the DMA's: its packet's offset in {dest, pos}; abandoned entries are
      // consumed with no report
      if (pop && VcW'(v) == DmVc && dmo_q[v*MaxOutstanding + 32'(h)]) begin
        drent = ol_q[(v*MaxOutstanding + 32'(h))*EW +: EW];
        drv = !dab_q[v*MaxOutstanding + 32'(h)]; drack = tok && in_data_i[0];
      end
    end
  end
  always_comb begin
    ol_d = ol_q; oh_d = oh_q; on_d = on_q; tm_d = tm_q; nto = '0; dmo_d = dmo_q;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic pop, tok, to, sent_d;
      logic [31:0] t;
      logic [OW-1:0] h;
      logic [NW-1:0] n;
      h   = oh_q[v*OW +: OW];
      n   = on_q[v*NW +: NW];
      tok = tok_in && in_vc_i == VcW'(v);
      to  = !tok && old_sent[v] && 32'(tm_q[v*TW +: TW]) == AckTimeout;
      pop = (tok || to) && n != '0;
      if (to) nto = nto + 1'b1;
      // mark abandoned owners (STEN entries; the DMA's when it fails)
      for (int unsigned e = 0; e < MaxOutstanding; e++) begin
        if (!ol_d[(v*MaxOutstanding + e)*EW + EW - 1] && !dmo_q[v*MaxOutstanding + e] &&
            abandon_i[ol_d[(v*MaxOutstanding + e)*EW + 32 +: SW]])
          ol_d[(v*MaxOutstanding + e)*EW + EW - 2] = 1'b1;
      end
      if (pop) begin
        h = (32'(h) == MaxOutstanding - 1) ? '0 : h + 1'b1;
        n = n - 1'b1;
      end
      t = (32'(oh_q[v*OW +: OW]) + 32'(on_q[v*NW +: NW])) % MaxOutstanding;
      if (head_st && VcW'(v) == StVc) begin
        ol_d[(v*MaxOutstanding + t)*EW +: EW] = {1'b0, abandon_i[st_slot_i], st_dest_i, st_slot_i, st_pos_i,
                                                st_len_i, st_try_i};
        dmo_d[v*MaxOutstanding + t] = 1'b0;
        n = n + 1'b1;
      end
      if (head_rp && VcW'(v) == RpVc) begin
        ol_d[(v*MaxOutstanding + t)*EW +: EW] = {2'b10, 12'd0, SW'(0), 20'(rp_slot_i), 4'd0, rp_try_i};
        dmo_d[v*MaxOutstanding + t] = 1'b0;
        n = n + 1'b1;
      end
      if (head_dm && VcW'(v) == DmVc) begin
        ol_d[(v*MaxOutstanding + t)*EW +: EW] = {1'b0, 1'b0, dm_off_i[31:20], SW'(0),
                                                dm_off_i[19:0], 4'd0, dm_try_i};
        dmo_d[v*MaxOutstanding + t] = 1'b1;
        n = n + 1'b1;
      end
      oh_d[v*OW +: OW] = h;
      on_d[v*NW +: NW] = n;
      // timer: cycles since the oldest's TAIL left or the previous oldest left
      begin
        sent_d = n != '0 && !(((ip_d && ipvc_d == VcW'(v))) && 32'(n) == 1);
        if (!sent_d) tm_d[v*TW +: TW] = '0;
        else if (pop || (tail_now && ipvc_q == VcW'(v) && 32'(n) == 1)) tm_d[v*TW +: TW] = TW'(1);
        else if (32'(tm_q[v*TW +: TW]) < AckTimeout) tm_d[v*TW +: TW] = tm_q[v*TW +: TW] + 1'b1;
      end
    end
  end
  assign {rabn, res_dest_o, res_slot_o, res_pos_o, res_len_o, res_try_o} = rent[EW-2:0];
  assign rp_res_v_o    = rrv;
  assign rp_res_ack_o  = rrack;
  assign rp_res_slot_o = rrent[12 +: RsW];
  assign rp_res_try_o  = rrent[7:0];
  // the DMA's entries abandoned when it fails (the one appended in that
  // cycle too); apart from the list logic so that the DMA's failure, which
  // may come from one of its tokens, is not on a loop through it
  always_comb begin
    dab_d = dab_q;
    for (int unsigned i = 0; i < NumVcs * MaxOutstanding; i++) begin
      if (dmo_q[i] && dm_abandon_i) dab_d[i] = 1'b1;
    end
    if (head_dm) dab_d[32'(DmVc)*MaxOutstanding +
                       (32'(oh_q[32'(DmVc)*OW +: OW]) + 32'(on_q[32'(DmVc)*NW +: NW])) % MaxOutstanding] =
                 dm_abandon_i;
  end
  assign dm_res_v_o   = drv;
  assign dm_res_ack_o = drack;
  assign dm_res_off_o = {drent[EW-3 -: 12], drent[12 +: 20]};
  assign dm_res_try_o = drent[7:0];
  assign res_v_o   = rv;
  assign res_ack_o = rack;
  assign res_abn_o = rabn;

  always_comb begin
    logic stray;
    stray = 1'b0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (tok_in && in_vc_i == VcW'(v) && on_q[v*NW +: NW] == '0) stray = 1'b1;
    end
    cnt_proto_o   = proto + 3'(stray);
    cnt_rx_tok_o  = tok_in;
    cnt_ack_o     = tok_in && !stray && in_data_i[0];
    cnt_nack_o    = tok_in && !stray && !in_data_i[0];
    cnt_timeout_o = nto;
    cnt_tx_pkt_o  = tail_now;
    cnt_tx_tok_o  = tok_send;
    cnt_nack_tx_o = tok_send && !tq_q[0];
    cnt_resend_o  = (head_st && st_try_i != '0) || (head_rp && rp_try_i != '0) ||
                    (head_dm && dm_try_i != '0);
  end
  logic unused_tx;
  assign unused_tx = ^{in_data_i[31:1], crc_keep_err, rent[EW-1], rrent[EW-1:12+RsW], rrent[11:8],
                       drent[EW-1 -: 2], drent[32 +: SW], drent[11:8]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned v = 0; v < NumVcs; v++) cred_q[v*CW +: CW] <= CW'(LinkBuf);
      ip_q <= 1'b0; ipvc_q <= '0; ipidx_q <= '0; iprp_q <= 1'b0; ipdm_q <= 1'b0; dmo_q <= '0; dab_q <= '0;
      for (int unsigned i = 0; i < NumVcs * MaxOutstanding; i++) ol_q[i*EW +: EW] <= '0;
      oh_q <= '0; on_q <= '0; tm_q <= '0;
      ov_q <= 1'b0; ok_q <= '0; ovc_q <= '0; od_q <= '0;
      tq_q <= '0; tn_q <= '0;
    end else begin
      tq_q <= tq_d; tn_q <= tn_d;
      cred_q <= cred_d;
      ip_q <= ip_d; ipvc_q <= ipvc_d; ipidx_q <= ipidx_d; iprp_q <= iprp_d; ipdm_q <= ipdm_d;
      dmo_q <= dmo_d; dab_q <= dab_d;
      ol_q <= ol_d; oh_q <= oh_d; on_q <= on_d; tm_q <= tm_d;
      ov_q <= ov_d; ok_q <= ok_d; ovc_q <= ovc_d; od_q <= od_d;
    end
  end
`ifndef SYNTHESIS
  // A HEAD/BODY/TAIL leaves only with a credit of its VC; a VC never lists
  // more than MaxOutstanding packets (§6.4).
  logic a_nocred, a_toomany;
  always_comb begin
    a_nocred  = ov_d && ok_d != 2'd3 && cred_q[32'(ovc_d)*CW +: CW] == '0;
    a_toomany = 1'b0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (32'(on_q[v*NW +: NW]) > MaxOutstanding) a_toomany = 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      tx_flit_has_credit:  assert (!a_nocred);
      tx_outstanding_bound: assert (!a_toomany);
      tx_token_queue_bound: assert (!tq_lost);
    end
  end
`endif

  assign out_valid_o = ov_q;
  assign out_kind_o  = ok_q;
  assign out_vc_o    = ovc_q;
  assign out_data_o  = od_q;
endmodule
