// elan4_sten: the short transaction engine (docs/elan4.md §6.4).
//
// One packet job at a time: idle -> route read (new) or backing-store reads
// then route read (resend) -> formed in the route's data cycle -> link
// request from the next cycle -> idle the cycle after its TAIL. A resend's
// route read uses the dest kept with its entry (§6.4). Its resend
// list is kept in order (appended at the end, the oldest eligible entry
// taken, entries of an abandoned queue removed). Store-and-forward per
// command (§12). The packet words are a function of the job's dwords.
module elan4_sten #(
  parameter int unsigned NumCq        = 8,
  parameter int unsigned DepthKb0     = 1,
  parameter int unsigned DepthKb1     = 8,
  parameter int unsigned DepthKb2     = 64,
  parameter int unsigned DepthKb3     = 512,
  parameter int unsigned RtBase       = 32'h20000,
  parameter int unsigned RetryLimit   = 32,
  parameter int unsigned RetryBackoff = 16,
  parameter int unsigned TagW         = 12,
  localparam int unsigned SW          = (NumCq > 1) ? $clog2(NumCq) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [11:0]           node_i,
  // a command accepted by the CP (its job from the next cycle)
  input  logic                  job_v_i,
  input  logic [SW-1:0]         job_slot_i,
  input  logic [3:0]            job_len_i,
  input  logic [11*64-1:0]      job_cmd_i,
  // slot view
  input  logic [NumCq*2-1:0]    s_st_i,
  input  logic [NumCq*31-1:0]   s_base_i,
  input  logic [NumCq*2-1:0]    s_cls_i,
  input  logic [NumCq*14-1:0]   s_ctx_i,
  input  logic [NumCq*20-1:0]   s_rp_i,
  input  logic [NumCq-1:0]      abandon_i,
  output logic                  ok_o,        // idle and no eligible resend (CP dispatch)
  output logic                  busy_o,      // holds a job
  output logic [SW-1:0]         busy_slot_o,
  // ST-class local memory
  output logic                  lm_req_v_o,
  output logic [27:0]           lm_req_addr_o,
  output logic [TagW-1:0]       lm_req_tag_o,
  input  logic                  lm_gnt_i,
  input  logic                  lm_rd_v_i,
  input  logic [TagW-1:0]       lm_rd_tag_i,
  input  logic [63:0]           lm_rd_data_i,
  // link transmitter
  output logic                  tx_req_o,
  output logic [31:0]           tx_route_o,
  output logic [4:0]            tx_nbody_o,
  output logic [22*32-1:0]      tx_words_o,
  output logic [SW-1:0]         tx_slot_o,
  output logic [19:0]           tx_pos_o,
  output logic [3:0]            tx_len_o,
  output logic [7:0]            tx_try_o,
  output logic [11:0]           tx_dest_o,   // kept with the outstanding packet (§6.4 resend)
  input  logic                  tx_head_i,   // our HEAD decided this cycle
  input  logic                  tx_tail_i,   // our TAIL decided this cycle
  // token results of STEN packets (VcSten)
  input  logic                  res_v_i,
  input  logic                  res_ack_i,
  input  logic                  res_abn_i,
  input  logic [SW-1:0]         res_slot_i,
  input  logic [19:0]           res_pos_i,
  input  logic [3:0]            res_len_i,
  input  logic [7:0]            res_try_i,
  input  logic [11:0]           res_dest_i,
  output logic                  tk_ack_v_o,
  output logic [SW-1:0]         tk_ack_slot_o,
  output logic [19:0]           tk_ack_pos_o,
  output logic                  tk_fail_v_o,
  output logic [SW-1:0]         tk_fail_slot_o,
  output logic [19:0]           tk_fail_pos_o,
  // E_NOROUTE
  output logic                  err_v_o,
  output logic [SW-1:0]         err_slot_o,
  output logic [19:0]           err_pos_o,
  output logic                  formed_o
);
  localparam int unsigned NRs = 2 * NumCq;
  localparam int unsigned CdW = 19;
  localparam int unsigned EW  = SW + 20 + 4 + 8 + 12 + 28 + CdW;   // resend entry

  localparam logic [2:0] SIdle = 3'd0, SRtReq = 3'd1, SRsRd = 3'd2, SRtWait = 3'd3, SSend = 3'd4;

  function automatic logic [19:0] depth_dw(input logic [1:0] c);
    case (c)
      2'd0: depth_dw = 20'(DepthKb0 * 128);
      2'd1: depth_dw = 20'(DepthKb1 * 128);
      2'd2: depth_dw = 20'(DepthKb2 * 128);
      default: depth_dw = 20'(DepthKb3 * 128);
    endcase
  endfunction

  logic [2:0]        s_q, s_d;
  logic [SW-1:0]     slot_q, slot_d;
  logic [19:0]       pos_q, pos_d;
  logic [3:0]        len_q, len_d, idx_q, idx_d;
  logic [7:0]        try_q, try_d;
  logic [11*64-1:0]  cmd_q, cmd_d;
  logic [31:0]       route_q, route_d;
  logic [11:0]       dest_q, dest_d;      // the job's dest: a resend's comes with its entry
  logic              abn_q, abn_d, head_q, head_d;
  logic [2:0]        jid_q, jid_d;
  logic [NRs-1:0]    rv_q, rv_d;
  logic [NRs*EW-1:0] re_q, re_d;

  // oldest eligible resend entry (start-of-cycle), one-hot (efirst), and the
  // entry selected by an AND-OR of that one-hot: the same entry as an index
  // into re_q, without an index adder and multiplexer on the path to the
  // backing-store address (docs/elan4.md "Timing") *(ours)*
  logic [NRs-1:0] elig, efirst;
  logic           el;
  logic [EW-1:0]  ee;
  always_comb begin
    logic seen;
    seen = 1'b0; ee = '0;
    for (int unsigned i = 0; i < NRs; i++) begin
      elig[i]   = rv_q[i] && re_q[i*EW +: CdW] == '0;
      efirst[i] = elig[i] && !seen;
      seen      = seen || elig[i];
      ee        = ee | (re_q[i*EW +: EW] & {EW{efirst[i]}});
    end
    el = seen;
  end
  // entry fields: {slot, pos, len, try, dest, addr, cd}; addr is the
  // backing-store dword address of pos, formed when the entry is appended
  // (the slot's base and class cannot change while it has packets out: a
  // CQCTL write or an error abandons them, and a slot with packets out is not
  // evicted), so a take's read needs no adder (timing) *(ours)*
  logic [SW-1:0] e_slot;
  logic [19:0]   e_pos;
  logic [3:0]    e_len;
  logic [7:0]    e_try;
  logic [11:0]   e_dest;
  logic [27:0]   e_addr;
  assign {e_slot, e_pos, e_len, e_try, e_dest, e_addr} = ee[EW-1:CdW];

  assign ok_o        = s_q == SIdle && !el;
  assign busy_o      = s_q != SIdle;
  assign busy_slot_o = slot_q;

  // drop: the queue abandoned (start-of-cycle) and the HEAD not decided
  logic drop;
  assign drop = s_q != SIdle && !head_q && (abn_q || s_st_i[32'(slot_q)*2 +: 2] == 2'd2);

  logic        take;
  logic [3:0]    ci;
  assign take = s_q == SIdle && el;
  assign ci   = take ? 4'd0 : idx_q;
  // backing-store address of position p of slot sl: base + (p mod DepthDw),
  // on the kit's Kogge-Stone tree (rtl/cp/cp_ks_add.sv) *(ours)*
  function automatic logic [19:0] bs_off(input logic [NumCq*2-1:0] cls, input logic [SW-1:0] sl,
                                         input logic [19:0] p);
    bs_off = p & (depth_dw(cls[32'(sl)*2 +: 2]) - 20'd1);
  endfunction
  // a take reads its entry's first dword at the entry's address; the job's
  // later dwords at pos + idx of the job's slot (registers only)
  logic [27:0] raddr, jaddr;
  logic        unused_jaddr_co;
  cp_ks_add #(.W(28), .Keep(1)) u_jaddr (
    .a_i (s_base_i[32'(slot_q)*31 + 3 +: 28]), .b_i ({8'd0, bs_off(s_cls_i, slot_q, pos_q + 20'(idx_q))}),
    .ci_i (1'b0), .s_o (jaddr), .co_o (unused_jaddr_co)
  );
  assign raddr = take ? e_addr : jaddr;
  // the address of an appended entry (from the token result's inputs)
  logic [27:0] aaddr;
  logic        unused_aaddr_co;
  cp_ks_add #(.W(28), .Keep(1)) u_aaddr (
    .a_i (s_base_i[32'(res_slot_i)*31 + 3 +: 28]), .b_i ({8'd0, bs_off(s_cls_i, res_slot_i, res_pos_i)}),
    .ci_i (1'b0), .s_o (aaddr), .co_o (unused_aaddr_co)
  );
  logic [3:0] clen;
  assign clen = take ? e_len : len_q;

  always_comb begin
    lm_req_v_o = 1'b0; lm_req_addr_o = '0; lm_req_tag_o = '0;
    if (!drop) begin
      if (take || (s_q == SRsRd && idx_q != len_q)) begin
        lm_req_v_o = 1'b1;
        lm_req_addr_o = raddr;
        lm_req_tag_o = TagW'({take ? jid_q + 3'd1 : jid_q, 1'b0, ci});
      end else if (s_q == SRtReq || (s_q == SRsRd && idx_q == len_q)) begin
        lm_req_v_o = 1'b1;
        // dest_q, not dword 0: a resend's dword 0 may not have arrived yet
        lm_req_addr_o = 28'((RtBase >> 3) + 32'(dest_q));
        lm_req_tag_o = TagW'({jid_q, 1'b1, 4'd0});
      end
    end
  end

  logic rd_mine, rd_route;
  assign rd_mine  = lm_rd_v_i && lm_rd_tag_i[7:5] == jid_q && s_q != SIdle && !drop;
  assign rd_route = rd_mine && lm_rd_tag_i[4];

  logic unused_st;
  assign unused_st = ^{clen, lm_rd_tag_i[TagW-1:8], ee[CdW-1:0]};

  always_comb begin
    s_d = s_q; slot_d = slot_q; pos_d = pos_q; len_d = len_q; idx_d = idx_q; try_d = try_q;
    cmd_d = cmd_q; route_d = route_q; dest_d = dest_q; abn_d = abn_q || abandon_i[slot_q]; head_d = head_q;
    jid_d = jid_q;
    err_v_o = 1'b0; formed_o = 1'b0;
    if (drop) begin
      s_d = SIdle;
    end else begin
      case (s_q)
        SIdle: begin
          if (take) begin
            s_d = SRsRd; slot_d = e_slot; pos_d = e_pos; len_d = e_len; try_d = e_try;
            idx_d = lm_gnt_i ? 4'd1 : 4'd0; abn_d = 1'b0; head_d = 1'b0; jid_d = jid_q + 1'b1;
            cmd_d = '0; dest_d = e_dest;
          end else if (job_v_i) begin
            s_d = SRtReq; slot_d = job_slot_i; pos_d = s_rp_i[32'(job_slot_i)*20 +: 20];
            len_d = job_len_i; try_d = '0; idx_d = '0; cmd_d = job_cmd_i; dest_d = job_cmd_i[27:16];
            abn_d = abandon_i[job_slot_i]; head_d = 1'b0; jid_d = jid_q + 1'b1;
          end
        end
        SRtReq: if (lm_gnt_i) s_d = SRtWait;
        SRsRd: if (lm_gnt_i) begin
          if (idx_q == len_q) s_d = SRtWait;
          else idx_d = idx_q + 1'b1;
        end
        SRtWait: ;
        SSend: begin
          if (tx_head_i) head_d = 1'b1;
          if (tx_tail_i) s_d = SIdle;
        end
        default: s_d = SIdle;
      endcase
      if (rd_mine && !rd_route)
        cmd_d[32'(lm_rd_tag_i[3:0])*64 +: 64] = lm_rd_data_i;
      if (rd_route) begin
        if (lm_rd_data_i[32]) begin
          s_d = SSend; route_d = lm_rd_data_i[31:0]; formed_o = 1'b1;
        end else begin
          s_d = SIdle; err_v_o = 1'b1;
        end
      end
    end
  end
  assign err_slot_o = slot_q;
  assign err_pos_o  = pos_q;

  // packet words (§4.6) from the job's dwords
  logic [3:0]  op;
  logic [3:0]  kind;
  logic [31:0] w0;
  always_comb begin
    op = cmd_q[3:0];
    case (op)
      4'd1: kind = 4'd1;
      4'd2: kind = 4'd2;
      4'd3: kind = 4'd3;
      default: kind = 4'd4;
    endcase
    w0 = {2'b00, s_ctx_i[32'(slot_q)*14 +: 14], 6'd0, cmd_q[10], cmd_q[8],
          (op == 4'd1 || op == 4'd2) ? cmd_q[7:4] : 4'd0, kind};
    tx_words_o = '0;
    tx_words_o[0 +: 32]  = w0;
    tx_words_o[32 +: 32] = {20'd0, node_i};
    tx_words_o[64 +: 64] = cmd_q[64 +: 64];
    if (op == 4'd3) tx_words_o[128 +: 32] = cmd_q[63:32];
    else tx_words_o[128 +: 18*32] = cmd_q[128 +: 9*64];
  end
  assign tx_nbody_o = (op == 4'd3) ? 5'd5 : 5'(4 + 2 * (32'(len_q) - 2));
  assign tx_req_o   = s_q == SSend && !head_q && !drop;
  assign tx_route_o = route_q;
  assign tx_slot_o  = slot_q;
  assign tx_pos_o   = pos_q;
  assign tx_len_o   = len_q;
  assign tx_try_o   = try_q;
  assign tx_dest_o  = dest_q;

  // token results
  logic do_res;
  assign do_res = res_v_i && !res_abn_i;
  assign tk_ack_v_o     = do_res && res_ack_i;
  assign tk_ack_slot_o  = res_slot_i;
  assign tk_ack_pos_o   = res_pos_i;
  assign tk_fail_v_o    = do_res && !res_ack_i && 32'(res_try_i) + 1 > RetryLimit;
  assign tk_fail_slot_o = res_slot_i;
  assign tk_fail_pos_o  = res_pos_i;

  // resend list: drop taken and abandoned entries, count down, compact, append
  always_comb begin
    logic [31:0] n;
    logic [31:0] bk;
    rv_d = '0; re_d = '0; n = 0;
    for (int unsigned i = 0; i < NRs; i++) begin
      logic [EW-1:0] e;
      e = re_q[i*EW +: EW];
      if (rv_q[i] && !(take && efirst[i]) && !abandon_i[e[EW-1 -: SW]]) begin
        if (e[CdW-1:0] != '0) e[CdW-1:0] = e[CdW-1:0] - 1'b1;
        rv_d[n] = 1'b1;
        re_d[n*EW +: EW] = e;
        n = n + 1;
      end
    end
    bk = RetryBackoff * (32'(res_try_i) + 1);
    if (do_res && !res_ack_i && 32'(res_try_i) + 1 <= RetryLimit && !abandon_i[res_slot_i] && n < NRs) begin
      rv_d[n] = 1'b1;
      re_d[n*EW +: EW] = {res_slot_i, res_pos_i, res_len_i, res_try_i + 8'd1, res_dest_i, aaddr,
                          (bk == 0) ? CdW'(0) : CdW'(bk - 1)};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_q <= SIdle; slot_q <= '0; pos_q <= '0; len_q <= '0; idx_q <= '0; try_q <= '0;
      cmd_q <= '0; route_q <= '0; dest_q <= '0; abn_q <= 1'b0; head_q <= 1'b0; jid_q <= '0;
      rv_q <= '0; re_q <= '0;
    end else begin
      s_q <= s_d; slot_q <= slot_d; pos_q <= pos_d; len_q <= len_d; idx_q <= idx_d; try_q <= try_d;
      cmd_q <= cmd_d; route_q <= route_d; dest_q <= dest_d; abn_q <= abn_d; head_q <= head_d; jid_q <= jid_d;
      rv_q <= rv_d; re_q <= re_d;
    end
  end

`ifndef SYNTHESIS
  // a resend entry's kept address is still its slot's base + (pos mod
  // DepthDw): the slot's base and class did not change under it
  for (genvar i = 0; i < NRs; i++) begin : gen_resend_chk
    always_ff @(posedge clk_i) begin
      if (rst_ni)
        st_resend_addr: assert (!rv_q[i] || re_q[i*EW + CdW +: 28] ==
            s_base_i[32'(re_q[i*EW + EW-1 -: SW])*31 + 3 +: 28] +
            {8'd0, bs_off(s_cls_i, re_q[i*EW + EW-1 -: SW], re_q[i*EW + EW-SW-1 -: 20])});
    end
  end
`endif
endmodule
