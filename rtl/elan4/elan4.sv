// elan4: the Quadrics Elan4 NIC. Spec: docs/elan4.md (parameters §2, ports §3).
//
// Top: wires the units of §11 and the resource arbiters of §5.2. Built so
// far (docs/elan4.md "RTL status"): host port and queue intake, queue cache,
// command processor, STEN, link transmitter, local-memory and host-master
// arbiters, interrupts, counters, trace, link receiver, MMU, input
// processor, reply unit, event processor, DMA engine.
module elan4 #(
  parameter int unsigned NumCq          = 8,
  parameter int unsigned NumQueues      = 64,
  parameter int unsigned DepthKb0       = 1,
  parameter int unsigned DepthKb1       = 8,
  parameter int unsigned DepthKb2       = 64,
  parameter int unsigned DepthKb3       = 512,
  parameter int unsigned OooWindow      = 16,
  parameter int unsigned HeadDwords     = 16,
  parameter int unsigned GapTimeout     = 4096,
  parameter int unsigned NumNodes       = 64,
  parameter int unsigned NumVcs         = 2,
  parameter int unsigned LinkBuf        = 8,
  parameter int unsigned VcSten         = 0,
  parameter int unsigned VcDma          = 1,
  parameter int unsigned VcReply        = 0,
  parameter int unsigned MaxOutstanding = 16,
  parameter int unsigned RetryLimit     = 32,
  parameter int unsigned RetryBackoff   = 16,
  parameter int unsigned AckTimeout     = 16384,
  parameter int unsigned TlbEntries     = 16,
  parameter int unsigned PtBits         = 10,
  parameter int unsigned DescBase       = 32'h0,
  parameter int unsigned RtBase         = 32'h20000,
  parameter int unsigned PtBase         = 32'h40000,
  parameter int unsigned LmLatency      = 2,
  parameter int unsigned HostReadTags   = 12,
  parameter int unsigned ReplySlots     = 4,
  parameter int unsigned EpFifo         = 4,
  parameter int unsigned DmaQueue       = 4,
  parameter int unsigned DmaBufDw       = 256,
  parameter int unsigned IrqDepth       = 16,
  localparam int unsigned VcW           = $clog2(NumVcs)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // host target port (§3.1)
  input  logic              ht_valid_i,
  input  logic              ht_write_i,
  input  logic [31:0]       ht_addr_i,
  input  logic [63:0]       ht_data_i,
  input  logic [7:0]        ht_be_i,
  input  logic [7:0]        ht_tag_i,
  output logic              ht_ready_o,
  output logic              ht_rvalid_o,
  output logic [63:0]       ht_rdata_o,
  output logic [7:0]        ht_rtag_o,
  // host master port (§3.2)
  output logic              hm_valid_o,
  output logic              hm_write_o,
  output logic [49:0]       hm_addr_o,
  output logic [63:0]       hm_data_o,
  output logic [7:0]        hm_be_o,
  output logic [6:0]        hm_len_o,
  output logic [3:0]        hm_tag_o,
  input  logic              hm_ready_i,
  input  logic              hm_rvalid_i,
  input  logic [63:0]       hm_rdata_i,
  input  logic [3:0]        hm_rtag_i,
  // local-memory port (§3.3)
  output logic              lm_valid_o,
  output logic              lm_write_o,
  output logic [27:0]       lm_addr_o,
  output logic [63:0]       lm_wdata_o,
  output logic [7:0]        lm_be_o,
  input  logic              lm_rvalid_i,
  input  logic [63:0]       lm_rdata_i,
  // link port: one elite4 port (§3.4)
  output logic              out_valid_o,
  output logic [1:0]        out_kind_o,
  output logic [VcW-1:0]    out_vc_o,
  output logic [31:0]       out_data_o,
  output logic [NumVcs-1:0] out_credit_o,
  input  logic              in_valid_i,
  input  logic [1:0]        in_kind_i,
  input  logic [VcW-1:0]    in_vc_i,
  input  logic [31:0]       in_data_i,
  input  logic [NumVcs-1:0] in_credit_i,
  // node identity, interrupts, counters, trace (§3.5)
  input  logic [11:0]       node_i,
  output logic              irq_valid_o,
  output logic [3:0]        irq_cause_o,
  output logic [15:0]       irq_info_o,
  output logic [63:0]       irq_data_o,
  output logic [32*28-1:0]  cnt_o,
  output logic              tr_cmd_o,
  output logic [12:0]       tr_cmd_q_o,
  output logic              tr_form_o,
  output logic [12:0]       tr_form_q_o,
  output logic              tr_fire_o,
  output logic [30:0]       tr_fire_addr_o
);


  // ---------------------------------------------------------------- parameter checks (§2)
  if (NumCq < 1 || NumCq > 32) begin : gen_chk_numcq
    $error("elan4: NumCq must be 1..32");
  end
  if (NumQueues < NumCq || NumQueues > 8192) begin : gen_chk_numqueues
    $error("elan4: NumQueues must be NumCq..8192");
  end
  if (DepthKb0 < 1 || (DepthKb0 & (DepthKb0 - 1)) != 0) begin : gen_chk_d0
    $error("elan4: DepthKb0 must be a power of two, 1..512");
  end
  if (DepthKb1 <= DepthKb0 || (DepthKb1 & (DepthKb1 - 1)) != 0) begin : gen_chk_d1
    $error("elan4: DepthKb1 must be a power of two above DepthKb0");
  end
  if (DepthKb2 <= DepthKb1 || (DepthKb2 & (DepthKb2 - 1)) != 0) begin : gen_chk_d2
    $error("elan4: DepthKb2 must be a power of two above DepthKb1");
  end
  if (DepthKb3 <= DepthKb2 || DepthKb3 > 512 || (DepthKb3 & (DepthKb3 - 1)) != 0) begin : gen_chk_d3
    $error("elan4: DepthKb3 must be a power of two above DepthKb2, at most 512");
  end
  if (OooWindow < 1 || OooWindow > 64) begin : gen_chk_ooo
    $error("elan4: OooWindow must be 1..64");
  end
  if (HeadDwords < 12 || HeadDwords > 64) begin : gen_chk_head
    $error("elan4: HeadDwords must be 12..64");
  end
  if (GapTimeout < 16 || GapTimeout > 1048576) begin : gen_chk_gap
    $error("elan4: GapTimeout must be 16..2^20");
  end
  if (NumNodes < 2 || NumNodes > 4096) begin : gen_chk_nodes
    $error("elan4: NumNodes must be 2..4096");
  end
  if (NumVcs != 2 && NumVcs != 4) begin : gen_chk_vcs
    $error("elan4: NumVcs must be 2 or 4");
  end
  if (LinkBuf < 4 || LinkBuf > 64) begin : gen_chk_linkbuf
    $error("elan4: LinkBuf must be 4..64");
  end
  if (VcSten >= NumVcs) begin : gen_chk_vcsten
    $error("elan4: VcSten must be 0..NumVcs-1");
  end
  if (VcDma >= NumVcs) begin : gen_chk_vcdma
    $error("elan4: VcDma must be 0..NumVcs-1");
  end
  if (VcReply >= NumVcs) begin : gen_chk_vcreply
    $error("elan4: VcReply must be 0..NumVcs-1");
  end
  if (MaxOutstanding < 2 || MaxOutstanding > 64) begin : gen_chk_maxout
    $error("elan4: MaxOutstanding must be 2..64");
  end
  if (RetryLimit > 255) begin : gen_chk_retry
    $error("elan4: RetryLimit must be 0..255");
  end
  if (RetryBackoff > 1024) begin : gen_chk_backoff
    $error("elan4: RetryBackoff must be 0..1024");
  end
  if (AckTimeout < 256 || AckTimeout > 16777216) begin : gen_chk_acktimeout
    $error("elan4: AckTimeout must be 256..2^24");
  end
  if (TlbEntries < 2 || TlbEntries > 128) begin : gen_chk_tlb
    $error("elan4: TlbEntries must be 2..128");
  end
  if (PtBits < 4 || PtBits > 16) begin : gen_chk_ptbits
    $error("elan4: PtBits must be 4..16");
  end
  if ((DescBase % 16) != 0 || DescBase + 16 * NumQueues > 32'h8000_0000) begin : gen_chk_descbase
    $error("elan4: DescBase must be 16-byte aligned, its region below 2^31");
  end
  if ((RtBase % 16) != 0 || RtBase + 8 * NumNodes > 32'h8000_0000) begin : gen_chk_rtbase
    $error("elan4: RtBase must be 16-byte aligned, its region below 2^31");
  end
  if ((PtBase % 16) != 0 || PtBase + (16 << PtBits) > 32'h8000_0000) begin : gen_chk_ptbase
    $error("elan4: PtBase must be 16-byte aligned, its region below 2^31");
  end
  if ((DescBase < RtBase + 8 * NumNodes && RtBase < DescBase + 16 * NumQueues) ||
      (DescBase < PtBase + (16 << PtBits) && PtBase < DescBase + 16 * NumQueues) ||
      (RtBase < PtBase + (16 << PtBits) && PtBase < RtBase + 8 * NumNodes)) begin : gen_chk_overlap
    $error("elan4: DescBase and RtBase and PtBase must not overlap");
  end
  if (LmLatency < 1 || LmLatency > 8) begin : gen_chk_lmlat
    $error("elan4: LmLatency must be 1..8");
  end
  if (HostReadTags < 1 || HostReadTags > 16) begin : gen_chk_tags
    $error("elan4: HostReadTags must be 1..16");
  end
  if (ReplySlots < 1 || ReplySlots > 16) begin : gen_chk_reply
    $error("elan4: ReplySlots must be 1..16");
  end
  if (EpFifo < 2 || EpFifo > 16) begin : gen_chk_epfifo
    $error("elan4: EpFifo must be 2..16");
  end
  if (DmaQueue < 1 || DmaQueue > 16) begin : gen_chk_dmaq
    $error("elan4: DmaQueue must be 1..16");
  end
  if (DmaBufDw < 64 || DmaBufDw > 1024 || (DmaBufDw % 64) != 0) begin : gen_chk_dmabuf
    $error("elan4: DmaBufDw must be 64..1024, a multiple of 64");
  end
  if (IrqDepth < 2 || IrqDepth > 64) begin : gen_chk_irq
    $error("elan4: IrqDepth must be 2..64");
  end

  localparam int unsigned SW   = (NumCq > 1) ? $clog2(NumCq) : 1;
  localparam int unsigned TagW = 12;

  // ---------------------------------------------------------------- wires
  logic [12:0]   lka_q, lkb_q, miss_q, ri_q;
  logic          lka_hit, lkb_hit, win_ok, arr_v, miss_v, miss_done, ri_v, ri_hit;
  logic [SW-1:0] lka_slot, lkb_slot, arr_slot, ri_slot;
  logic [63:0]   lkb_stat, arr_data, ri_val;
  logic [8:0]    arr_k;
  logic [7:0]    arr_be, ri_code;
  logic [1:0]    ri_st;
  logic          pio_v, pio_we, pio_gnt, pio_rd_v, tlb_flush;
  logic [27:0]   pio_addr;
  logic [63:0]   pio_wdata;
  logic          c_pio_wr, c_pio_rd, c_pio_bad;

  logic [6:0]        lm_v, lm_we, lm_gnt, lm_rdv;
  logic [7*28-1:0]   lm_addr;
  logic [7*64-1:0]   lm_wd;
  logic [7*TagW-1:0] lm_tag;
  logic [TagW-1:0]   lm_rtag;
  logic [63:0]       lm_rdata;
  logic              lm_perr;

  logic [NumCq-1:0]       s_used, partial, abandon;
  logic [NumCq*13-1:0]    s_qid;
  logic [NumCq*2-1:0]     s_st, s_cls, s_out;
  logic [NumCq*7-1:0]     s_en, s_avail;
  logic [NumCq*14-1:0]    s_ctx;
  logic [NumCq*31-1:0]    s_base;
  logic [NumCq*20-1:0]    s_rp, s_wprp;
  logic [NumCq*11*64-1:0] s_head;

  logic          cp_acc, cp_sten, cp_ep, cp_dma, cp_err, cp_irq;
  logic [SW-1:0] cp_slot;
  logic [3:0]    cp_len;
  logic [11*64-1:0] cp_cmd;
  logic [7:0]    cp_code;
  logic [83:0]   cp_irq_rec;

  logic          st_ok, st_busy, st_err, st_formed, tk_ack, tk_fail;
  logic [SW-1:0] st_busy_slot, st_err_slot, tk_ack_slot, tk_fail_slot;
  logic [19:0]   st_err_pos, tk_ack_pos, tk_fail_pos;
  logic          tx_req, tx_head, tx_tail;
  logic [31:0]   tx_route;
  logic [4:0]    tx_nbody;
  logic [22*32-1:0] tx_words;
  logic [SW-1:0] tx_slot, res_slot;
  logic [19:0]   tx_pos, res_pos;
  logic [3:0]    tx_len, res_len;
  logic [7:0]    tx_try, res_try;
  logic [11:0]   tx_dest, res_dest;
  logic          res_v, res_ack, res_abn;

  logic [4:0]      cq_irq_v;
  logic [5*84-1:0] cq_irq_rec;
  logic            c_discard, c_load, c_spill;
  logic [3:0]      c_error;
  logic            c_txpkt, c_txtok, c_nacktx, c_rxtok, c_ack, c_nack, c_resend;
  logic [2:0]      c_timeout, c_tproto;
  logic [3:0]      irq_lost;

  // ---------------------------------------------------------------- units
  elan4_host_port #(
    .NumQueues(NumQueues), .DepthKb0(DepthKb0), .DepthKb1(DepthKb1), .DepthKb2(DepthKb2),
    .DepthKb3(DepthKb3), .DescBase(DescBase), .NumCq(NumCq)
  ) u_host (
    .clk_i, .rst_ni, .ht_valid_i, .ht_write_i, .ht_addr_i, .ht_data_i, .ht_be_i, .ht_tag_i,
    .ht_ready_o, .ht_rvalid_o, .ht_rdata_o, .ht_rtag_o,
    .lka_q_o(lka_q), .lka_hit_i(lka_hit), .lka_slot_i(lka_slot),
    .lkb_q_o(lkb_q), .lkb_hit_i(lkb_hit), .lkb_slot_i(lkb_slot), .lkb_stat_i(lkb_stat),
    .win_ok_i(win_ok), .iw_present_d_i(ip_iw_want_d || ep_iw_want_d), .iok_o(iok),
    .iw_v_i(iw_v), .iw_q_i(iw_q), .iw_k_i(iw_k), .iw_data_i(iw_data),
    .arr_v_o(arr_v), .arr_slot_o(arr_slot), .arr_k_o(arr_k), .arr_data_o(arr_data), .arr_be_o(arr_be),
    .miss_v_o(miss_v), .miss_q_o(miss_q), .miss_done_i(miss_done),
    .ri_v_o(ri_v), .ri_hit_o(ri_hit), .ri_slot_o(ri_slot), .ri_q_o(ri_q), .ri_val_o(ri_val),
    .ri_st_o(ri_st), .ri_code_o(ri_code),
    .pio_req_v_o(pio_v), .pio_req_we_o(pio_we), .pio_req_addr_o(pio_addr), .pio_req_wdata_o(pio_wdata),
    .pio_gnt_i(pio_gnt), .pio_rd_v_i(pio_rd_v), .pio_rd_data_i(lm_rdata),
    .fill_busy_i(fill_busy), .tlb_flush_o(tlb_flush),
    .cnt_wr_o(c_pio_wr), .cnt_rd_o(c_pio_rd), .cnt_bad_o(c_pio_bad)
  );

  elan4_cq_cache #(
    .NumCq(NumCq), .DepthKb0(DepthKb0), .DepthKb1(DepthKb1), .DepthKb2(DepthKb2), .DepthKb3(DepthKb3),
    .OooWindow(OooWindow), .HeadDwords(HeadDwords), .GapTimeout(GapTimeout), .DescBase(DescBase),
    .TagW(TagW)
  ) u_cache (
    .clk_i, .rst_ni,
    .lka_q_i(lka_q), .lka_hit_o(lka_hit), .lka_slot_o(lka_slot),
    .lkb_q_i(lkb_q), .lkb_hit_o(lkb_hit), .lkb_slot_o(lkb_slot), .lkb_stat_o(lkb_stat),
    .win_ok_o(win_ok),
    .arr_v_i(arr_v), .arr_slot_i(arr_slot), .arr_k_i(arr_k), .arr_data_i(arr_data), .arr_be_i(arr_be),
    .miss_v_i(miss_v), .miss_q_i(miss_q), .miss_done_o(miss_done),
    .ri_v_i(ri_v), .ri_hit_i(ri_hit), .ri_slot_i(ri_slot), .ri_q_i(ri_q), .ri_val_i(ri_val),
    .ri_st_i(ri_st), .ri_code_i(ri_code),
    .pio_req_v_i(pio_v), .pio_req_we_i(pio_we), .pio_req_addr_i(pio_addr), .pio_req_wdata_i(pio_wdata),
    .pio_gnt_o(pio_gnt), .pio_rd_v_o(pio_rd_v),
    .lm_req_v_o(lm_v[4]), .lm_req_we_o(lm_we[4]), .lm_req_addr_o(lm_addr[4*28 +: 28]),
    .lm_req_wdata_o(lm_wd[4*64 +: 64]), .lm_req_tag_o(lm_tag[4*TagW +: TagW]), .lm_gnt_i(lm_gnt[4]),
    .lm_rd_v_i(lm_rdv[4]), .lm_rd_tag_i(lm_rtag), .lm_rd_data_i(lm_rdata),
    .s_used_o(s_used), .s_qid_o(s_qid), .s_st_o(s_st), .s_en_o(s_en), .s_ctx_o(s_ctx),
    .s_base_o(s_base), .s_cls_o(s_cls), .s_rp_o(s_rp), .s_avail_o(s_avail), .s_wprp_o(s_wprp),
    .s_out_o(s_out), .s_head_o(s_head), .partial_i(partial),
    .cp_acc_v_i(cp_acc), .cp_slot_i(cp_slot), .cp_len_i(cp_len), .cp_sten_i(cp_sten),
    .cp_err_v_i(cp_err), .cp_err_code_i(cp_code),
    .st_job_v_i(st_busy), .st_job_slot_i(st_busy_slot),
    .st_err_v_i(st_err), .st_err_slot_i(st_err_slot), .st_err_pos_i(st_err_pos),
    .tk_ack_v_i(tk_ack), .tk_ack_slot_i(tk_ack_slot), .tk_ack_pos_i(tk_ack_pos),
    .tk_fail_v_i(tk_fail), .tk_fail_slot_i(tk_fail_slot), .tk_fail_pos_i(tk_fail_pos),
    .abandon_o(abandon), .irq_v_o(cq_irq_v), .irq_rec_o(cq_irq_rec),
    .cnt_discard_o(c_discard), .cnt_error_o(c_error), .cnt_load_o(c_load), .cnt_spill_o(c_spill)
  );

  elan4_cmd_proc #(.NumCq(NumCq), .NumNodes(NumNodes)) u_cp (
    .clk_i, .rst_ni,
    .s_qid_i(s_qid), .s_st_i(s_st), .s_en_i(s_en), .s_rp_i(s_rp), .s_avail_i(s_avail),
    .s_wprp_i(s_wprp), .s_out_i(s_out), .s_head_i(s_head), .partial_o(partial),
    .sten_ok_i(st_ok), .ep_ok_i(ep_cp_ok), .dma_ok_i(dm_q_ok),
    .acc_v_o(cp_acc), .slot_o(cp_slot), .len_o(cp_len), .sten_o(cp_sten), .ep_o(cp_ep),
    .dma_o(cp_dma), .cmd_o(cp_cmd), .err_v_o(cp_err), .err_code_o(cp_code),
    .irq_v_o(cp_irq), .irq_rec_o(cp_irq_rec)
  );

  elan4_sten #(
    .NumCq(NumCq), .DepthKb0(DepthKb0), .DepthKb1(DepthKb1), .DepthKb2(DepthKb2), .DepthKb3(DepthKb3),
    .RtBase(RtBase), .RetryLimit(RetryLimit), .RetryBackoff(RetryBackoff), .TagW(TagW)
  ) u_sten (
    .clk_i, .rst_ni, .node_i,
    .job_v_i(cp_sten), .job_slot_i(cp_slot), .job_len_i(cp_len), .job_cmd_i(cp_cmd),
    .s_st_i(s_st), .s_base_i(s_base), .s_cls_i(s_cls), .s_ctx_i(s_ctx), .s_rp_i(s_rp),
    .abandon_i(abandon), .ok_o(st_ok), .busy_o(st_busy), .busy_slot_o(st_busy_slot),
    .lm_req_v_o(lm_v[5]), .lm_req_addr_o(lm_addr[5*28 +: 28]), .lm_req_tag_o(lm_tag[5*TagW +: TagW]),
    .lm_gnt_i(lm_gnt[5]), .lm_rd_v_i(lm_rdv[5]), .lm_rd_tag_i(lm_rtag), .lm_rd_data_i(lm_rdata),
    .tx_req_o(tx_req), .tx_route_o(tx_route), .tx_nbody_o(tx_nbody), .tx_words_o(tx_words),
    .tx_slot_o(tx_slot), .tx_pos_o(tx_pos), .tx_len_o(tx_len), .tx_try_o(tx_try), .tx_dest_o(tx_dest),
    .tx_head_i(tx_head), .tx_tail_i(tx_tail),
    .res_v_i(res_v), .res_ack_i(res_ack), .res_abn_i(res_abn), .res_slot_i(res_slot),
    .res_pos_i(res_pos), .res_len_i(res_len), .res_try_i(res_try), .res_dest_i(res_dest),
    .tk_ack_v_o(tk_ack), .tk_ack_slot_o(tk_ack_slot), .tk_ack_pos_o(tk_ack_pos),
    .tk_fail_v_o(tk_fail), .tk_fail_slot_o(tk_fail_slot), .tk_fail_pos_o(tk_fail_pos),
    .err_v_o(st_err), .err_slot_o(st_err_slot), .err_pos_o(st_err_pos), .formed_o(st_formed)
  );
  assign lm_we[5]              = 1'b0;
  assign lm_wd[5*64 +: 64]     = '0;

  elan4_link_tx #(
    .NumCq(NumCq), .NumVcs(NumVcs), .LinkBuf(LinkBuf), .VcSten(VcSten), .VcReply(VcReply),
    .VcDma(VcDma), .ReplySlots(ReplySlots), .MaxOutstanding(MaxOutstanding), .AckTimeout(AckTimeout)
  ) u_tx (
    .clk_i, .rst_ni,
    .st_req_i(tx_req), .st_route_i(tx_route), .st_nbody_i(tx_nbody), .st_words_i(tx_words),
    .st_slot_i(tx_slot), .st_pos_i(tx_pos), .st_len_i(tx_len), .st_try_i(tx_try), .st_dest_i(tx_dest),
    .st_head_o(tx_head), .st_tail_o(tx_tail), .abandon_i(abandon),
    .rp_req_i(rp_req), .rp_route_i(rp_route), .rp_nbody_i(rp_nbody), .rp_words_i(rp_words),
    .rp_slot_i(rp_slot), .rp_try_i(rp_try), .rp_head_o(rp_head), .rp_tail_o(rp_tail),
    .rp_res_v_o(rp_res_v), .rp_res_ack_o(rp_res_ack), .rp_res_slot_o(rp_res_slot),
    .rp_res_try_o(rp_res_try),
    .dm_req_i(dm_req), .dm_route_i(dm_route), .dm_nbody_i(dm_nbody), .dm_words_i(dm_words),
    .dm_off_i(dm_off), .dm_try_i(dm_try), .dm_head_o(dm_head), .dm_abandon_i(dm_abn),
    .dm_res_v_o(dm_res_v), .dm_res_ack_o(dm_res_ack), .dm_res_off_o(dm_res_off),
    .dm_res_try_o(dm_res_try),
    .tk_push_i(ip_tok), .tk_vc_i(ip_tok_vc), .tk_ack_i(ip_tok_ack),
    .res_v_o(res_v), .res_ack_o(res_ack), .res_abn_o(res_abn), .res_slot_o(res_slot),
    .res_pos_o(res_pos), .res_len_o(res_len), .res_try_o(res_try), .res_dest_o(res_dest),
    .out_valid_o, .out_kind_o, .out_vc_o, .out_data_o,
    .in_valid_i, .in_kind_i, .in_vc_i, .in_data_i, .in_credit_i,
    .cnt_tx_pkt_o(c_txpkt), .cnt_tx_tok_o(c_txtok), .cnt_nack_tx_o(c_nacktx), .cnt_rx_tok_o(c_rxtok), .cnt_ack_o(c_ack), .cnt_nack_o(c_nack),
    .cnt_resend_o(c_resend), .cnt_timeout_o(c_timeout), .cnt_proto_o(c_tproto)
  );

  // MMU (§6.6): lookups from the IP (0), EP (1) and DMA (2).
  logic [2:0]  mmu_gnt, mmu_res_v;
  logic        mmu_ok, mmu_w, mmu_r, fill_busy, c_hit, c_miss;
  logic [1:0]  mmu_space;
  logic [49:0] mmu_pa;
  elan4_mmu #(
    .TlbEntries(TlbEntries), .PtBits(PtBits), .PtBase(PtBase), .NumQueues(NumQueues),
    .LmLatency(LmLatency), .TagW(TagW)
  ) u_mmu (
    .clk_i, .rst_ni, .req_v_i({dm_mmu_req, ep_mmu_req, ip_mmu_req}),
    .req_ctx_i({dm_mmu_ctx, ep_mmu_ctx, ip_mmu_ctx}), .req_va_i({dm_mmu_va, ep_mmu_va, ip_mmu_va}),
    .gnt_o(mmu_gnt),
    .res_v_o(mmu_res_v), .res_ok_o(mmu_ok), .res_w_o(mmu_w), .res_r_o(mmu_r),
    .res_space_o(mmu_space), .res_pa_o(mmu_pa), .fill_busy_o(fill_busy), .flush_i(tlb_flush),
    .lm_req_v_o(lm_v[0]), .lm_req_addr_o(lm_addr[0 +: 28]), .lm_req_tag_o(lm_tag[0 +: TagW]),
    .lm_rd_v_i(lm_rdv[0]), .lm_rd_data_i(lm_rdata), .cnt_hit_o(c_hit), .cnt_miss_o(c_miss)
  );
  assign lm_we[0] = 1'b0;
  assign lm_wd[0 +: 64] = '0;

  assign lm_we[6] = 1'b0;                // DMA: reads only
  assign lm_wd[6*64 +: 64]   = '0;
  assign lm_tag[TagW +: TagW] = '0;      // IP: one read at a time
  assign lm_we[2] = 1'b0;                // RP: reads only
  assign lm_wd[2*64 +: 64] = '0;
  assign lm_tag[3*TagW +: TagW] = '0;    // EP: one read at a time

  elan4_lm_arb #(.LmLatency(LmLatency), .NumReq(7), .TagW(TagW)) u_lm (
    .clk_i, .rst_ni,
    .req_v_i(lm_v), .req_we_i(lm_we), .req_addr_i(lm_addr), .req_wdata_i(lm_wd), .req_tag_i(lm_tag),
    .gnt_o(lm_gnt), .rd_v_o(lm_rdv), .rd_tag_o(lm_rtag), .rd_data_o(lm_rdata), .proto_err_o(lm_perr),
    .lm_valid_o, .lm_write_o, .lm_addr_o, .lm_wdata_o, .lm_be_o, .lm_rvalid_i, .lm_rdata_i
  );

  // ---------------------------------------------------------------- host master (§3.2)
  // IP (0) > RP (1) > EP (2) > DMA (3)
  logic [3:0]     hm_v, hm_we, hm_gnt, hm_rdv;
  logic [4*50-1:0] hm_addr;
  logic [4*64-1:0] hm_dat;
  logic [4*7-1:0]  hm_len;
  logic [3:0]      hm_gtag, hm_rtag;
  logic            hm_tfree, hm_perr;
  logic [63:0]     hm_rdata;
  assign hm_we[3] = 1'b0; assign hm_dat[3*64 +: 64] = '0;   // DMA: reads only
  assign hm_we[1] = 1'b0; assign hm_dat[64 +: 64] = '0;   // RP: reads only
  assign hm_we[2] = 1'b1; assign hm_len[2*7 +: 7] = '0;   // EP: writes only
  elan4_hm_arb #(.HostReadTags(HostReadTags), .NumReq(4)) u_hm (
    .clk_i, .rst_ni, .req_v_i(hm_v), .req_we_i(hm_we), .req_addr_i(hm_addr), .req_data_i(hm_dat),
    .req_len_i(hm_len), .gnt_o(hm_gnt), .gnt_tag_o(hm_gtag), .tag_free_o(hm_tfree),
    .rd_v_o(hm_rdv), .rd_tag_o(hm_rtag), .rd_data_o(hm_rdata), .proto_err_o(hm_perr),
    .hm_valid_o, .hm_write_o, .hm_addr_o, .hm_data_o, .hm_be_o, .hm_len_o, .hm_tag_o,
    .hm_ready_i, .hm_rvalid_i, .hm_rdata_i, .hm_rtag_i
  );

  // ---------------------------------------------------------------- receiver, IP (§6.5)
  logic              pk_v, pk_over, pk_ok, c_rxpkt, c_rproto, pk_take;
  logic [VcW-1:0]    pk_vc, sel_vc;
  logic [31:0]       pk_route;
  logic [22*32-1:0]  pk_words, sel_words;
  logic [4:0]        pk_nw;
  logic [NumVcs-1:0] rx_free;
  elan4_link_rx #(.NumVcs(NumVcs)) u_rx (
    .clk_i, .rst_ni, .in_valid_i, .in_kind_i, .in_vc_i, .in_data_i, .out_credit_o,
    .pk_v_o(pk_v), .pk_vc_o(pk_vc), .pk_route_o(pk_route), .pk_words_o(pk_words),
    .pk_nwords_o(pk_nw), .pk_over_o(pk_over), .pk_crc_ok_o(pk_ok),
    .pk_take_i(pk_take), .free_i(rx_free), .sel_vc_i(sel_vc), .sel_words_o(sel_words),
    .cnt_rx_pkt_o(c_rxpkt), .cnt_proto_o(c_rproto)
  );

  localparam int unsigned RsW = (ReplySlots > 1) ? $clog2(ReplySlots) : 1;
  logic              ip_tok, ip_tok_ack, ip_mmu_req, iok, ip_iw_v, ip_iw_want_d, ep_iw_want_d, ip_iw_want;
  logic [VcW-1:0]    ip_tok_vc;
  logic [13:0]       ip_mmu_ctx;
  logic [63:0]       ip_mmu_va, ip_iw_data;
  logic [12:0]       ip_iw_q;
  logic [8:0]        ip_iw_k;
  logic              ep_room, ip_ep_push, rs_res, rs_old_v;
  logic [30:0]       ip_ep_addr;
  logic [31:0]       ip_ep_inc;
  logic [ReplySlots-1:0] rs_free;
  logic [RsW-1:0]    rs_idx, rs_old_idx;
  logic [208:0]      rs_info;
  logic [63:0]       rs_old;
  logic              ip_irq_v, c_crc, c_bad, c_xlate, c_prot, c_busy;
  logic [83:0]       ip_irq_rec;
  always_comb begin
    rx_free = '0;
    rx_free[ip_tok_vc] = ip_tok;
  end
  elan4_input_proc #(.NumVcs(NumVcs), .NumNodes(NumNodes), .ReplySlots(ReplySlots)) u_ip (
    .clk_i, .rst_ni,
    .pk_v_i(pk_v), .pk_vc_i(pk_vc), .pk_route_i(pk_route), .pk_words_i(pk_words),
    .pk_nwords_i(pk_nw), .pk_over_i(pk_over), .pk_crc_ok_i(pk_ok), .pk_take_o(pk_take),
    .sel_vc_o(sel_vc), .sel_words_i(sel_words),
    .tok_v_o(ip_tok), .tok_vc_o(ip_tok_vc), .tok_ack_o(ip_tok_ack),
    .mmu_req_o(ip_mmu_req), .mmu_ctx_o(ip_mmu_ctx), .mmu_va_o(ip_mmu_va),
    .mmu_res_v_i(mmu_res_v[0]), .mmu_ok_i(mmu_ok), .mmu_w_i(mmu_w), .mmu_r_i(mmu_r),
    .mmu_space_i(mmu_space), .mmu_pa_i(mmu_pa),
    .lm_req_v_o(lm_v[1]), .lm_req_we_o(lm_we[1]), .lm_req_addr_o(lm_addr[1*28 +: 28]),
    .lm_req_wdata_o(lm_wd[1*64 +: 64]), .lm_gnt_i(lm_gnt[1]), .lm_rd_v_i(lm_rdv[1]),
    .lm_rd_data_i(lm_rdata),
    .hm_req_v_o(hm_v[0]), .hm_req_we_o(hm_we[0]), .hm_req_addr_o(hm_addr[0 +: 50]),
    .hm_req_data_o(hm_dat[0 +: 64]), .hm_req_len_o(hm_len[0 +: 7]), .hm_tag_free_i(hm_tfree),
    .hm_gnt_i(hm_gnt[0]), .hm_rd_v_i(hm_rdv[0]), .hm_rd_data_i(hm_rdata),
    .iok_i(iok), .iw_v_o(ip_iw_v), .iw_q_o(ip_iw_q), .iw_k_o(ip_iw_k), .iw_data_o(ip_iw_data),
    .iw_want_d_o(ip_iw_want_d), .iw_want_o(ip_iw_want),
    .ep_room_i(ep_room), .ep_push_o(ip_ep_push), .ep_addr_o(ip_ep_addr), .ep_inc_o(ip_ep_inc),
    .rs_free_i(rs_free), .rs_res_o(rs_res), .rs_idx_o(rs_idx), .rs_info_o(rs_info),
    .rs_old_v_o(rs_old_v), .rs_old_idx_o(rs_old_idx), .rs_old_o(rs_old),
    .irq_v_o(ip_irq_v), .irq_rec_o(ip_irq_rec),
    .cnt_crc_o(c_crc), .cnt_bad_o(c_bad), .cnt_xlate_o(c_xlate), .cnt_prot_o(c_prot),
    .cnt_busy_o(c_busy)
  );

  // ---------------------------------------------------------------- reply unit (§6.5)
  logic              rp_req, rp_head, rp_tail, rp_res_v, rp_res_ack;
  logic [31:0]       rp_route;
  logic [4:0]        rp_nbody;
  logic [22*32-1:0]  rp_words;
  logic [RsW-1:0]    rp_slot, rp_res_slot;
  logic [7:0]        rp_try, rp_res_try;
  logic [1:0]        rp_irq_v;
  logic [2*84-1:0]   rp_irq_rec;
  elan4_reply #(
    .ReplySlots(ReplySlots), .RtBase(RtBase), .RetryLimit(RetryLimit),
    .RetryBackoff(RetryBackoff), .TagW(TagW)
  ) u_rp (
    .clk_i, .rst_ni, .node_i,
    .free_o(rs_free), .res_v_i(rs_res), .res_idx_i(rs_idx), .res_info_i(rs_info),
    .old_v_i(rs_old_v), .old_idx_i(rs_old_idx), .old_i(rs_old),
    .lm_req_v_o(lm_v[2]), .lm_req_addr_o(lm_addr[2*28 +: 28]), .lm_req_tag_o(lm_tag[2*TagW +: TagW]),
    .lm_gnt_i(lm_gnt[2]), .lm_rd_v_i(lm_rdv[2]), .lm_rd_tag_i(lm_rtag), .lm_rd_data_i(lm_rdata),
    .hm_req_v_o(hm_v[1]), .hm_req_addr_o(hm_addr[50 +: 50]), .hm_req_len_o(hm_len[7 +: 7]),
    .hm_tag_free_i(hm_tfree), .hm_gnt_i(hm_gnt[1]), .hm_rd_v_i(hm_rdv[1]), .hm_rd_data_i(hm_rdata),
    .tx_req_o(rp_req), .tx_route_o(rp_route), .tx_nbody_o(rp_nbody), .tx_words_o(rp_words),
    .tx_slot_o(rp_slot), .tx_try_o(rp_try), .tx_head_i(rp_head), .tx_tail_i(rp_tail),
    .tk_v_i(rp_res_v), .tk_ack_i(rp_res_ack), .tk_slot_i(rp_res_slot), .tk_try_i(rp_res_try),
    .irq_v_o(rp_irq_v), .irq_rec_o(rp_irq_rec)
  );

  // ---------------------------------------------------------------- event processor (§6.7)
  logic        ep_cp_ok, ep_mmu_req, ep_iw_v, ep_irq_v, c_evset, c_evfired, ep_fire;
  logic [13:0] ep_mmu_ctx;
  logic [63:0] ep_mmu_va, ep_iw_data;
  logic [12:0] ep_iw_q;
  logic [8:0]  ep_iw_k;
  logic [83:0] ep_irq_rec;
  logic [30:0] ep_fire_addr;
  elan4_event_proc #(.EpFifo(EpFifo)) u_ep (
    .clk_i, .rst_ni,
    .ip_room_o(ep_room), .ip_push_i(ip_ep_push), .ip_addr_i(ip_ep_addr), .ip_inc_i(ip_ep_inc),
    .dma_ok_o(ep_dm_ok), .dma_push_i(dm_ep_push), .dma_va_i(dm_ep_va), .dma_ctx_i(dm_ep_ctx),
    .cp_ok_o(ep_cp_ok), .cp_push_i(cp_ep), .cp_cmd_i(cp_cmd), .cp_ctx_i(s_ctx[32'(cp_slot)*14 +: 14]),
    .mmu_req_o(ep_mmu_req), .mmu_ctx_o(ep_mmu_ctx), .mmu_va_o(ep_mmu_va),
    .mmu_res_v_i(mmu_res_v[1]), .mmu_ok_i(mmu_ok), .mmu_space_i(mmu_space), .mmu_pa_i(mmu_pa),
    .lm_req_v_o(lm_v[3]), .lm_req_we_o(lm_we[3]), .lm_req_addr_o(lm_addr[3*28 +: 28]),
    .lm_req_wdata_o(lm_wd[3*64 +: 64]), .lm_gnt_i(lm_gnt[3]), .lm_rd_v_i(lm_rdv[3]),
    .lm_rd_data_i(lm_rdata),
    .hm_req_v_o(hm_v[2]), .hm_req_addr_o(hm_addr[2*50 +: 50]), .hm_req_data_o(hm_dat[2*64 +: 64]),
    .hm_gnt_i(hm_gnt[2]),
    .iw_gnt_i(iok && !ip_iw_v), .iw_v_o(ep_iw_v), .iw_q_o(ep_iw_q), .iw_k_o(ep_iw_k),
    .iw_data_o(ep_iw_data), .iw_want_d_o(ep_iw_want_d),
    .irq_v_o(ep_irq_v), .irq_rec_o(ep_irq_rec), .cnt_set_o(c_evset), .cnt_fired_o(c_evfired),
    .fire_o(ep_fire), .fire_addr_o(ep_fire_addr)
  );

  // internal queue writes: the IP's first (§5.2)
  logic        iw_v;
  logic [12:0] iw_q;
  logic [8:0]  iw_k;
  logic [63:0] iw_data;
  assign iw_v    = ip_iw_v || ep_iw_v;
  // the write's fields by who wants the intake (a register), not by who
  // presents (which waits for intake_ok): the same whenever one is accepted,
  // and the lookup need not wait for intake_ok (timing)
  assign iw_q    = ip_iw_want ? ip_iw_q : ep_iw_q;
  assign iw_k    = ip_iw_want ? ip_iw_k : ep_iw_k;
  assign iw_data = ip_iw_want ? ip_iw_data : ep_iw_data;

  // ---------------------------------------------------------------- DMA engine (§6.8)
  logic              dm_q_ok, dm_req, dm_head, dm_abn, dm_res_v, dm_res_ack, dm_mmu_req;
  logic              ep_dm_ok, dm_ep_push, dm_irq_v;
  logic [31:0]       dm_route, dm_off, dm_res_off;
  logic [4:0]        dm_nbody;
  logic [22*32-1:0]  dm_words;
  logic [7:0]        dm_try, dm_res_try;
  logic [13:0]       dm_mmu_ctx, dm_ep_ctx;
  logic [63:0]       dm_mmu_va, dm_ep_va;
  logic [83:0]       dm_irq_rec;
  elan4_dma #(
    .DmaQueue(DmaQueue), .DmaBufDw(DmaBufDw), .RtBase(RtBase), .RetryLimit(RetryLimit),
    .RetryBackoff(RetryBackoff), .HostReadTags(HostReadTags), .TagW(TagW)
  ) u_dma (
    .clk_i, .rst_ni, .node_i,
    .q_ok_o(dm_q_ok), .q_push_i(cp_dma), .q_qid_i(s_qid[32'(cp_slot)*13 +: 13]),
    .q_ctx_i(s_ctx[32'(cp_slot)*14 +: 14]), .q_cmd_i(cp_cmd[0 +: 5*64]),
    .lm_req_v_o(lm_v[6]), .lm_req_addr_o(lm_addr[6*28 +: 28]), .lm_req_tag_o(lm_tag[6*TagW +: TagW]),
    .lm_gnt_i(lm_gnt[6]), .lm_rd_v_i(lm_rdv[6]), .lm_rd_tag_i(lm_rtag), .lm_rd_data_i(lm_rdata),
    .hm_req_v_o(hm_v[3]), .hm_req_addr_o(hm_addr[3*50 +: 50]), .hm_req_len_o(hm_len[3*7 +: 7]),
    .hm_tag_free_i(hm_tfree), .hm_gnt_i(hm_gnt[3]), .hm_gnt_tag_i(hm_gtag), .hm_rd_v_i(hm_rdv[3]),
    .hm_rd_tag_i(hm_rtag), .hm_rd_data_i(hm_rdata),
    .mmu_req_o(dm_mmu_req), .mmu_ctx_o(dm_mmu_ctx), .mmu_va_o(dm_mmu_va), .mmu_gnt_i(mmu_gnt[2]),
    .mmu_res_v_i(mmu_res_v[2]), .mmu_ok_i(mmu_ok), .mmu_space_i(mmu_space), .mmu_pa_i(mmu_pa),
    .tx_req_o(dm_req), .tx_route_o(dm_route), .tx_nbody_o(dm_nbody), .tx_words_o(dm_words),
    .tx_off_o(dm_off), .tx_try_o(dm_try), .tx_head_i(dm_head), .abandon_o(dm_abn),
    .tk_v_i(dm_res_v), .tk_ack_i(dm_res_ack), .tk_off_i(dm_res_off), .tk_try_i(dm_res_try),
    .ep_ok_i(ep_dm_ok), .ep_push_o(dm_ep_push), .ep_va_o(dm_ep_va), .ep_ctx_o(dm_ep_ctx),
    .irq_v_o(dm_irq_v), .irq_rec_o(dm_irq_rec)
  );

  // ---------------------------------------------------------------- interrupts (§6.9)
  // order: IP, EP, CQ (arrival / CQCTL), CQ (gap), CP, ST, token handling, RP, DMA
  logic [9:0]       ipush;
  logic [10*84-1:0] irec;
  assign ipush = {dm_irq_v, rp_irq_v, cq_irq_v[4], cq_irq_v[3], cp_irq || cq_irq_v[2], cq_irq_v[1],
                  cq_irq_v[0], ep_irq_v, ip_irq_v};
  assign irec  = {dm_irq_rec, rp_irq_rec, cq_irq_rec[4*84 +: 84], cq_irq_rec[3*84 +: 84],
                  cp_irq ? cp_irq_rec : cq_irq_rec[2*84 +: 84],
                  cq_irq_rec[1*84 +: 84], cq_irq_rec[0 +: 84], ep_irq_rec, ip_irq_rec};
  elan4_irq #(.IrqDepth(IrqDepth), .NumPush(10)) u_irq (
    .clk_i, .rst_ni, .push_i(ipush), .rec_i(irec), .lost_o(irq_lost),
    .irq_valid_o, .irq_cause_o, .irq_info_o, .irq_data_o
  );

  // ---------------------------------------------------------------- counters (§6.10)
  logic [28*4-1:0] inc;
  always_comb begin
    inc = '0;
    inc[0*4 +: 4]  = 4'(c_pio_wr);
    inc[1*4 +: 4]  = 4'(c_pio_rd);
    inc[2*4 +: 4]  = 4'(c_pio_bad);
    inc[3*4 +: 4]  = 4'(c_discard);
    inc[4*4 +: 4]  = c_error;
    inc[5*4 +: 4]  = 4'(c_load);
    inc[6*4 +: 4]  = 4'(c_spill);
    inc[7*4 +: 4]  = 4'(cp_acc);
    inc[8*4 +: 4]  = 4'(c_txpkt);
    inc[9*4 +: 4]  = 4'(c_txtok);
    inc[10*4 +: 4] = 4'(c_rxpkt);
    inc[11*4 +: 4] = 4'(c_rxtok);
    inc[12*4 +: 4] = 4'(c_ack);
    inc[13*4 +: 4] = 4'(c_nack);
    inc[14*4 +: 4] = 4'(c_resend);
    inc[15*4 +: 4] = 4'(c_timeout);
    inc[16*4 +: 4] = 4'(c_nacktx);
    inc[17*4 +: 4] = 4'(c_crc);
    inc[18*4 +: 4] = 4'(c_bad);
    inc[19*4 +: 4] = 4'(c_hit);
    inc[20*4 +: 4] = 4'(c_miss);
    inc[21*4 +: 4] = 4'(c_xlate);
    inc[22*4 +: 4] = 4'(c_prot);
    inc[23*4 +: 4] = 4'(c_busy);
    inc[24*4 +: 4] = 4'(c_evset);
    inc[25*4 +: 4] = 4'(c_evfired);
    inc[26*4 +: 4] = irq_lost;
    inc[27*4 +: 4] = 4'(c_tproto) + 4'(c_rproto) + 4'(lm_perr) + 4'(hm_perr);
  end
  elan4_counters u_cnt (.clk_i, .rst_ni, .inc_i(inc), .cnt_o);

  // ---------------------------------------------------------------- trace (§3.5)
  logic        trc_q, trf_q;
  logic [12:0] trcq_q, trfq_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      trc_q <= 1'b0; trcq_q <= '0; trf_q <= 1'b0; trfq_q <= '0;
    end else begin
      trc_q  <= cp_acc;
      trcq_q <= cp_acc ? s_qid[32'(cp_slot)*13 +: 13] : 13'd0;
      trf_q  <= st_formed;
      trfq_q <= st_formed ? s_qid[32'(tx_slot)*13 +: 13] : 13'd0;
    end
  end
  assign tr_cmd_o       = trc_q;
  assign tr_cmd_q_o     = trcq_q;
  assign tr_form_o      = trf_q;
  assign tr_form_q_o    = trfq_q;
  logic        trx_q;
  logic [30:0] trxa_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin trx_q <= 1'b0; trxa_q <= '0; end
    else begin trx_q <= ep_fire; trxa_q <= ep_fire ? ep_fire_addr : 31'd0; end
  end
  assign tr_fire_o      = trx_q;
  assign tr_fire_addr_o = trxa_q;

  logic unused_e4;
  assign unused_e4 = ^{mmu_gnt[1:0], lm_gnt[0], hm_rdv[2], s_used};
endmodule
