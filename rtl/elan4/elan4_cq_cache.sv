// elan4_cq_cache: queue intake and descriptor cache (docs/elan4.md §6.1
// "Arrival", "Gap timeout", "Drain and head buffer"; §6.2; §7).
//
// NumCq slots. Each keeps a ring of the in-order undrained and out-of-order
// dwords indexed by position mod Ring (Ring >= 4*OooWindow covers every
// position in [dp, wp + OooWindow) the window rule admits) and a head buffer
// indexed by position mod Hb. One CQ-class local-memory request per cycle:
// the host port's PIO access or the miss sequence, else a refill, else a
// drain (§6.1). Errors entering a slot in one cycle are ordered intake, CP,
// ST, token handling (§7); a CQCTL re-initialisation wins over all of them.
module elan4_cq_cache #(
  parameter int unsigned NumCq      = 8,
  parameter int unsigned DepthKb0   = 1,
  parameter int unsigned DepthKb1   = 8,
  parameter int unsigned DepthKb2   = 64,
  parameter int unsigned DepthKb3   = 512,
  parameter int unsigned OooWindow  = 16,
  parameter int unsigned HeadDwords = 16,
  parameter int unsigned GapTimeout = 4096,
  parameter int unsigned DescBase   = 32'h0,
  parameter int unsigned TagW       = 12,
  localparam int unsigned SW        = (NumCq > 1) ? $clog2(NumCq) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // lookups (host port)
  input  logic [12:0]           lka_q_i,
  output logic                  lka_hit_o,
  output logic [SW-1:0]         lka_slot_o,
  input  logic [12:0]           lkb_q_i,
  output logic                  lkb_hit_o,
  output logic [SW-1:0]         lkb_slot_o,
  output logic [63:0]           lkb_stat_o,
  output logic                  win_ok_o,    // every cached OK queue: wp - dp < OooWindow
  // arrivals and the miss sequence
  input  logic                  arr_v_i,
  input  logic [SW-1:0]         arr_slot_i,
  input  logic [8:0]            arr_k_i,
  input  logic [63:0]           arr_data_i,
  input  logic [7:0]            arr_be_i,
  input  logic                  miss_v_i,
  input  logic [12:0]           miss_q_i,
  output logic                  miss_done_o,
  // CQCTL write
  input  logic                  ri_v_i,
  input  logic                  ri_hit_i,
  input  logic [SW-1:0]         ri_slot_i,
  input  logic [12:0]           ri_q_i,
  input  logic [63:0]           ri_val_i,
  input  logic [1:0]            ri_st_i,
  input  logic [7:0]            ri_code_i,
  // the host port's PIO access
  input  logic                  pio_req_v_i,
  input  logic                  pio_req_we_i,
  input  logic [27:0]           pio_req_addr_i,
  input  logic [63:0]           pio_req_wdata_i,
  output logic                  pio_gnt_o,
  output logic                  pio_rd_v_o,
  // CQ-class local memory
  output logic                  lm_req_v_o,
  output logic                  lm_req_we_o,
  output logic [27:0]           lm_req_addr_o,
  output logic [63:0]           lm_req_wdata_o,
  output logic [TagW-1:0]       lm_req_tag_o,
  input  logic                  lm_gnt_i,
  input  logic                  lm_rd_v_i,
  input  logic [TagW-1:0]       lm_rd_tag_i,
  input  logic [63:0]           lm_rd_data_i,
  // slot view (command processor, STEN)
  output logic [NumCq-1:0]      s_used_o,
  output logic [NumCq*13-1:0]   s_qid_o,
  output logic [NumCq*2-1:0]    s_st_o,
  output logic [NumCq*7-1:0]    s_en_o,
  output logic [NumCq*14-1:0]   s_ctx_o,
  output logic [NumCq*31-1:0]   s_base_o,
  output logic [NumCq*2-1:0]    s_cls_o,
  output logic [NumCq*20-1:0]   s_rp_o,
  output logic [NumCq*7-1:0]    s_avail_o,   // hend - rp: dwords of the head buffer
  output logic [NumCq*20-1:0]   s_wprp_o,    // wp - rp
  output logic [NumCq*2-1:0]    s_out_o,
  output logic [NumCq*11*64-1:0] s_head_o,   // head-buffer dwords rp .. rp+10
  input  logic [NumCq-1:0]      partial_i,   // CP: only a partly written command waits
  // command processor
  input  logic                  cp_acc_v_i,
  input  logic [SW-1:0]         cp_slot_i,
  input  logic [3:0]            cp_len_i,
  input  logic                  cp_sten_i,
  input  logic                  cp_err_v_i,
  input  logic [7:0]            cp_err_code_i,
  // STEN
  input  logic                  st_job_v_i,  // STEN holds a job of st_job_slot_i
  input  logic [SW-1:0]         st_job_slot_i,
  input  logic                  st_err_v_i,  // E_NOROUTE
  input  logic [SW-1:0]         st_err_slot_i,
  input  logic [19:0]           st_err_pos_i,
  // token handling of STEN packets
  input  logic                  tk_ack_v_i,
  input  logic [SW-1:0]         tk_ack_slot_i,
  input  logic [19:0]           tk_ack_pos_i,
  input  logic                  tk_fail_v_i, // E_RETRY
  input  logic [SW-1:0]         tk_fail_slot_i,
  input  logic [19:0]           tk_fail_pos_i,
  output logic [NumCq-1:0]      abandon_o,   // this cycle: the slot's packets and jobs are abandoned
  // interrupts (cause 3) in §6.9's order: CQ (arrival / CQCTL), CQ (gap), CP, ST, token
  output logic [4:0]            irq_v_o,
  output logic [5*84-1:0]       irq_rec_o,
  // counters
  output logic                  cnt_discard_o,
  output logic [3:0]            cnt_error_o,
  output logic                  cnt_load_o,
  output logic                  cnt_spill_o
);
  localparam int unsigned W    = OooWindow;
  localparam int unsigned Ring = (4 * W < 8) ? 8 : (1 << $clog2(4 * W));
  localparam int unsigned RW   = $clog2(Ring);
  localparam int unsigned Hb   = 1 << $clog2(HeadDwords);
  localparam int unsigned HW   = $clog2(Hb);
  localparam int unsigned GW   = $clog2(GapTimeout + 1);

  // the arrival's duplicate check reads the ring at k mod Ring (below)
  if (Ring > 512) begin : gen_ring_check
    $error("elan4_cq_cache: OooWindow must be at most 128 (Ring must divide 512)");
  end

  localparam logic [1:0] StClosed = 2'd0, StOk = 2'd1, StErr = 2'd2;
  localparam logic [1:0] TkPio = 2'd0, TkMiss0 = 2'd1, TkMiss1 = 2'd2, TkRefill = 2'd3;

  function automatic logic [19:0] depth_dw(input logic [1:0] c);
    case (c)
      2'd0: depth_dw = 20'(DepthKb0 * 128);
      2'd1: depth_dw = 20'(DepthKb1 * 128);
      2'd2: depth_dw = 20'(DepthKb2 * 128);
      default: depth_dw = 20'(DepthKb3 * 128);
    endcase
  endfunction
  // positions are compared modulo 2^20 (§6.2): differences stay 20 bits
  function automatic logic [19:0] sub20(input logic [19:0] a, input logic [19:0] b);
    sub20 = a - b;
  endfunction
  // p mod DepthDw: the offset of position p in the backing store (§6.1)
  function automatic logic [19:0] bs_off(input logic [1:0] c, input logic [19:0] p);
    bs_off = p & (depth_dw(c) - 20'd1);
  endfunction

  // ---------------------------------------------------------------- slots
  logic [NumCq-1:0]     used, hasooo, evict, wok, drain_c, refill_c;
  logic [NumCq*13-1:0]  qid;
  logic [NumCq*2-1:0]   st;
  logic [NumCq*20-1:0]  wp, dp, rp, fp, epos;
  logic [NumCq*3-1:0]   epoch;
  logic [NumCq*64-1:0]  stat, d1w, drain_data;
  logic [NumCq*28-1:0]  drain_addr, refill_addr;
  // per-slot error entry, by source
  logic [NumCq-1:0]     e_arr, e_gap, e_cp, e_st, e_tk, enter;
  logic [NumCq*8-1:0]   e_arr_code;
  logic [NumCq*20-1:0]  e_arr_pos;
  logic [NumCq-1:0]     discard;

  // global decisions the slots see
  logic                 a_v;         // an arrival this cycle
  logic [SW-1:0]        a_slot;
  logic                 g_drain, g_refill;
  logic [SW-1:0]        g_sel;
  logic                 inst_v;      // install this cycle
  logic [SW-1:0]        vic_q;
  logic [63:0]          d0_q;

  for (genvar s = 0; s < NumCq; s++) begin : g_slot
    logic        used_q;
    logic [12:0] qid_q;
    logic [1:0]  st_q;
    logic [7:0]  code_q;
    logic [19:0] epos_q, wp_q, dp_q, hend_q, rp_q;
    logic [30:0] base_q;
    logic [1:0]  cls_q;
    logic [13:0] ctx_q;
    logic [6:0]  en_q;
    logic [3:0]  rf_q;
    logic [19:0] hf_q;          // hend + rf: the next refill position, kept so
                                // the refill choice needs no adder (timing)
    logic [6:0]  hc_q;          // hf - rp (at most HeadDwords), kept likewise
    logic [7:0]  dw_q;          // wp - dp (below 2 OooWindow), kept so that
                                // ht_ready_o is a compare of a register
    logic [19:0] fpd_q;         // fp + DepthDw[class]: the first position an
                                // arrival may not take (E_OVERFLOW)
    logic [19:0] room_q;        // fpd - wp, kept so E_OVERFLOW's operands
                                // are registers (timing)
    logic [2:0]  ep_q;
    logic [1:0]  out_q;
    logic [1:0]  opv_q;
    logic [39:0] oppos_q;
    logic [GW-1:0] gap_q;
    logic [Ring-1:0]    val_q;
    logic [Ring*64-1:0] ring_q;
    logic [Hb*64-1:0]   head_q;

    logic        used_d;
    logic [12:0] qid_d;
    logic [1:0]  st_d;
    logic [7:0]  code_d;
    logic [19:0] epos_d, wp_d, dp_d, hend_d, rp_d;
    logic [30:0] base_d;
    logic [1:0]  cls_d;
    logic [13:0] ctx_d;
    logic [6:0]  en_d;
    logic [3:0]  rf_d;
    logic [19:0] hf_d, hf_inc;
    logic [6:0]  hc_d;
    logic [7:0]  dw_d, scan_i, dw_adv;
    logic        adv_acc;       // an arrival at wp was accepted: wp moves by scan_i
    // the first position above wp holding no dword (registers only; within
    // OooWindow, since nothing is held at wp + OooWindow or beyond), and
    // wp - dp after an arrival at wp, formed beside the arrival's checks
    always_comb begin
      logic seen;
      seen = 1'b0; scan_i = 8'(W);
      for (int unsigned i = 1; i <= W; i++) begin
        if (!seen && !val_q[RW'(wp_q[RW-1:0] + RW'(i))]) begin seen = 1'b1; scan_i = 8'(i); end
      end
    end
    logic [19:0] fpd_d, fpd_n, fpd_a;  // _n, _a: the next fpd without, with an accept
    logic [19:0] room_d, room_n, room_a, wp_adv, fd_in, rm_in;
    logic [1:0]  opv_a, out_a;
    logic [39:0] oppos_a;
    logic [6:0]  hc_a;
    logic        fp_sh;         // entry 1 moved up (a token acked entry 0)
    logic [19:0] fd_o0, fd_o1, fd_rp, fd_rl;
    assign fd_o0 = oppos_q[19:0] + depth_dw(cls_q);
    assign fd_o1 = oppos_q[39:20] + depth_dw(cls_q);
    assign fd_rp = rp_q + depth_dw(cls_q);
    // (the adds below on log-depth adders, timing)
    logic unused_wpa_co, unused_rmi_co;
    logic [19:0] rp_len;
    logic [6:0]  hav;           // hend - rp
    assign hav = hc_q - 7'(rf_q);
    logic        to_head;       // a drained dword also enters the head buffer
    logic [2:0]  ep_d;
    logic [1:0]  out_d;
    logic [1:0]  opv_d;
    logic [39:0] oppos_d;
    logic [GW-1:0] gap_d;
    logic [Ring-1:0]    val_d;
    logic [Ring*64-1:0] ring_d;
    logic [Hb*64-1:0]   head_d;

    logic        here_arr, here_ri, here_inst, here_drain, here_refill, here_ret;
    logic        here_acc, acc_x, here_cperr, here_sterr, here_tkack, here_tkfail;
    logic [19:0] fp_c;
    logic        ooo_c;
    logic        gap_to;
    logic        a_err, adv_pre, enter_e;
    logic [7:0]  a_code;
    logic [19:0] a_pos;

    assign here_arr    = a_v && a_slot == SW'(s);
    assign here_ri     = ri_v_i && ri_hit_i && ri_slot_i == SW'(s);
    assign here_inst   = inst_v && vic_q == SW'(s);
    assign here_drain  = g_drain && g_sel == SW'(s);
    assign here_refill = g_refill && g_sel == SW'(s);
    assign here_ret    = lm_rd_v_i && lm_rd_tag_i[TagW-1 -: 2] == TkRefill &&
                         lm_rd_tag_i[3 +: SW] == SW'(s) && lm_rd_tag_i[2:0] == ep_q;
    assign here_acc    = cp_acc_v_i && cp_slot_i == SW'(s);
    assign acc_x       = here_acc && !here_ri && !here_inst;
    assign here_cperr  = cp_err_v_i && cp_slot_i == SW'(s);
    assign here_sterr  = st_err_v_i && st_err_slot_i == SW'(s);
    assign here_tkack  = tk_ack_v_i && tk_ack_slot_i == SW'(s);
    assign here_tkfail = tk_fail_v_i && tk_fail_slot_i == SW'(s);
    assign dw_adv = dw_q + scan_i - 8'(here_drain);

    // fp: the oldest position with a packet awaiting its token, else rp.
    // The two entries are kept in age order (entry 0 the older, entry 1
    // valid only beside it), so fp is a multiplexer, not a comparison of
    // two distances back from rp (timing: this feeds every arrival check)
    assign fp_c = opv_q[0] ? oppos_q[19:0] : rp_q;

    // an out-of-order dword: a held position at or beyond wp
    always_comb begin
      ooo_c = 1'b0;
      for (int unsigned i = 0; i < Ring; i++) begin
        if (val_q[i] && 32'(RW'(RW'(i) - wp_q[RW-1:0])) < W) ooo_c = 1'b1;
      end
    end
    assign gap_to = st_q == StOk && ooo_c && 32'(gap_q) + 1 >= GapTimeout;

    // arrival checks (§6.1), start-of-cycle values, each formed from
    // registers beside the 9-bit index k, on log-depth adders (timing):
    // * off = (k - wp) mod 512; its carry says k >= wp[8:0], so the error
    //   position p is {wp[19:9] or wp[19:9] + 1, k}: no 20-bit add;
    // * E_OVERFLOW's p - fp >= DepthDw is off >= room, room = fpd - wp
    //   (kept in room_q; negative: already full; wp - fp <= DepthDw holds
    //   in OK, assertion cq_lag_bound). It matters only when off < W (else
    //   E_WINDOW comes first): room >= W then passes, and for 0 <= room < W
    //   off - room = (k - fpd) mod 512 lies within +-W < 256, so its sign
    //   is bit 8 of k - fpd[8:0];
    // * p mod Ring is k mod Ring (Ring <= 256 divides 512).
    logic [8:0]  off, okd;
    logic        k_ge_wp, unused_okd;
    logic [10:0] wp_hi1;
    logic [19:0] ap;
    logic        bad_be, bad_win, bad_ovf, bad_dup, room_lt_w;
    cp_ks_add #(.W(9), .Keep(1)) u_off (
      .a_i (arr_k_i), .b_i (~wp_q[8:0]), .ci_i (1'b1), .s_o (off), .co_o (k_ge_wp)
    );
    cp_ks_add #(.W(9), .Keep(1)) u_okd (
      .a_i (arr_k_i), .b_i (~fpd_q[8:0]), .ci_i (1'b1), .s_o (okd), .co_o (unused_okd_co)
    );
    logic unused_okd_co;
    assign unused_okd = ^{okd[7:0], unused_okd_co};   // only the sign is read
    assign wp_hi1    = wp_q[19:9] + 11'd1;
    assign room_lt_w = 32'(room_q[18:0]) < W;
    always_comb begin
      ap      = {k_ge_wp ? wp_q[19:9] : wp_hi1, arr_k_i};
      bad_be  = arr_be_i != 8'hFF;
      bad_win = 32'(off) >= W;
      bad_ovf = room_q[19] || (room_lt_w && !okd[8]);
      bad_dup = val_q[arr_k_i[RW-1:0]];
      a_err   = bad_be || bad_win || bad_ovf || bad_dup;
      a_code  = bad_be ? 8'd2 : bad_win ? 8'd3 : bad_ovf ? 8'd4 : 8'd5;
      a_pos   = bad_be ? wp_q : ap;
    end
    // an arrival at wp that moves wp unless it fails a check
    assign adv_pre = here_arr && st_q == StOk && !gap_to && arr_k_i == wp_q[8:0];
    cp_ks_add #(.W(20), .Keep(1)) u_wpa (
      .a_i (wp_q), .b_i (20'(scan_i)), .ci_i (1'b0), .s_o (wp_adv), .co_o (unused_wpa_co)
    );
    // room's next value: each candidate of the next fpd less wp (A) and
    // less wp + scan (B: wp as it moves if the arrival at wp passes; room
    // matters only in OK), the arrival's, token and accept decisions
    // choosing after the subtractions (timing). Each is a sum of registers
    // (and scan) through full adders into one carry tree:
    // pos + DepthDw - wp - scan = pos + DepthDw + ~wp + ~scan + 2, with
    // pos = oppos 0, oppos 1, rp; the rp + len candidates are these + len (below).
    logic [19:0] nwp, nsc, dd;
    logic [19:0] ra_o0, ra_o1, ra_rp, ra_rl, rb_o0, rb_o1, rb_rp, rb_rl;
    logic [5:0]  unused_rm_co;
    assign nwp = ~wp_q;
    assign nsc = ~{12'd0, scan_i};
    assign dd  = depth_dw(cls_q);
    function automatic logic [39:0] csa(input logic [19:0] x, input logic [19:0] y,
                                        input logic [19:0] z);
      csa = {(x & y) | ((x | y) & z), x ^ y ^ z};   // {carries, sums}
    endfunction
    // (two vectors, the carries shifted up, bit 0 free for a +1)
    function automatic logic [39:0] csa2(input logic [38:0] v, input logic c0, input logic [19:0] z);
      csa2 = csa(v[19:0], {v[38:20], c0}, z);
    endfunction
    logic [39:0] c_o0, c_o1, c_rp, b_o0, b_o1, b_rp;
    assign c_o0  = csa(oppos_q[19:0], dd, nwp);
    assign c_o1  = csa(oppos_q[39:20], dd, nwp);
    assign c_rp  = csa(rp_q, dd, nwp);
    assign b_o0  = csa2(c_o0[38:0], 1'b1, nsc);
    assign b_o1  = csa2(c_o1[38:0], 1'b1, nsc);
    assign b_rp  = csa2(c_rp[38:0], 1'b1, nsc);
    cp_ks_add #(.W(20), .Keep(1)) u_ra0 (.a_i (c_o0[19:0]), .b_i ({c_o0[38:20], 1'b0}), .ci_i (1'b1),
                                         .s_o (ra_o0), .co_o (unused_rm_co[0]));
    cp_ks_add #(.W(20), .Keep(1)) u_ra1 (.a_i (c_o1[19:0]), .b_i ({c_o1[38:20], 1'b0}), .ci_i (1'b1),
                                         .s_o (ra_o1), .co_o (unused_rm_co[1]));
    cp_ks_add #(.W(20), .Keep(1)) u_ra2 (.a_i (c_rp[19:0]), .b_i ({c_rp[38:20], 1'b0}), .ci_i (1'b1),
                                         .s_o (ra_rp), .co_o (unused_rm_co[2]));
    cp_ks_add #(.W(20), .Keep(1)) u_rb0 (.a_i (b_o0[19:0]), .b_i ({b_o0[38:20], 1'b0}), .ci_i (1'b1),
                                         .s_o (rb_o0), .co_o (unused_rm_co[3]));
    cp_ks_add #(.W(20), .Keep(1)) u_rb1 (.a_i (b_o1[19:0]), .b_i ({b_o1[38:20], 1'b0}), .ci_i (1'b1),
                                         .s_o (rb_o1), .co_o (unused_rm_co[4]));
    cp_ks_add #(.W(20), .Keep(1)) u_rb2 (.a_i (b_rp[19:0]), .b_i ({b_rp[38:20], 1'b0}), .ci_i (1'b1),
                                         .s_o (rb_rp), .co_o (unused_rm_co[5]));
    // x + len for x = rp, fd_rp, ra_rp, rb_rp (ra_rl = ra_rp + len and
    // rb_rl = rb_rp + len modulo 2^20): len is 4 bits, so each is a
    // carry-select sum, the low 4 bits + len choosing between the upper 16
    // bits and the upper 16 bits + 1, both formed from registers before
    // the CP's len arrives (timing)
    logic [4*20-1:0] xs, xl;
    assign xs = {rb_rp, ra_rp, fd_rp, rp_q};
    for (genvar c = 0; c < 4; c++) begin : g_cs
      logic [15:0] hi1;
      logic [4:0]  lo;
      logic        unused_hi_co;
      cp_ks_add #(.W(16), .Keep(1)) u_hi (
        .a_i (xs[c*20+4 +: 16]), .b_i (16'd0), .ci_i (1'b1), .s_o (hi1), .co_o (unused_hi_co)
      );
      assign lo = {1'b0, xs[c*20 +: 4]} + {1'b0, cp_len_i};
      assign xl[c*20 +: 20] = {lo[4] ? hi1 : xs[c*20+4 +: 16], lo[3:0]};
    end
    assign {rb_rl, ra_rl, fd_rl, rp_len} = xl;
    logic unused_csa;
    assign unused_csa = ^{c_o0[39], c_o1[39], c_rp[39], b_o0[39], b_o1[39], b_rp[39]};
    // an install's: its rp + DepthDw - its wp
    assign fd_in = lm_rd_data_i[51:32] + depth_dw(d0_q[32:31]);
    cp_ks_add #(.W(20), .Keep(1)) u_rmi (
      .a_i (fd_in), .b_i (~lm_rd_data_i[31:12]), .ci_i (1'b1), .s_o (rm_in), .co_o (unused_rmi_co)
    );

    logic ok;
    assign ok = st_q == StOk && !here_ri;
    assign e_gap[s] = ok && gap_to;
    assign e_arr[s] = ok && !gap_to && here_arr && a_err;
    assign e_cp[s]  = ok && here_cperr;
    assign e_st[s]  = ok && here_sterr;
    assign e_tk[s]  = ok && here_tkfail;
    // enter_e: the entries decided early (not by the arrival's checks or
    // the CP's, which come late: timing)
    assign enter_e  = e_gap[s] || e_st[s] || e_tk[s];
    assign enter[s] = enter_e || e_arr[s] || e_cp[s];
    assign e_arr_code[s*8 +: 8]  = gap_to ? 8'd12 : a_code;
    assign e_arr_pos[s*20 +: 20] = gap_to ? wp_q : a_pos;
    assign discard[s] = here_arr && st_q != StOk;

    always_comb begin
      used_d = used_q; qid_d = qid_q; st_d = st_q; code_d = code_q; epos_d = epos_q;
      wp_d = wp_q; dp_d = dp_q; hend_d = hend_q; rp_d = rp_q;
      base_d = base_q; cls_d = cls_q; ctx_d = ctx_q; en_d = en_q;
      rf_d = rf_q; ep_d = ep_q; out_d = out_q; opv_d = opv_q; oppos_d = oppos_q;
      gap_d = gap_q; val_d = val_q; ring_d = ring_q; head_d = head_q;
      adv_acc = 1'b0; fp_sh = 1'b0;

      if (st_q == StOk) gap_d = ooo_c ? gap_q + 1'b1 : '0;
      // arrival. The dword and its held bit are written whatever the
      // checks say: a failing arrival puts the slot into ERROR, where they
      // are never read and are dropped from the next cycle (below), so only
      // wp waits for the checks (timing: the checks' fan-out)
      if (here_arr && st_q == StOk) begin
        val_d[arr_k_i[RW-1:0]] = 1'b1;
        ring_d[32'(arr_k_i[RW-1:0])*64 +: 64] = arr_data_i;
      end
      adv_acc = adv_pre && !a_err;
      if (adv_acc) wp_d = wp_adv;
      // drain grant
      // (hend - rp = hc - rf, cq_refill_pos and cq_head_count: a 7-bit
      // difference, not a 20-bit one, timing)
      to_head = here_drain && hend_q == dp_q && 32'(hav) < HeadDwords;
      if (here_drain) begin
        dp_d = dp_q + 1'b1;
        val_d[dp_q[RW-1:0]] = 1'b0;
        if (to_head) begin
          head_d[32'(hend_q[HW-1:0])*64 +: 64] = ring_q[32'(dp_q[RW-1:0])*64 +: 64];
          hend_d = hend_q + 1'b1;
        end
      end
      // refill
      if (here_refill) rf_d = rf_d + 1'b1;
      if (here_ret) begin
        rf_d = rf_d - 1'b1;
        head_d[32'(hend_q[HW-1:0])*64 +: 64] = lm_rd_data_i;
        hend_d = hend_q + 1'b1;
      end
      // packets in flight; the CP's accept is applied last, below
      if (here_tkack) begin
        // the younger entry moves up when the older one is acknowledged
        if (opv_q[0] && oppos_q[19:0] == tk_ack_pos_i) begin
          opv_d = {1'b0, opv_q[1]}; oppos_d[19:0] = oppos_q[39:20]; fp_sh = 1'b1;
        end else if (opv_q[1] && oppos_q[39:20] == tk_ack_pos_i) opv_d[1] = 1'b0;
      end
      // an accepted STEN command's packet joins as the younger entry
      opv_a = opv_d; oppos_a = oppos_d;
      if (!opv_d[0]) begin opv_a[0] = 1'b1; oppos_a[19:0] = rp_q; end
      else begin opv_a[1] = 1'b1; oppos_a[39:20] = rp_q; end
      out_a = out_q + 2'd1 - 2'(here_tkack);
      out_d = out_q - 2'(here_tkack);
      // fpd follows fp without the ERROR entry (it matters only in OK, and a
      // slot leaves ERROR only by a restart, which sets it below): the new fp
      // is one of four positions, each + DepthDw formed from registers
      // beside the token and accept decisions (timing). Without an accept
      // (_n) and with one (_a): a STEN command's packet becomes fp = rp when
      // none is outstanding, another command moves fp to rp + len
      fpd_n  = !opv_d[0] ? fd_rp : fp_sh ? fd_o1 : fd_o0;
      fpd_a  = !opv_d[0] ? (cp_sten_i ? fd_rp : fd_rl) : fp_sh ? fd_o1 : fd_o0;
      room_n = adv_pre ? (!opv_d[0] ? rb_rp : fp_sh ? rb_o1 : rb_o0)
                       : (!opv_d[0] ? ra_rp : fp_sh ? ra_o1 : ra_o0);
      room_a = adv_pre ? (!opv_d[0] ? (cp_sten_i ? rb_rp : rb_rl) : fp_sh ? rb_o1 : rb_o0)
                       : (!opv_d[0] ? (cp_sten_i ? ra_rp : ra_rl) : fp_sh ? ra_o1 : ra_o0);

      // entering ERROR: wp frozen, packets abandoned (§6.2, §7). What the
      // status word, the spill and eviction see (state, code, error
      // position, wp, out) and the refill epoch change in the entry cycle;
      // the data is dropped in the entry cycle only for the early entries
      // (gap, CP, ST, token), and for an arrival's from the next cycle:
      // an ERROR slot takes no data, runs no command, and its other fields
      // are read by no one until a restart rewrites them (timing: only
      // these registers wait for the arrival's checks)
      if (e_gap[s]) begin
        code_d = 8'd12; epos_d = wp_q;
      end else if (e_cp[s]) begin
        code_d = cp_err_code_i; epos_d = rp_q;
      end else if (e_st[s]) begin
        code_d = 8'd10; epos_d = st_err_pos_i;
      end else if (e_tk[s]) begin
        code_d = 8'd11; epos_d = tk_fail_pos_i;
      end
      if (e_arr[s]) begin code_d = a_code; epos_d = a_pos; end
      if (enter[s]) begin
        st_d = StErr; wp_d = wp_q; ep_d = ep_q + 1'b1; out_d = '0;
      end
      if (enter_e || st_q == StErr) begin
        dp_d = wp_q; rp_d = rp_q; hend_d = rp_q;
        val_d = '0; rf_d = '0; opv_d = '0; gap_d = '0;
      end
      // CQCTL re-initialisation (§4.2), over everything else
      if (here_ri) begin
        st_d = ri_st_i; code_d = ri_code_i; epos_d = '0;
        base_d = ri_val_i[30:0]; cls_d = ri_val_i[32:31]; ctx_d = ri_val_i[46:33];
        en_d = ri_val_i[53:47];
        wp_d = '0; dp_d = '0; hend_d = '0; rp_d = '0;
        val_d = '0; rf_d = '0; ep_d = ep_q + 1'b1; out_d = '0; opv_d = '0; oppos_d = '0; gap_d = '0;
      end
      // install (§6.2 step 4)
      if (here_inst) begin
        used_d = 1'b1;
        qid_d  = mq_q;
        st_d   = (lm_rd_data_i[9:8] == 2'd3) ? StClosed : lm_rd_data_i[9:8];
        code_d = lm_rd_data_i[7:0];
        epos_d = lm_rd_data_i[51:32];
        base_d = d0_q[30:0]; cls_d = d0_q[32:31]; ctx_d = d0_q[46:33]; en_d = d0_q[53:47];
        wp_d = lm_rd_data_i[31:12]; dp_d = lm_rd_data_i[31:12];
        rp_d = lm_rd_data_i[51:32]; hend_d = lm_rd_data_i[51:32];
        val_d = '0; rf_d = '0; ep_d = ep_q + 1'b1; out_d = '0; opv_d = '0; gap_d = '0;
      end
      // a refill grant adds one, a drained dword entering the head adds one,
      // a refill's data moves one from rf to hend; the rest restart at rf = 0
      // a restart: fp = rp = 0 (CQCTL) or the loaded rp (install)
      fpd_d = here_inst ? fd_in : here_ri ? depth_dw(ri_val_i[32:31]) : fpd_n;
      room_d = here_inst ? rm_in : here_ri ? depth_dw(ri_val_i[32:31]) : room_n;
      // (hf + 1 is formed from the register, beside the grant logic; at a
      // restart hf = hend = rp, without waiting for hend's grant logic)
      hf_inc = hf_q + 20'd1;
      hf_d = here_inst ? lm_rd_data_i[51:32] : here_ri ? 20'd0
           : (enter_e || st_q == StErr) ? rp_q
           : (here_refill || to_head) ? hf_inc : hf_q;
      // wp - dp: dp = wp at every restart (error, CQCTL, install)
      dw_d = (enter_e || st_q == StErr || here_ri || here_inst) ? 8'd0
           : adv_pre ? dw_adv : dw_q - 8'(here_drain);
      // hf - rp: hend = rp at every restart (error, CQCTL, install)
      hc_a = hc_q + 7'(here_refill || to_head) - 7'(cp_len_i);
      hc_d = (enter_e || st_q == StErr || here_ri || here_inst) ? 7'd0
           : hc_q + 7'(here_refill || to_head);
      // the CP's accept chooses last (timing: it is decided in the CP from
      // the head view, after everything else this cycle sees). An accept
      // needs OK; an early entry, a CQCTL or an install in the same cycle
      // wins over it as above (fpd and room ignore the entries)
      if (acc_x) begin fpd_d = fpd_a; room_d = room_a; end
      if (here_acc && !here_ri && cp_sten_i) oppos_d = oppos_a;
      if (acc_x && !enter_e) begin
        rp_d = rp_len; hc_d = hc_a;
        if (cp_sten_i) opv_d = opv_a;
        if (cp_sten_i && !enter[s]) out_d = out_a;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        used_q <= 1'b0; qid_q <= '0; st_q <= StClosed; code_q <= '0; epos_q <= '0;
        wp_q <= '0; dp_q <= '0; hend_q <= '0; rp_q <= '0;
        base_q <= '0; cls_q <= '0; ctx_q <= '0; en_q <= '0;
        rf_q <= '0; hf_q <= '0; hc_q <= '0; fpd_q <= '0; room_q <= '0; dw_q <= '0; ep_q <= '0; out_q <= '0; opv_q <= '0; oppos_q <= '0; gap_q <= '0;
        val_q <= '0;
        for (int unsigned i = 0; i < Ring; i++) ring_q[i*64 +: 64] <= '0;
        for (int unsigned i = 0; i < Hb; i++) head_q[i*64 +: 64] <= '0;
      end else begin
        used_q <= used_d; qid_q <= qid_d; st_q <= st_d; code_q <= code_d; epos_q <= epos_d;
        wp_q <= wp_d; dp_q <= dp_d; hend_q <= hend_d; rp_q <= rp_d;
        base_q <= base_d; cls_q <= cls_d; ctx_q <= ctx_d; en_q <= en_d;
        rf_q <= rf_d; hf_q <= hf_d; hc_q <= hc_d; fpd_q <= fpd_d; room_q <= room_d; dw_q <= dw_d; ep_q <= ep_d; out_q <= out_d; opv_q <= opv_d; oppos_q <= oppos_d;
        gap_q <= gap_d; val_q <= val_d; ring_q <= ring_d; head_q <= head_d;
      end
    end

    // views
    assign used[s]            = used_q;
    assign qid[s*13 +: 13]    = qid_q;
    assign st[s*2 +: 2]       = st_q;
    assign wp[s*20 +: 20]     = wp_q;
    assign dp[s*20 +: 20]     = dp_q;
    assign rp[s*20 +: 20]     = rp_q;
    assign fp[s*20 +: 20]     = fp_c;
    assign epos[s*20 +: 20]   = epos_q;
    assign epoch[s*3 +: 3]    = ep_q;
    assign hasooo[s]          = ooo_c;
    assign wok[s]             = st_q != StOk || 32'(dw_q) < W;
    assign s_used_o[s]        = used_q;
    assign s_qid_o[s*13 +: 13] = qid_q;
    assign s_st_o[s*2 +: 2]   = st_q;
    assign s_en_o[s*7 +: 7]   = en_q;
    assign s_ctx_o[s*14 +: 14] = ctx_q;
    assign s_base_o[s*31 +: 31] = base_q;
    assign s_cls_o[s*2 +: 2]  = cls_q;
    assign s_rp_o[s*20 +: 20] = rp_q;
    assign s_avail_o[s*7 +: 7] = 7'(hend_q - rp_q);
    assign s_wprp_o[s*20 +: 20] = wp_q - rp_q;
    assign s_out_o[s*2 +: 2]  = out_q;
    // the head view: the buffer rotated by rp's index, HW levels of 2:1
    // multiplexers each selected by one bit of rp, instead of 11 indexed
    // reads at rp + i (an add and a decode before each; timing: the CP's
    // checks and accept start here)
    logic [Hb*64-1:0] hrot;     // dword j = head dword at (rp + j) mod Hb
    always_comb begin
      hrot = head_q;
      for (int unsigned b = 0; b < HW; b++) begin
        // rotate down by 2^b dwords when bit b of rp is set
        if (rp_q[b]) hrot = (hrot >> (64 << b)) | (hrot << (64 * (Hb - (1 << b))));
      end
    end
    for (genvar i = 0; i < 11; i++) begin : g_h
      assign s_head_o[(s*11 + i)*64 +: 64] = hrot[i*64 +: 64];
    end
    // evictable (§6.2 step 1), start-of-cycle
    logic job_here;
    assign job_here = st_job_v_i && st_job_slot_i == SW'(s);
    assign evict[s] = (st_q == StOk)
        ? (!ooo_c && dp_q == wp_q && rf_q == '0 && out_q == '0 && !job_here &&
           (rp_q == wp_q || partial_i[s]))
        : (out_q == '0 && !job_here);
    // drain and refill candidates
    assign drain_c[s]  = st_q == StOk && dp_q != wp_q;
    assign refill_c[s] = st_q == StOk && hf_q != dp_q && 32'(hc_q) < HeadDwords;
    // base + offset on Kogge-Stone adders (timing: these feed local memory's
    // request multiplexer; a base is not assumed aligned, since the host can
    // write a descriptor through the window)
    logic unused_da_co, unused_ra_co;
    cp_ks_add #(.W(28), .Keep(1)) u_da (
      .a_i (base_q[30:3]), .b_i ({8'd0, bs_off(cls_q, dp_q)}), .ci_i (1'b0),
      .s_o (drain_addr[s*28 +: 28]), .co_o (unused_da_co)
    );
    assign drain_data[s*64 +: 64]  = ring_q[32'(dp_q[RW-1:0])*64 +: 64];
    cp_ks_add #(.W(28), .Keep(1)) u_ra (
      .a_i (base_q[30:3]), .b_i ({8'd0, bs_off(cls_q, hf_q)}), .ci_i (1'b0),
      .s_o (refill_addr[s*28 +: 28]), .co_o (unused_ra_co)
    );
    // status word (§4.2) and spilled d1 (§6.2)
    assign stat[s*64 +: 64] = {12'd0, wp_q, (st_q == StErr) ? epos_q : fp_c,
                               st_q == StOk && (rp_q != wp_q || ooo_c || out_q != '0),
                               1'b1, st_q, (st_q == StErr) ? code_q : 8'd0};
    assign d1w[s*64 +: 64]  = {12'd0, (st_q == StErr) ? epos_q : rp_q, wp_q, 2'd0, st_q,
                               (st_q == StErr) ? code_q : 8'd0};
    assign abandon_o[s] = enter[s] || here_ri;

`ifndef SYNTHESIS
    // The head buffer holds at most HeadDwords positions from rp (§6.1), and
    // a queue never has more than two STEN packets awaiting tokens (§6.4).
    always_ff @(posedge clk_i) begin
      if (rst_ni) begin
        cq_head_bound: assert (st_q != StOk || 32'(sub20(hend_q, rp_q)) <= HeadDwords);
        cq_out_le2:    assert (out_q != 2'd3);
        // the kept sum and the age order fp relies on (timing restructures)
        cq_refill_pos: assert (hf_q == hend_q + 20'(rf_q));
        cq_head_count: assert (20'(hc_q) == sub20(hf_q, rp_q));
        // (in ERROR wp - dp is kept only from the cycle after the entry: cq_err_clear)
        cq_wp_dp:      assert (st_q == StErr || 20'(dw_q) == sub20(wp_q, dp_q));
        cq_fp_depth:   assert (st_q != StOk || fpd_q == fp_c + depth_dw(cls_q));
        cq_room:       assert (st_q != StOk || room_q == sub20(fpd_q, wp_q));
        // an arrival's entry into ERROR drops the data a cycle late: from the
        // second ERROR cycle on the slot holds nothing (§6.2)
        cq_err_clear:  assert (st_q != StErr || $past(st_q) != StErr ||
                               (val_q == '0 && rf_q == '0 && opv_q == '0 && out_q == '0 &&
                                gap_q == '0 && dp_q == wp_q && hend_q == rp_q &&
                                hf_q == hend_q && dw_q == '0 && hc_q == '0));
        cq_lag_bound:  assert (st_q != StOk || sub20(wp_q, fp_c) <= depth_dw(cls_q));
        cq_token_age:  assert (opv_q != 2'b10 && (opv_q != 2'b11 ||
                               sub20(rp_q, oppos_q[19:0]) > sub20(rp_q, oppos_q[39:20])));
      end
    end
`endif
  end

  // ---------------------------------------------------------------- lookups
  always_comb begin
    lka_hit_o = 1'b0; lka_slot_o = '0;
    lkb_hit_o = 1'b0; lkb_slot_o = '0;
    for (int unsigned s = 0; s < NumCq; s++) begin
      if (used[s] && qid[s*13 +: 13] == lka_q_i) begin lka_hit_o = 1'b1; lka_slot_o = SW'(s); end
      if (used[s] && qid[s*13 +: 13] == lkb_q_i) begin lkb_hit_o = 1'b1; lkb_slot_o = SW'(s); end
    end
  end
  assign lkb_stat_o = stat[32'(lkb_slot_o)*64 +: 64];
  assign win_ok_o   = &wok;

  // ---------------------------------------------------------------- miss sequence
  localparam logic [2:0] MIdle = 3'd0, MSpill = 3'd1, MLd0 = 3'd2, MLd1 = 3'd3, MWait = 3'd4,
                         MArr = 3'd5, MVic = 3'd6;
  logic [2:0]    ms_q, ms_d;
  logic [SW-1:0] vic_d, vptr_q, vptr_d;
  logic [12:0]   mq_q, mq_d;
  logic [63:0]   d0_d;
  logic          vfound;
  logic [SW-1:0] vslot;
  logic          vby_ptr;

  always_comb begin
    vfound = 1'b0; vslot = '0; vby_ptr = 1'b0;
    for (int unsigned s = 0; s < NumCq; s++) begin
      if (!vfound && !used[s]) begin vfound = 1'b1; vslot = SW'(s); end
    end
    for (int unsigned i = 0; i < NumCq; i++) begin
      logic [SW-1:0] s;
      s = SW'((32'(vptr_q) + i) % NumCq);
      if (!vfound && evict[s]) begin vfound = 1'b1; vslot = s; vby_ptr = 1'b1; end
    end
  end

  // CQ-class request
  logic          rq_v, rq_we;
  logic [27:0]   rq_addr;
  logic [63:0]   rq_wdata;
  logic [TagW-1:0] rq_tag;
  logic [1:0]    rq_kind;    // 0 pio / miss, 1 refill, 2 drain
  logic [SW-1:0] rq_sel;
  logic [SW-1:0] rptr_q, rptr_d, dptr_q, dptr_d;
  logic          fr, fd;
  logic [SW-1:0] rs, ds;

  always_comb begin
    fr = 1'b0; fd = 1'b0; rs = '0; ds = '0;
    for (int unsigned i = 0; i < NumCq; i++) begin
      logic [SW-1:0] s1, s2;
      s1 = SW'((32'(rptr_q) + i) % NumCq);
      s2 = SW'((32'(dptr_q) + i) % NumCq);
      if (!fr && refill_c[s1]) begin fr = 1'b1; rs = s1; end
      if (!fd && drain_c[s2]) begin fd = 1'b1; ds = s2; end
    end
  end

  always_comb begin
    rq_v = 1'b0; rq_we = 1'b0; rq_addr = '0; rq_wdata = '0; rq_tag = '0; rq_kind = 2'd0; rq_sel = '0;
    if (pio_req_v_i) begin
      rq_v = 1'b1; rq_we = pio_req_we_i; rq_addr = pio_req_addr_i; rq_wdata = pio_req_wdata_i;
      rq_tag = {TkPio, (TagW-2)'(0)};
    end else if (ms_q == MSpill) begin
      rq_v = 1'b1; rq_we = 1'b1;
      rq_addr = 28'((DescBase >> 3) + 2 * 32'(qid[32'(vic_q)*13 +: 13]) + 1);
      rq_wdata = d1w[32'(vic_q)*64 +: 64];
    end else if (ms_q == MLd0 || ms_q == MLd1) begin
      rq_v = 1'b1;
      rq_addr = 28'((DescBase >> 3) + 2 * 32'(mq_q) + 32'(ms_q == MLd1));
      rq_tag = {(ms_q == MLd1) ? TkMiss1 : TkMiss0, (TagW-2)'(0)};
    end else if (fr) begin
      rq_v = 1'b1; rq_kind = 2'd1; rq_sel = rs;
      rq_addr = refill_addr[32'(rs)*28 +: 28];
      rq_tag = TagW'({TkRefill, (TagW-2-SW-3)'(0), rs, epoch[32'(rs)*3 +: 3]});
    end else if (fd) begin
      rq_v = 1'b1; rq_we = 1'b1; rq_kind = 2'd2; rq_sel = ds;
      rq_addr = drain_addr[32'(ds)*28 +: 28];
      rq_wdata = drain_data[32'(ds)*64 +: 64];
    end
  end
  assign lm_req_v_o     = rq_v;
  assign lm_req_we_o    = rq_we;
  assign lm_req_addr_o  = rq_addr;
  assign lm_req_wdata_o = rq_wdata;
  assign lm_req_tag_o   = rq_tag;
  assign pio_gnt_o      = lm_gnt_i && pio_req_v_i;
  assign pio_rd_v_o     = lm_rd_v_i && lm_rd_tag_i[TagW-1 -: 2] == TkPio;
  assign g_refill       = lm_gnt_i && rq_kind == 2'd1;
  assign g_drain        = lm_gnt_i && rq_kind == 2'd2;
  assign g_sel          = rq_sel;
  assign rptr_d = g_refill ? SW'((32'(rs) + 1) % NumCq) : rptr_q;
  assign dptr_d = g_drain  ? SW'((32'(ds) + 1) % NumCq) : dptr_q;

  logic spill_g;
  assign spill_g = lm_gnt_i && !pio_req_v_i && ms_q == MSpill;
  always_comb begin
    ms_d = ms_q; vic_d = vic_q; vptr_d = vptr_q; mq_d = mq_q; d0_d = d0_q;
    inst_v = 1'b0;
    if (miss_v_i) mq_d = miss_q_i;
    if (miss_v_i || ms_q == MVic) begin
      ms_d = MVic;
      if (vfound) begin
        vic_d = vslot;
        if (vby_ptr) vptr_d = SW'((32'(vslot) + 1) % NumCq);
        ms_d = used[vslot] ? MSpill : MLd0;
      end
    end
    if (lm_gnt_i && !pio_req_v_i) begin
      if (ms_q == MSpill) ms_d = MLd0;
      if (ms_q == MLd0) ms_d = MLd1;
      if (ms_q == MLd1) ms_d = MWait;
    end
    if (lm_rd_v_i && lm_rd_tag_i[TagW-1 -: 2] == TkMiss0) d0_d = lm_rd_data_i;
    if (lm_rd_v_i && lm_rd_tag_i[TagW-1 -: 2] == TkMiss1) begin
      inst_v = 1'b1;
      ms_d = MArr;
    end
    if (ms_q == MArr) ms_d = MIdle;
  end
  assign miss_done_o = ms_q == MArr;
  // the held write arrives the cycle after the install
  assign a_v    = arr_v_i || ms_q == MArr;
  assign a_slot = arr_v_i ? arr_slot_i : vic_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ms_q <= MIdle; vic_q <= '0; vptr_q <= '0; mq_q <= '0; d0_q <= '0;
      rptr_q <= '0; dptr_q <= '0;
    end else begin
      ms_q <= ms_d; vic_q <= vic_d; vptr_q <= vptr_d; mq_q <= mq_d; d0_q <= d0_d;
      rptr_q <= rptr_d; dptr_q <= dptr_d;
    end
  end

  // ---------------------------------------------------------------- errors out
  // At most one slot sees the arrival (e_arr), and its record and count are
  // chosen after the others are formed (timing: e_arr is the checks' late
  // decision): the count is the early entries' (and CQCTL's) or one more.
  logic [4:0]    iv;
  logic [5*84-1:0] ir;
  logic [3:0]    nerr_e;
  logic          arr_new;      // an arrival's entry that no early entry counts
  logic [83:0]   arr_rec;
  always_comb begin
    iv = '0; ir = '0; nerr_e = '0; arr_new = 1'b0; arr_rec = '0;
    if (ri_v_i && ri_st_i == StErr) begin
      iv[0] = 1'b1;
      ir[0 +: 84] = {4'd3, 3'd0, ri_q_i, 36'd0, 20'd0, ri_code_i};
      nerr_e = nerr_e + 1'b1;
    end
    for (int unsigned s = 0; s < NumCq; s++) begin
      if (a_slot == SW'(s))
        arr_rec = {4'd3, 3'd0, qid[s*13 +: 13], 36'd0, e_arr_pos[s*20 +: 20], e_arr_code[s*8 +: 8]};
      if (e_gap[s] && !iv[1]) begin
        iv[1] = 1'b1;
        ir[84 +: 84] = {4'd3, 3'd0, qid[s*13 +: 13], 36'd0, wp[s*20 +: 20], 8'd12};
      end
      if (e_gap[s] || e_cp[s] || e_st[s] || e_tk[s]) nerr_e = nerr_e + 1'b1;
      else if (e_arr[s]) arr_new = 1'b1;
    end
    if (|e_arr) begin
      iv[0] = 1'b1;
      ir[0 +: 84] = arr_rec;
    end
    if (cp_err_v_i && |(e_cp & ~e_arr & ~e_gap)) begin
      iv[2] = 1'b1;
      ir[168 +: 84] = {4'd3, 3'd0, qid[32'(cp_slot_i)*13 +: 13], 36'd0, rp[32'(cp_slot_i)*20 +: 20], cp_err_code_i};
    end
    if (st_err_v_i && |(e_st & ~e_cp & ~e_arr & ~e_gap)) begin
      iv[3] = 1'b1;
      ir[252 +: 84] = {4'd3, 3'd0, qid[32'(st_err_slot_i)*13 +: 13], 36'd0, st_err_pos_i, 8'd10};
    end
    if (tk_fail_v_i && |(e_tk & ~e_st & ~e_cp & ~e_arr & ~e_gap)) begin
      iv[4] = 1'b1;
      ir[336 +: 84] = {4'd3, 3'd0, qid[32'(tk_fail_slot_i)*13 +: 13], 36'd0, tk_fail_pos_i, 8'd11};
    end
  end
  logic [3:0] nerr_e1;
  assign nerr_e1 = nerr_e + 4'd1;
  assign irq_v_o       = iv;
  assign irq_rec_o     = ir;
  assign cnt_error_o   = arr_new ? nerr_e1 : nerr_e;
  assign cnt_discard_o = |discard;
  assign cnt_load_o    = inst_v;
  assign cnt_spill_o   = spill_g;

  logic unused;
  assign unused = ^{dp, hasooo, fp, epos, lm_rd_tag_i, st, ri_val_i[63:54]};
endmodule
