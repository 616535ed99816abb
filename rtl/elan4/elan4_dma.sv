// elan4_dma: the DMA engine (docs/elan4.md §6.8, with §4.3 RUN_DMA, §5.2's
// priorities, §6.3's dispatch, §6.4's tokens, §6.7's push, §6.9 cause 5).
//
// The DMA queue holds DmaQueue descriptors; one DMA runs at a time, taken
// when the engine is idle. A DMA reads its route entry (its first
// local-memory request), fetches source chunks of at most 64 dwords (no
// chunk crosses a source page; a lookup at each source page) into a ring of
// DmaBufDw dwords while the window [rel, r) stays within it, and sends
// page-split WRITE packets of at most 8 dwords, resends first. A token's
// acked dwords are recorded in its cycle; the release (the ring freed from
// the oldest unacked packet, and done) follows from those records in the
// next cycle (ours, §6.8: timing). Done: the local event (R) is pushed;
// failure: interrupt cause 5, its packets abandoned.
module elan4_dma #(
  parameter int unsigned DmaQueue     = 4,
  parameter int unsigned DmaBufDw     = 256,
  parameter int unsigned RtBase       = 32'h20000,
  parameter int unsigned RetryLimit   = 32,
  parameter int unsigned RetryBackoff = 16,
  parameter int unsigned HostReadTags = 12,
  parameter int unsigned TagW         = 12
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [11:0]       node_i,
  // DMA queue (pushed by the command processor, §6.3)
  output logic              q_ok_o,          // fewer than DmaQueue descriptors (start of cycle)
  input  logic              q_push_i,
  input  logic [12:0]       q_qid_i,
  input  logic [13:0]       q_ctx_i,
  input  logic [5*64-1:0]   q_cmd_i,         // dw0..dw4 of the descriptor
  // local memory (DMA class)
  output logic              lm_req_v_o,
  output logic [27:0]       lm_req_addr_o,
  output logic [TagW-1:0]   lm_req_tag_o,
  input  logic              lm_gnt_i,
  input  logic              lm_rd_v_i,
  input  logic [TagW-1:0]   lm_rd_tag_i,
  input  logic [63:0]       lm_rd_data_i,
  // host master (DMA class: reads only)
  output logic              hm_req_v_o,
  output logic [49:0]       hm_req_addr_o,
  output logic [6:0]        hm_req_len_o,
  input  logic              hm_tag_free_i,
  input  logic              hm_gnt_i,
  input  logic [3:0]        hm_gnt_tag_i,
  input  logic              hm_rd_v_i,
  input  logic [3:0]        hm_rd_tag_i,
  input  logic [63:0]       hm_rd_data_i,
  // MMU (DMA class)
  output logic              mmu_req_o,
  output logic [13:0]       mmu_ctx_o,
  output logic [63:0]       mmu_va_o,
  input  logic              mmu_gnt_i,
  input  logic              mmu_res_v_i,
  input  logic              mmu_ok_i,
  input  logic [1:0]        mmu_space_i,
  input  logic [49:0]       mmu_pa_i,
  // link transmitter (VcDma)
  output logic              tx_req_o,
  output logic [31:0]       tx_route_o,
  output logic [4:0]        tx_nbody_o,
  output logic [22*32-1:0]  tx_words_o,      // the packet in progress (latched at its HEAD)
  output logic [31:0]       tx_off_o,        // its first dword's offset o_j
  output logic [7:0]        tx_try_o,
  input  logic              tx_head_i,
  output logic              abandon_o,       // the DMA failed: its packets awaiting tokens abandoned
  input  logic              tk_v_i,          // a token (or timeout) of a DMA packet not abandoned
  input  logic              tk_ack_i,
  input  logic [31:0]       tk_off_i,
  input  logic [7:0]        tk_try_i,
  // event FIFO (after the IP's push, before the CP's, §6.7)
  input  logic              ep_ok_i,         // count < EpFifo - 1 (start of cycle)
  output logic              ep_push_o,
  output logic [63:0]       ep_va_o,
  output logic [13:0]       ep_ctx_o,
  // interrupt (cause 5)
  output logic              irq_v_o,
  output logic [83:0]       irq_rec_o
);
  // ring of 2^PW >= DmaBufDw dwords, indexed by offset mod 2^PW; the
  // window [rel, r) never exceeds DmaBufDw, so no live dword is overwritten
  // (ours: a power-of-two ring, an index without a modulo)
  localparam int unsigned PW  = $clog2(DmaBufDw);
  localparam int unsigned P   = 1 << PW;
  localparam int unsigned QW  = $clog2(DmaQueue + 1);
  localparam int unsigned QIW = (DmaQueue > 1) ? $clog2(DmaQueue) : 1;
  // descriptor: {qid, ctx, dest, E, R, N, src, dst, rev, lev}
  localparam int unsigned DW  = 13 + 14 + 12 + 2 + 32 + 4 * 64;
  // resend list: at most one entry per packet in the window; a window of
  // DmaBufDw dwords holds at most DmaBufDw/8 full packets and two short
  // ones per page boundary it crosses on either side (dma_resend_bound)
  localparam int unsigned NRs = DmaBufDw / 8 + 8;
  localparam int unsigned CdW = $clog2(RetryBackoff * (RetryLimit + 1) + 2);
  localparam int unsigned REW = 32 + 5 + 8 + CdW;    // {off, last, size, try, countdown}
  localparam int unsigned HTW = (HostReadTags > 1) ? $clog2(HostReadTags) : 1;
  // a chunk is at most 64 dwords, DmaBufDw - 8 when smaller (64: 56), so a
  // packet straddling a chunk boundary never waits for a chunk that waits
  // for its ack (§6.8)
  localparam logic [31:0] ChunkMax = (DmaBufDw - 8 < 64) ? 32'(DmaBufDw - 8) : 32'd64;

  // ---------------------------------------------------------------- queue
  logic [DmaQueue*DW-1:0] dq_q, dq_d;
  logic [QW-1:0]          dn_q, dn_d;
  logic                   take;

  // ---------------------------------------------------------------- the running DMA
  logic         run_q, run_d;          // a DMA is running
  logic         push_q, push_d;        // done, its local event waiting to be pushed
  logic [12:0]  qid_q, qid_d;
  logic [13:0]  ctx_q, ctx_d;
  logic [11:0]  dest_q, dest_d;
  logic         e_q, e_d, r_q, r_d;
  logic [31:0]  n_q, n_d;              // N dwords
  logic [63:0]  src_q, src_d, dst_q, dst_d, rev_q, rev_d, lev_q, lev_d;
  logic         ep_q, ep_d;            // tag epoch of this DMA's local reads
  // route
  logic         rtg_q, rtg_d;          // route read granted
  logic         rtv_q, rtv_d;          // route arrived, valid
  logic [31:0]  route_q, route_d;
  // chunks
  localparam logic [1:0] CStart = 2'd0, CLook = 2'd1, CRead = 2'd2;
  logic [1:0]   cs_q, cs_d;
  logic         lg_q, lg_d;            // the chunk's lookup granted, result awaited
  logic [31:0]  rr_q, rr_d;            // next dword to request
  logic [31:0]  rem_q, rem_d;          // N - rr: dwords not yet requested (ours: kept)
  logic [6:0]   ckl_q, ckl_d;          // the chunk's dwords still to request
  logic         hsp_q, hsp_d;          // the page's space is host
  logic [36:0]  ppa_q, ppa_d;          // the page's PA[49:13]
  // ring
  logic [P*64-1:0] buf_q, buf_d;
  logic [P-1:0]    arr_q, arr_d, ak_q, ak_d;
  logic [31:0]     rel_q, rel_d;       // oldest dword of a packet not acked (as released)
  logic [31:0]     snd_q, snd_d;       // next packet never sent
  // kept so that the token and the release need no arithmetic (ours):
  // each sent packet's size at its first dword's ring index, the dwords
  // sent and not released, the ring indices at or above rel's, and
  // "every packet sent once"
  logic [P*4-1:0]  sz_q, sz_d;
  logic [P-1:0]    lst_q, lst_d;       // ... and whether it is the last packet
  logic [31:0]     srem_q, srem_d;     // N - snd: dwords never sent
  logic [P-1:0]    sent_q, sent_d, th_q, th_d;
  logic            alls_q, alls_d;
  // host reads in flight: live for this DMA, ring index of the next dword
  logic [HostReadTags-1:0]    hl_q, hl_d;
  logic [HostReadTags*PW-1:0] hi_q, hi_d;
  // resend list, oldest first
  logic [NRs-1:0]     rv_q, rv_d;
  logic [NRs*REW-1:0] re_q, re_d;
  // the packet in progress; its VA words (2, 3) are written in the cycle
  // after its HEAD (the link sends them from HEAD + 3 at the earliest)
  logic [22*32-1:0] pw_q, pw_d;
  logic [4:0]       pnb_q, pnb_d;
  logic             hv_q, hv_d;
  logic [31:0]      hpo_q, hpo_d;

  // the descriptor seen this cycle: the running one, or the queue's oldest
  // in the cycle it is taken (its first requests are presented then)
  logic [DW-1:0] hd;
  assign hd   = dq_q[DW-1:0];
  assign take = !run_q && !push_q && dn_q != '0;
  logic [12:0]  c_qid;
  logic [13:0]  c_ctx;
  logic [11:0]  c_dest;
  logic         c_e, c_r;
  logic [31:0]  c_n, c_rem;
  logic [63:0]  c_src, c_dst, c_rev, c_lev;
  assign {c_qid, c_ctx, c_dest, c_e, c_r, c_n, c_src, c_dst, c_rev, c_lev} =
         take ? hd : {qid_q, ctx_q, dest_q, e_q, r_q, n_q, src_q, dst_q, rev_q, lev_q};
  logic active;                         // a DMA runs this cycle (taken now or before)
  assign active = take || run_q;
  logic c_ep;
  assign c_ep = take ? !ep_q : ep_q;
  assign c_rem = take ? c_n : rem_q;   // rr = 0 when taken

  // dwords left in a page from offset o (1..1024)
  function automatic logic [10:0] left(input logic [9:0] pg, input logic [9:0] o);
    left = 11'd1024 - 11'(10'(pg + o));
  endfunction
  // packet size at offset o: min(8, N - o, dst's page, src's page), with
  // nr = N - o
  function automatic logic [3:0] psize(input logic [9:0] o, input logic [31:0] nr,
                                       input logic [9:0] s, input logic [9:0] d);
    logic [31:0] m;
    m = 32'd8;
    if (nr < m) m = nr;
    if (32'(left(d, o[9:0])) < m) m = 32'(left(d, o[9:0]));
    if (32'(left(s, o[9:0])) < m) m = 32'(left(s, o[9:0]));
    psize = 4'(m);
  endfunction

  // ---------------------------------------------------------------- acks and the release
  // a token's ack marks its packet's dwords (the size kept at its first
  // dword's index); the release of this cycle works on the acks recorded
  // up to the previous one (§6.8: a cycle after the token, ours): rel moves
  // to the first unacked dword at or after it (circularly in the ring; the
  // ring's acked dwords lie in [rel, snd)), and the engine is done when
  // every packet was sent and every sent dword is acked
  logic [3:0]   tk_m;
  logic         tk_last;
  logic [P-1:0] tkmask;
  always_comb begin
    tk_m    = sz_q[32'(PW'(tk_off_i)) * 4 +: 4];
    tk_last = lst_q[PW'(tk_off_i)];
    tkmask = '0;
    for (int unsigned i = 0; i < 8; i++) begin
      if (tk_v_i && tk_ack_i && i < 32'(tk_m)) tkmask[PW'(tk_off_i + i)] = 1'b1;
    end
  end
  logic [P-1:0]  rl_mz, rl_pz, rl_pzz, rl_clr, rl_th, rl_one;
  logic          rl_hit, rl_anyz;
  logic [PW-1:0] rl_lo;
  always_comb begin
    rl_mz = ~ak_q & th_q;
    // prefix ORs from index 0 up, on a log-depth (Kogge-Stone) network
    rl_pz = rl_mz; rl_pzz = ~ak_q;
    for (int unsigned k = 1; k < P; k = k * 2) begin
      rl_pz  = rl_pz | (rl_pz << k);
      rl_pzz = rl_pzz | (rl_pzz << k);
    end
    rl_hit  = rl_pz[P-1];     // an unacked dword at or above rel's index
    rl_anyz = rl_pzz[P-1];    // any unacked dword (else the whole ring is acked)
    rl_clr  = rl_hit ? (th_q & ~rl_pz) : (th_q | ~rl_pzz);
    rl_th   = rl_hit ? rl_pz : (rl_anyz ? rl_pzz : th_q);
    rl_one  = rl_th & ~{rl_th[P-2:0], 1'b0};
    rl_lo   = '0;
    for (int unsigned i = 1; i < P; i++) if (rl_one[i]) rl_lo = rl_lo | PW'(i);
  end
  logic [31:0] rl_rel;  // rel after this cycle's release
  assign rl_rel = {rl_hit ? rel_q[31:PW] : rel_q[31:PW] + 1'b1, rl_lo};
  logic done;   // every packet acked (acks recorded before this cycle)
  assign done = run_q && alls_q && sent_q == ak_q;

  // ---------------------------------------------------------------- chunks
  logic [31:0] ck_s;     // size of the chunk starting at rr_q
  logic        ck_look;  // it needs a lookup (first chunk, or a page's first byte)
  logic        ck_room;
  always_comb begin
    logic [31:0] s;
    s = ChunkMax;
    if (c_rem < s) s = c_rem; if (32'(left(c_src[12:3], rr_q[9:0])) < s) s = 32'(left(c_src[12:3], rr_q[9:0]));
    ck_s    = s;
    ck_look = rr_q == '0 || 10'(c_src[12:3] + rr_q[9:0]) == '0;
    // rr + s - rel <= DmaBufDw, as s <= the room rel + DmaBufDw - rr
    // (0..DmaBufDw: the window never exceeds DmaBufDw), formed beside s
    ck_room = (PW+1)'(s) <= (PW+1)'(rel_q + DmaBufDw - rr_q);
  end
  // the VA of dword rr_q: src + 8 rr on a Kogge-Stone tree (rr = 0 when
  // taken); its bits [12:3] for the reads (PA[12:0] = VA[12:0], §6.6)
  logic [63:0] rva, rva_k;
  logic [9:0]  rpg;
  logic        unused_rva_co;
  cp_ks_add #(.W(64), .Keep(1)) u_rva (
    .a_i(src_q), .b_i({29'd0, rr_q, 3'b000}), .ci_i(1'b0), .s_o(rva_k), .co_o(unused_rva_co)
  );
  assign rva = take ? c_src : rva_k;
  assign rpg = 10'(c_src[12:3] + rr_q[9:0]);

  // a chunk's reads are presented from the cycle after the previous chunk's
  // last grant when no lookup is needed, else from the cycle after the
  // lookup's result
  logic        rd_now;
  logic [6:0]  ckl_c;    // the chunk's dwords still to request, this cycle
  assign rd_now = run_q && (cs_q == CRead || (cs_q == CStart && rem_q != '0 && ck_room && !ck_look));
  assign ckl_c  = (cs_q == CStart) ? 7'(ck_s) : ckl_q;
  // a grant moves rr by 1 (local) or by the chunk (host), rem the other way
  logic [31:0] rstep, rr_n, rem_n;
  logic        unused_rr_co, unused_rem_co;
  assign rstep = hsp_q ? 32'(ckl_c) : 32'd1;
  cp_ks_add #(.W(32), .Keep(1)) u_rr (
    .a_i(rr_q), .b_i(rstep), .ci_i(1'b0), .s_o(rr_n), .co_o(unused_rr_co)
  );
  cp_ks_add #(.W(32), .Keep(1)) u_rem (
    .a_i(rem_q), .b_i(~rstep), .ci_i(1'b1), .s_o(rem_n), .co_o(unused_rem_co)
  );

  logic fail;
  logic [1:0] fcode;
  always_comb begin
    // requests, from start-of-cycle state
    mmu_req_o  = active && !lg_q && ((cs_q == CStart && ck_room && ck_look && c_rem != '0) ||
                                      cs_q == CLook);
    mmu_ctx_o  = c_ctx;
    mmu_va_o   = rva;
    // the addresses and tags are read only with their valid (the arbiters
    // take the granted requester's), so they are not gated by rd_now (ours)
    lm_req_v_o    = active && !rtg_q || rd_now && !hsp_q;
    lm_req_addr_o = (!rtg_q) ? 28'((RtBase >> 3) + 32'(c_dest)) : {ppa_q[17:0], rpg};
    lm_req_tag_o  = (!rtg_q) ? TagW'({1'b1, c_ep, 10'd0}) : TagW'({1'b0, ep_q, 10'(rr_q[PW-1:0])});
    hm_req_v_o    = rd_now && hsp_q && hm_tag_free_i;
    hm_req_addr_o = {ppa_q, rpg, c_src[2:0]};
    hm_req_len_o  = ckl_c;
  end

  // ---------------------------------------------------------------- sending
  // the oldest eligible resend, else the next unsent packet if sendable
  logic [NRs-1:0] efirst;
  logic           el;
  logic [REW-1:0] ee;
  always_comb begin
    logic seen;
    seen = 1'b0; ee = '0;
    for (int unsigned i = 0; i < NRs; i++) begin
      efirst[i] = rv_q[i] && re_q[i*REW +: CdW] == '0 && !seen;
      seen      = seen || efirst[i];
      ee        = ee | (re_q[i*REW +: REW] & {REW{efirst[i]}});
    end
    el = seen;
  end
  // a resend's size and "last" were kept with its entry (from the ring's
  // records at its nack); the next new packet's are formed from registers
  logic [31:0] po;
  logic [7:0]  ptry;
  logic [3:0]  pm, sm;
  logic        pok, plast, slast;
  always_comb begin
    po    = el ? ee[REW-1 -: 32] : snd_q;
    ptry  = el ? ee[CdW +: 8] : 8'd0;
    sm    = psize(snd_q[9:0], srem_q, src_q[12:3], dst_q[12:3]);
    slast = srem_q == 32'(sm);
    pm    = el ? ee[CdW + 8 +: 4] : sm;
    plast = el ? ee[CdW + 12] : slast;
    pok   = 1'b1;
    for (int unsigned i = 0; i < 8; i++) begin
      if (i < 32'(sm) && !arr_q[PW'(snd_q + i)]) pok = 1'b0;
    end
    tx_req_o = run_q && rtv_q && (el || (srem_q != '0 && pok));
  end
  // a new packet moves snd by its size, srem the other way
  logic [31:0] snd_n, srem_n, sm32;
  logic        unused_snd_co, unused_srem_co;
  assign sm32 = 32'(sm);
  cp_ks_add #(.W(32), .Keep(1)) u_snd (
    .a_i(snd_q), .b_i(sm32), .ci_i(1'b0), .s_o(snd_n), .co_o(unused_snd_co)
  );
  cp_ks_add #(.W(32), .Keep(1)) u_srem (
    .a_i(srem_q), .b_i(~sm32), .ci_i(1'b1), .s_o(srem_n), .co_o(unused_srem_co)
  );
  logic [22*32-1:0] cw;    // the candidate packet's body words
  logic [4:0]       cnb;   // ... and their count
  logic [63:0]      pva;     // the VA of the packet whose HEAD was last cycle
  logic             unused_pva_co;
  cp_ks_add #(.W(64), .Keep(1)) u_pva (
    .a_i(dst_q), .b_i({29'd0, hpo_q, 3'b000}), .ci_i(1'b0), .s_o(pva), .co_o(unused_pva_co)
  );
  always_comb begin
    logic pe;
    pe  = plast && e_q;
    cw  = '0;
    cw[0 +: 32]  = {2'b00, ctx_q, 6'd0, 1'b0, pe, pm, 4'd1};
    cw[32 +: 32] = {20'd0, node_i};
    for (int unsigned i = 0; i < 8; i++) begin
      if (i < 32'(pm)) cw[(4 + 2*i)*32 +: 64] = buf_q[32'(PW'(po + i))*64 +: 64];
    end
    if (pe) cw[(4 + 2*32'(pm))*32 +: 64] = rev_q;
    cnb = 5'(4 + 2*32'(pm) + (pe ? 2 : 0));
  end
  assign tx_route_o = route_q;
  assign tx_words_o = pw_q;
  assign tx_nbody_o = pnb_q;
  assign tx_off_o   = po;
  assign tx_try_o   = ptry;

  // ---------------------------------------------------------------- next state
  always_comb begin
    logic [31:0] k;
    logic [P-1:0] rel_clr;
    logic [PW-1:0] ix;
    rel_clr = '0;
    dq_d = dq_q; dn_d = dn_q;
    run_d = run_q; push_d = push_q;
    qid_d = qid_q; ctx_d = ctx_q; dest_d = dest_q; e_d = e_q; r_d = r_q; n_d = n_q;
    src_d = src_q; dst_d = dst_q; rev_d = rev_q; lev_d = lev_q; ep_d = ep_q;
    rtg_d = rtg_q; rtv_d = rtv_q; route_d = route_q;
    cs_d = cs_q; lg_d = lg_q; rr_d = rr_q; rem_d = rem_q; ckl_d = ckl_q; hsp_d = hsp_q; ppa_d = ppa_q;
    buf_d = buf_q; arr_d = arr_q; ak_d = ak_q; rel_d = rel_q; snd_d = snd_q;
    sz_d = sz_q; lst_d = lst_q; srem_d = srem_q; sent_d = sent_q; th_d = th_q; alls_d = alls_q;
    hv_d = tx_head_i; hpo_d = hpo_q;
    hl_d = hl_q; hi_d = hi_q; pw_d = pw_q; pnb_d = pnb_q;
    fail = 1'b0; fcode = '0;

    // queue: take the oldest, push the CP's
    k = 32'(dn_q);
    if (take) begin
      for (int unsigned i = 0; i + 1 < DmaQueue; i++) dq_d[i*DW +: DW] = dq_q[(i+1)*DW +: DW];
      dq_d[(DmaQueue-1)*DW +: DW] = '0;
      k = k - 1;
    end
    if (q_push_i) begin
      dq_d[32'(QIW'(k))*DW +: DW] = {q_qid_i, q_ctx_i, q_cmd_i[27:16], q_cmd_i[8], q_cmd_i[9],
                                     32'(q_cmd_i[63:35]), q_cmd_i[64 +: 64], q_cmd_i[128 +: 64],
                                     q_cmd_i[192 +: 64], q_cmd_i[256 +: 64]};
      k = k + 1;
    end
    dn_d = QW'(k);

    if (take) begin
      run_d = 1'b1;
      {qid_d, ctx_d, dest_d, e_d, r_d, n_d, src_d, dst_d, rev_d, lev_d} = hd;
      ep_d = !ep_q;
      rtg_d = 1'b0; rtv_d = 1'b0; cs_d = CStart; lg_d = 1'b0;
      arr_d = '0; ak_d = '0; rel_d = '0; snd_d = '0; hl_d = '0;
      sent_d = '0; th_d = '1; alls_d = 1'b0;
      rem_d = c_rem; srem_d = c_rem;
    end

    // route
    if (active && !rtg_q && lm_gnt_i) rtg_d = 1'b1;
    if (run_q && lm_rd_v_i && lm_rd_tag_i[TagW-1] && lm_rd_tag_i[TagW-2] == ep_q) begin
      if (lm_rd_data_i[32]) begin rtv_d = 1'b1; route_d = lm_rd_data_i[31:0]; end
      else begin fail = 1'b1; fcode = 2'd1; end
    end

    // chunks
    if (cs_q == CStart && active && c_rem != '0 && ck_room && ck_look) begin
      cs_d = CLook;
      ckl_d = 7'(ck_s);
      lg_d = mmu_gnt_i;
    end
    if (cs_q == CLook && mmu_gnt_i) lg_d = 1'b1;
    if ((cs_q == CStart || cs_q == CLook) && mmu_res_v_i && mmu_gnt_i && mmu_req_o ||
        cs_q == CLook && mmu_res_v_i && lg_q) begin
      lg_d = 1'b0;
      if (!mmu_ok_i || mmu_space_i[1]) begin fail = 1'b1; fcode = 2'd2; end
      else begin cs_d = CRead; hsp_d = mmu_space_i == 2'd0; ppa_d = mmu_pa_i[49:13]; end
    end
    if (rd_now) begin
      cs_d = CRead;
      ckl_d = ckl_c;
      if (!hsp_q && rtg_q && lm_gnt_i) begin
        rr_d = rr_n; rem_d = rem_n;
        ckl_d = ckl_c - 7'd1;
        if (ckl_c == 7'd1) cs_d = CStart;
      end
      if (hsp_q && hm_gnt_i) begin
        hl_d[HTW'(hm_gnt_tag_i)] = 1'b1;
        hi_d[32'(HTW'(hm_gnt_tag_i))*PW +: PW] = PW'(rr_q);
        rr_d = rr_n; rem_d = rem_n;
        cs_d = CStart;
      end
    end

    // arrivals
    if (run_q && lm_rd_v_i && !lm_rd_tag_i[TagW-1] && lm_rd_tag_i[TagW-2] == ep_q) begin
      buf_d[32'(PW'(lm_rd_tag_i[9:0]))*64 +: 64] = lm_rd_data_i;
      arr_d[PW'(lm_rd_tag_i[9:0])] = 1'b1;
    end
    ix = '0;
    if (hm_rd_v_i && hl_q[HTW'(hm_rd_tag_i)]) begin
      ix = hi_q[32'(HTW'(hm_rd_tag_i))*PW +: PW];
      buf_d[32'(ix)*64 +: 64] = hm_rd_data_i;
      arr_d[ix] = 1'b1;
      hi_d[32'(HTW'(hm_rd_tag_i))*PW +: PW] = ix + 1'b1;
    end

    // sending
    if (hv_q) pw_d[64 +: 64] = pva;
    if (tx_head_i) begin
      pw_d = cw; pnb_d = cnb; hpo_d = po;
      if (!el) begin
        snd_d = snd_n; srem_d = srem_n;
        sz_d[32'(PW'(snd_q)) * 4 +: 4] = sm;
        lst_d[PW'(snd_q)] = slast;
        for (int unsigned i = 0; i < 8; i++) if (i < 32'(sm)) sent_d[PW'(snd_q + i)] = 1'b1;
        if (slast) alls_d = 1'b1;
      end
    end

    // the release (acks recorded before this cycle), then this cycle's acks
    if (run_q) begin
      rel_clr = rl_clr;
      ak_d   = (ak_q & ~rel_clr) | tkmask;
      arr_d  = arr_d & ~rel_clr;
      sent_d = sent_d & ~rel_clr;
      th_d   = rl_th;
      rel_d  = rl_rel;
    end

    // tokens: a nack beyond RetryLimit fails the DMA
    if (run_q && tk_v_i && !tk_ack_i && 32'(tk_try_i) + 1 > RetryLimit) begin
      fail = 1'b1; fcode = 2'd3;
    end

    if (push_q && ep_ok_i) push_d = 1'b0;
    if (done || fail) begin
      run_d = 1'b0; push_d = done && r_q; hl_d = '0;
      rtg_d = 1'b0; rtv_d = 1'b0; cs_d = CStart; lg_d = 1'b0; rr_d = '0;
      arr_d = '0; ak_d = '0; rel_d = '0; snd_d = '0;
      sent_d = '0; th_d = '1; alls_d = 1'b0; rem_d = '0; srem_d = '0;
    end
  end

  // resend list: drop the taken entry, count down, compact, append a nack
  logic rs_lost;
  always_comb begin
    logic [31:0] n, bk;
    rv_d = '0; re_d = re_q; n = 0; rs_lost = 1'b0;
    for (int unsigned i = 0; i < NRs; i++) begin
      logic [REW-1:0] e;
      e = re_q[i*REW +: REW];
      if (rv_q[i] && !(tx_head_i && el && efirst[i])) begin
        if (e[CdW-1:0] != '0) e[CdW-1:0] = e[CdW-1:0] - 1'b1;
        rv_d[n] = 1'b1;
        re_d[n*REW +: REW] = e;
        n = n + 1;
      end
    end
    bk = RetryBackoff * (32'(tk_try_i) + 1);
    if (run_q && tk_v_i && !tk_ack_i && 32'(tk_try_i) + 1 <= RetryLimit) begin
      if (n < NRs) begin
        rv_d[n] = 1'b1;
        re_d[n*REW +: REW] = {tk_off_i, tk_last, tk_m, tk_try_i + 8'd1, (bk == 0) ? CdW'(0) : CdW'(bk - 1)};
      end else rs_lost = 1'b1;
    end
    if (fail || take) rv_d = '0;
  end

  assign q_ok_o    = 32'(dn_q) < DmaQueue;
  assign abandon_o = fail;
  assign ep_push_o = push_q && ep_ok_i;
  assign ep_va_o   = lev_q;
  assign ep_ctx_o  = ctx_q;
  assign irq_v_o   = fail;
  assign irq_rec_o = {4'd5, 3'd0, qid_q, 62'd0, fcode};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dq_q <= '0; dn_q <= '0; run_q <= 1'b0; push_q <= 1'b0;
      qid_q <= '0; ctx_q <= '0; dest_q <= '0; e_q <= 1'b0; r_q <= 1'b0; n_q <= '0;
      src_q <= '0; dst_q <= '0; rev_q <= '0; lev_q <= '0; ep_q <= 1'b0;
      rtg_q <= 1'b0; rtv_q <= 1'b0; route_q <= '0;
      cs_q <= CStart; lg_q <= 1'b0; rr_q <= '0; rem_q <= '0; ckl_q <= '0; hsp_q <= 1'b0; ppa_q <= '0;
      arr_q <= '0; ak_q <= '0; rel_q <= '0; snd_q <= '0;
      sent_q <= '0; th_q <= '1; alls_q <= 1'b0; srem_q <= '0; hv_q <= 1'b0; hpo_q <= '0;
      hl_q <= '0; hi_q <= '0; rv_q <= '0; pw_q <= '0; pnb_q <= '0;
    end else begin
      dq_q <= dq_d; dn_q <= dn_d; run_q <= run_d; push_q <= push_d;
      qid_q <= qid_d; ctx_q <= ctx_d; dest_q <= dest_d; e_q <= e_d; r_q <= r_d; n_q <= n_d;
      src_q <= src_d; dst_q <= dst_d; rev_q <= rev_d; lev_q <= lev_d; ep_q <= ep_d;
      rtg_q <= rtg_d; rtv_q <= rtv_d; route_q <= route_d;
      cs_q <= cs_d; lg_q <= lg_d; rr_q <= rr_d; rem_q <= rem_d; ckl_q <= ckl_d; hsp_q <= hsp_d; ppa_q <= ppa_d;
      arr_q <= arr_d; ak_q <= ak_d; rel_q <= rel_d; snd_q <= snd_d;
      sent_q <= sent_d; th_q <= th_d; alls_q <= alls_d; srem_q <= srem_d; hv_q <= hv_d; hpo_q <= hpo_d;
      hl_q <= hl_d; hi_q <= hi_d; rv_q <= rv_d; pw_q <= pw_d; pnb_q <= pnb_d;
    end
  end

  // the ring's data: read only where its arrival bit is set, no reset needed
  always_ff @(posedge clk_i) buf_q <= buf_d;
  // a packet's size is read only at its first dword's index while it is
  // sent and not released: no reset needed
  always_ff @(posedge clk_i) begin sz_q <= sz_d; lst_q <= lst_d; end
  // the resend entries are read only where their valid bit is set
  always_ff @(posedge clk_i) re_q <= re_d;

`ifndef SYNTHESIS
  // every dword of the packet whose HEAD is sent has arrived (computed here
  // apart from pok, the sender's own condition)
  logic a_arrived;
  always_comb begin
    a_arrived = 1'b1;
    for (int unsigned i = 0; i < 8; i++) begin
      if (i < 32'(pm) && arr_q[PW'(po + i)] == 1'b0) a_arrived = 1'b0;
    end
  end
  // the release is exact: rel passes only dwords acked before this cycle
  // (its index range taken from the 32-bit rel, apart from the release's
  // masks), never passes snd, and stops at the first unacked dword
  logic a_rel_ok;
  always_comb begin
    a_rel_ok = rl_rel - rel_q <= P && rl_rel <= snd_q &&
               (rl_rel == snd_q || !ak_q[PW'(rl_rel)]);
    for (int unsigned i = 0; i < P; i++) begin
      if (32'(PW'(PW'(i) - PW'(rel_q))) < rl_rel - rel_q && !ak_q[i]) a_rel_ok = 1'b0;
    end
  end
  // the kept values are exact: rem = N - rr, srem = N - snd, and each
  // resend entry's size and "last" are §6.8's for its offset
  logic a_kept_ok;
  always_comb begin
    a_kept_ok = rem_q == n_q - rr_q && srem_q == n_q - snd_q;
    for (int unsigned i = 0; i < NRs; i++) begin
      if (rv_q[i] && (re_q[i*REW + CdW + 8 +: 4] != psize(re_q[i*REW + CdW + 13 +: 10], n_q - re_q[i*REW + CdW + 13 +: 32],
                                                          src_q[12:3], dst_q[12:3]) ||
                      re_q[i*REW + CdW + 12] != (re_q[i*REW + CdW + 13 +: 32] + 32'(re_q[i*REW + CdW + 8 +: 4]) == n_q)))
        a_kept_ok = 1'b0;
    end
  end
  // §6.8's invariants: the queue never holds more than DmaQueue descriptors;
  // the fetched window [rel, r) never exceeds DmaBufDw; no chunk read and no
  // packet crosses a page (source chunks and packets on the source side,
  // packets on the destination side) and a packet is 1..8 dwords whose data
  // has all arrived; the resend list never loses an entry.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      dma_queue_bound: assert (!(q_push_i && 32'(dn_q) >= DmaQueue));
      // the chunk about to start (its size, before room) stays in its page;
      // checked first: a chunk size past its page may also pass the room
      // test, which is exact only for legal sizes (<= 64 dwords)
      if (cs_q == CStart && active && rr_q != c_n)
        dma_chunk_page_bounded: assert (32'(10'(c_src[12:3] + rr_q[9:0])) + ck_s <= 1024);
      // a chunk starts only with room for it (its own sum, not ck_room)
      if (cs_q == CStart && (mmu_req_o || rd_now))
        dma_buf_bound: assert (rr_q + ck_s - rel_q <= DmaBufDw);
      if (tx_head_i) begin
        dma_pkt_page_bounded: assert (pm != '0 && pm <= 4'd8 &&
                                      32'(10'(dst_q[12:3] + po[9:0])) + 32'(pm) <= 1024 &&
                                      32'(10'(src_q[12:3] + po[9:0])) + 32'(pm) <= 1024);
        dma_pkt_arrived: assert (a_arrived);
      end
      dma_resend_bound: assert (!rs_lost);
      if (run_q) dma_rel_exact: assert (a_rel_ok);
      if (run_q) dma_kept_exact: assert (a_kept_ok);
    end
  end
`endif

  logic unused_dma;
  assign unused_dma = ^{q_cmd_i[7:0], hm_gnt_tag_i, q_cmd_i[15:10], q_cmd_i[34:28], lm_rd_tag_i, hm_rd_tag_i, ee,
                        mmu_pa_i[12:0], c_qid, c_e, c_r, c_dst, c_rev, c_lev, lg_q, ck_look};
endmodule
