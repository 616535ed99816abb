// ibsw: InfiniBand switch with per-port power gating (docs/ibsw.md).
// Buses are flat: port n (1..P) at [(n-1)*W +: W]; credits V+1 bits per port.
// Pipeline per HEAD (§11): arrive+route (t), front/ROUTE, VA (t+R-3), SA
// (t+R-2), ST (t+R-1), pins (t+R); every output comes from a register.
module ibsw #(
  parameter int unsigned NumPorts    = 24,
  parameter int unsigned NumDataVls  = 4,
  parameter int unsigned BufDepth    = 16,
  parameter int unsigned Buf15Depth  = 8,
  parameter int unsigned RouteCycles = 25,
  parameter int unsigned WakeCycles  = 1024,
  parameter int unsigned LftBlocks   = 64,
  parameter int unsigned LinkSpeed   = 3,
  parameter int unsigned CntW        = 32,
  parameter int unsigned ExtW        = 64,
  parameter int unsigned BootActive  = 0,
  localparam int unsigned P   = NumPorts,
  localparam int unsigned LanW = NumDataVls + 1,
  localparam int unsigned C16 = (CntW < 16) ? CntW : 16,
  localparam int unsigned C8  = (CntW < 8) ? CntW : 8
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [P-1:0]        in_valid_i,
  input  logic [2*P-1:0]      in_kind_i,
  input  logic [4*P-1:0]      in_vl_i,
  input  logic [64*P-1:0]     in_data_i,
  input  logic [LanW*P-1:0]   in_credit_i,
  output logic [P-1:0]        out_valid_o,
  output logic [2*P-1:0]      out_kind_o,
  output logic [4*P-1:0]      out_vl_o,
  output logic [64*P-1:0]     out_data_o,
  output logic [LanW*P-1:0]   out_credit_o,
  input  logic                cfg_valid_i,
  input  logic [1:0]          cfg_sel_i,
  input  logic [15:0]         cfg_addr_i,
  input  logic [15:0]         cfg_data_i,
  output logic [3*P-1:0]      port_state_o,
  output logic [3*P-1:0]      phys_state_o,
  output logic [P-1:0]        draining_o,
  output logic [P-1:0]        power_on_o,
  output logic [16:0]         power_mw_o,
  output logic [63:0]         energy_o,
  output logic [P-1:0]        err_o,
  output logic [4*P-1:0]      err_code_o,
  output logic                sma_err_o,
  output logic [3:0]          sma_err_code_o,
  output logic [2*P-1:0]      sample_status_o,
  output logic [CntW*P-1:0]   cnt_xmit_data_o,
  output logic [CntW*P-1:0]   cnt_rcv_data_o,
  output logic [CntW*P-1:0]   cnt_xmit_pkts_o,
  output logic [CntW*P-1:0]   cnt_rcv_pkts_o,
  output logic [CntW*P-1:0]   cnt_xmit_wait_o,
  output logic [C16*P-1:0]    cnt_symbol_err_o,
  output logic [C16*P-1:0]    cnt_rcv_err_o,
  output logic [C16*P-1:0]    cnt_relay_err_o,
  output logic [C16*P-1:0]    cnt_xmit_discards_o,
  output logic [C16*P-1:0]    cnt_vl15_dropped_o,
  output logic [C8*P-1:0]     cnt_link_downed_o,
  output logic [ExtW*P-1:0]   ext_xmit_data_o,
  output logic [ExtW*P-1:0]   ext_rcv_data_o,
  output logic [ExtW*P-1:0]   ext_xmit_pkts_o,
  output logic [ExtW*P-1:0]   ext_rcv_pkts_o,
  output logic [C16-1:0]      cnt_sma_dropped_o
);

  localparam int unsigned V   = NumDataVls;
  localparam int unsigned NIn = P + 1;
  localparam int unsigned D   = 8 >> LinkSpeed;
  localparam int unsigned BW  = (LftBlocks > 1) ? $clog2(LftBlocks) : 1;
  localparam logic [2:0] PhPolling = 3'd2, PhTraining = 3'd4, PhLinkUp = 3'd5, PhLer = 3'd6;

  // §2: an illegal value stops elaboration, naming the parameter.
  if (NumPorts < 2 || NumPorts > 31) begin : gen_p_check
    $error("ibsw: NumPorts must be 2..31");
  end
  if (NumDataVls < 2 || NumDataVls > 7) begin : gen_v_check
    $error("ibsw: NumDataVls must be 2..7");
  end
  if (BufDepth < 4 || BufDepth > 256) begin : gen_bd_check
    $error("ibsw: BufDepth must be 4..256");
  end
  if (Buf15Depth < 4 || Buf15Depth > 64) begin : gen_b15_check
    $error("ibsw: Buf15Depth must be 4..64");
  end
  if (RouteCycles < 5 || RouteCycles > 255) begin : gen_r_check
    $error("ibsw: RouteCycles must be 5..255");
  end
  if (WakeCycles < 1 || WakeCycles > 16777215) begin : gen_w_check
    $error("ibsw: WakeCycles must be 1..16777215");
  end
  if (LftBlocks < 1 || LftBlocks > 768) begin : gen_lft_check
    $error("ibsw: LftBlocks must be 1..768");
  end
  if (LinkSpeed > 3) begin : gen_ls_check
    $error("ibsw: LinkSpeed must be 0..3");
  end
  if (CntW < 8 || CntW > 32) begin : gen_cntw_check
    $error("ibsw: CntW must be 8..32");
  end
  if (ExtW < 16 || ExtW < CntW || ExtW > 64) begin : gen_extw_check
    $error("ibsw: ExtW must be max(16, CntW)..64");
  end
  if (BootActive > 1) begin : gen_boot_check
    $error("ibsw: BootActive must be 0..1");
  end

  // ---- slot divider (§3.4): slot(c) = c mod D == 0, c from 0 after reset
  logic [2:0] slot_q;
  logic       slot;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) slot_q <= '0;
    else slot_q <= (32'(slot_q) + 1 >= D) ? 3'd0 : slot_q + 3'd1;
  end
  assign slot = slot_q == 3'd0;

  // ---- per-port state (index i = port n-1)
  logic [2:0]  phys [P];
  logic [2:0]  pst [P];
  logic [P-1:0] linkup, active, draining, sent_drained, cred_init, drained_ch, drain_idle, off_ready;
  logic [P-1:0] e10, e12, e13;
  logic [2:0]  target [P];
  logic [15:0] pi_status [P];

  // ---- inputs n = 0..P (0 = SMA responses): flat per (n, l) at n*LanW + l
  logic [NIn*LanW-1:0]    f_wait, f_active, f_nonempty, f_ane, f_hsent, f_idle_empty, f_drop, f_gnt, f_serve, f_pop;
  logic [5*NIn*LanW-1:0]  f_egr;
  logic [2*NIn*LanW-1:0]  f_kind;
  logic [64*NIn*LanW-1:0] f_data;
  logic [NIn-1:0]  a_valid, a_init, a_live_cand, a_taken;
  logic [2:0]      a_lane [NIn];
  logic [1:0]      a_kind [NIn];
  logic [63:0]     a_data [NIn];
  logic [4:0]      r_egr [NIn];
  logic [3:0]      r_err [NIn];
  logic [NIn-1:0]  r_drop;
  logic [15:0]     iu_err [NIn];
  logic [NIn-1:0]  iu_full15;
  logic [P-1:0]    rflit, rpkt, badvl;

  // ---- LFT
  logic [16*P-1:0] lft_dlid;
  logic [8*P-1:0]  lft_entry;
  logic [P-1:0]    lft_ok, usable, usable_n;
  logic [15:0]     lft_top;
  logic [BW-1:0]   sma_blk;
  logic [511:0]    lft_blk_rdata, sma_lft_wdata;
  logic            sma_lft_we, sma_top_we;
  logic [15:0]     sma_top_wdata;

  for (genvar i = 0; i < P; i++) begin : gen_dlid
    assign lft_dlid[16*i +: 16] = in_data_i[64*i+48 +: 16];
  end

  ibsw_lft #(.NumPorts(P), .LftBlocks(LftBlocks)) u_lft (
    .clk_i, .rst_ni,
    .rd_dlid_i(lft_dlid), .rd_entry_o(lft_entry), .usable_i(usable), .usable_next_i(usable_n), .rd_ok_o(lft_ok), .top_o(lft_top),
    .blk_i(sma_blk), .blk_rdata_o(lft_blk_rdata), .blk_we_i(sma_lft_we), .blk_wdata_i(sma_lft_wdata),
    .top_we_i(sma_top_we), .top_wdata_i(sma_top_wdata),
    .cfg_valid_i, .cfg_sel_i, .cfg_addr_i, .cfg_data_i
  );

  // ---- SMA interface signals
  logic        sma_idle, sma_grant, sma_push, sma_bad, sma_pi_set, sma_sc_set;
  logic [4:0]  sma_grant_port, sma_bad_port, sma_sel;
  logic [1:0]  sma_push_kind;
  logic [63:0] sma_push_data;
  logic [3:0]  sma_pi_pstate, sma_pi_phys;
  logic [127:0] sma_sc_data;
  logic [10:0] sma_clr;
  logic [3:0]  sma_clr_ext;
  logic        cap_valid_q, cap_syn_q;
  logic [1:0]  cap_kind_q;
  logic [63:0] cap_data_q;

  // ---- arrival classification (§5.1 step 1-2) and routing (§5.2)
  for (genvar i = 0; i < P; i++) begin : gen_arrive
    logic       v, pk;
    logic [3:0] vl;
    logic       lane_ok;
    assign v  = in_valid_i[i];
    assign pk = v && in_kind_i[2*i +: 2] != 2'd3;
    assign vl = in_vl_i[4*i +: 4];
    assign lane_ok = 32'(vl) < V || vl == 4'd15;
    assign rflit[i] = pk && linkup[i];
    assign rpkt[i]  = rflit[i] && in_kind_i[2*i +: 2] == 2'd2;
    assign badvl[i] = rflit[i] && !lane_ok;
    assign a_valid[i+1] = rflit[i] && lane_ok;
    assign a_lane[i+1]  = (vl == 4'd15) ? 3'(V) : vl[2:0];
    assign a_kind[i+1]  = in_kind_i[2*i +: 2];
    assign a_data[i+1]  = in_data_i[64*i +: 64];
    assign a_init[i+1]  = pst[i] == 3'd2;
    ibsw_route #(.NumPorts(P)) u_route (
      .ingress_i(5'(i + 1)), .vl15_i(vl == 4'd15), .data_i(in_data_i[64*i +: 64]),
      .entry_i(lft_entry[8*i +: 8]), .entry_ok_i(lft_ok[i]), .top_i(lft_top),
      .linkup_i(linkup), .active_i(active), .draining_i(draining),
      .egr_o(r_egr[i+1]), .err_o(r_err[i+1]), .drop_o(r_drop[i+1])
    );
  end
  assign a_valid[0] = sma_push;
  assign a_lane[0]  = 3'(V);
  assign a_kind[0]  = sma_push_kind;
  assign a_data[0]  = sma_push_data;
  assign a_init[0]  = 1'b0;
  ibsw_route #(.NumPorts(P)) u_route_sma (
    .ingress_i(5'd0), .vl15_i(1'b1), .data_i(sma_push_data), .entry_i(8'hFF), .entry_ok_i(1'b0),
    .top_i(lft_top), .linkup_i(linkup), .active_i(active), .draining_i(draining),
    .egr_o(r_egr[0]), .err_o(r_err[0]), .drop_o(r_drop[0])
  );

  for (genvar n = 0; n < NIn; n++) begin : gen_in
    ibsw_input_unit #(
      .NumDataVls(V), .BufDepth(BufDepth), .Buf15Depth(Buf15Depth), .RouteCycles(RouteCycles),
      .Sma(n == 0)
    ) u_in (
      .clk_i, .rst_ni,
      .arr_i(a_valid[n]), .arr_lane_i(a_lane[n]), .arr_kind_i(a_kind[n]), .arr_data_i(a_data[n]),
      .arr_init_i(a_init[n]), .route_egr_i(r_egr[n]), .route_err_i(r_err[n]), .route_drop_i(r_drop[n]),
      .arr_live_head_o(a_live_cand[n]), .arr_taken_o(a_taken[n]), .err_o(iu_err[n]), .full_at_start_o(iu_full15[n]),
      .wait_o(f_wait[n*LanW +: LanW]), .active_o(f_active[n*LanW +: LanW]),
      .nonempty_o(f_nonempty[n*LanW +: LanW]), .ane_o(f_ane[n*LanW +: LanW]), .hsent_o(f_hsent[n*LanW +: LanW]),
      .idle_empty_o(f_idle_empty[n*LanW +: LanW]),
      .front_egr_o(f_egr[5*n*LanW +: 5*LanW]), .front_drop_o(f_drop[n*LanW +: LanW]),
      .front_kind_o(f_kind[2*n*LanW +: 2*LanW]), .front_data_o(f_data[64*n*LanW +: 64*LanW]),
      .gnt_i(f_gnt[n*LanW +: LanW]), .serve_i(f_serve[n*LanW +: LanW]), .pop_o(f_pop[n*LanW +: LanW])
    );
  end

  // ---- VA (§5.4): output lanes (o, l), o = 0 only for lane V; index o*LanW + l
  logic [NIn*LanW-1:0]     o_busy, o_close, o_serve, o_ready;
  logic [5*NIn*LanW-1:0]   o_owner;
  logic [NIn*NIn*LanW-1:0] o_owner_oh;   // [(o*LanW + l)*NIn + n]
  logic [NIn*NIn*LanW-1:0] o_gnt;   // [(o*LanW + l)*NIn + n]
  for (genvar o = 0; o < NIn; o++) begin : gen_va_o
    for (genvar l = 0; l < LanW; l++) begin : gen_va_l
      if (o == 0 && l < V) begin : gen_none
        assign o_busy[o*LanW + l] = 1'b0;
        assign o_owner[5*(o*LanW + l) +: 5] = '0;
        assign o_owner_oh[(o*LanW + l)*NIn +: NIn] = '0;
        assign o_gnt[(o*LanW + l)*NIn +: NIn] = '0;
      end else begin : gen_va
        logic [NIn-1:0] req;
        for (genvar n = 0; n < NIn; n++) begin : gen_req
          assign req[n] = f_wait[n*LanW + l] && f_egr[5*(n*LanW + l) +: 5] == 5'(o);
        end
        ibsw_vl_alloc #(.NumPorts(P)) u_va (
          .clk_i, .rst_ni, .req_i(req), .enable_i((o != 0) || sma_idle), .close_i(o_close[o*LanW + l]),
          .gnt_o(o_gnt[(o*LanW + l)*NIn +: NIn]), .busy_o(o_busy[o*LanW + l]),
          .owner_o(o_owner[5*(o*LanW + l) +: 5]), .owner_oh_o(o_owner_oh[(o*LanW + l)*NIn +: NIn])
        );
      end
    end
  end
  assign sma_grant = o_gnt[V*NIn +: NIn] != '0;
  always_comb begin
    sma_grant_port = '0;
    for (int unsigned n = 0; n < NIn; n++) if (o_gnt[V*NIn + n]) sma_grant_port = 5'(n);
  end
  // input lane (n, l) is served when an output lane (o, l) it owns is: an OR
  // of owner compares (constant indices; SA's choice -> pop is on the worst path)
  always_comb begin
    f_gnt = '0;
    f_serve = '0;
    for (int unsigned o = 0; o < NIn; o++) begin
      for (int unsigned l = 0; l < LanW; l++) begin
        for (int unsigned n = 0; n < NIn; n++) begin
          f_gnt[n*LanW + l] = f_gnt[n*LanW + l] | o_gnt[(o*LanW + l)*NIn + n];
          if (o_serve[o*LanW + l] && o_busy[o*LanW + l] && 32'(o_owner[5*(o*LanW + l) +: 5]) == n)
            f_serve[n*LanW + l] = 1'b1;
        end
      end
    end
  end

  // ---- crossbar: each output lane sees its owner's front
  logic [NIn*LanW-1:0]    x_hsent, x_drop;
  logic [2*NIn*LanW-1:0]  x_kind;
  logic [64*NIn*LanW-1:0] x_data;
  ibsw_crossbar #(.NumPorts(P), .NumDataVls(V)) u_xbar (
    .busy_i(o_busy), .owner_i(o_owner), .owner_oh_i(o_owner_oh),
    .ane_i(f_ane), .hsent_i(f_hsent), .drop_i(f_drop),
    .kind_i(f_kind), .data_i(f_data),
    .ready_o(o_ready), .hsent_o(x_hsent), .drop_o(x_drop), .kind_o(x_kind), .data_o(x_data)
  );

  // ---- SA per external output, and pend increments. An arrival's pend
  // increment waits in registers and is counted by SA the next cycle: input n
  // had a live HEAD for output o (lh_q[o][n], the egress compare made beside
  // SA's pop) and it was taken (tk_q[n], the space check): the push depends
  // on SA's pop (space, §5.1 step 3), and counting after it was 4.05 ns;
  // the space check's register apart from the egress compare's, ANDed after
  // them, takes the compare and the AND off the pop's path (pop -> space ->
  // the pend hit was ibsw_p8_w24's worst path, 3,990 ps) *(ours)*.
  logic [NIn-1:0] lh_q [P];
  logic [NIn-1:0] tk_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tk_q <= '0;
    else tk_q <= a_taken;
  end
  for (genvar i = 0; i < P; i++) begin : gen_lh
    logic [NIn-1:0] lh_d;
    always_comb begin
      for (int unsigned n = 0; n < NIn; n++) lh_d[n] = a_live_cand[n] && 32'(r_egr[n]) == i + 1;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) lh_q[i] <= '0;
      else lh_q[i] <= lh_d;
    end
  end
  logic [3:0]  sa_discard [P];
  logic [3:0]  sa_stray [P];
  logic [31:0] sa_qdepth [P];
  logic [P-1:0] sa_flit, sa_pkt, sa_wait;
  for (genvar i = 0; i < P; i++) begin : gen_sa
    localparam int unsigned O = i + 1;
    ibsw_switch_alloc #(.NumPorts(P), .NumDataVls(V), .BufDepth(BufDepth), .Buf15Depth(Buf15Depth)) u_sa (
      .clk_i, .rst_ni, .slot_i(slot), .phys_i(phys[i]), .pstate_i(pst[i]), .draining_i(draining[i]),
      .sent_drained_i(sent_drained[i]), .cred_init_i(cred_init[i]),
      .in_credit_i(in_credit_i[LanW*i +: LanW]),
      .busy_i(o_busy[O*LanW +: LanW]), .ready_i(o_ready[O*LanW +: LanW]),
      .hsent_i(x_hsent[O*LanW +: LanW]), .front_drop_i(x_drop[O*LanW +: LanW]),
      .front_kind_i(x_kind[2*O*LanW +: 2*LanW]), .front_data_i(x_data[64*O*LanW +: 64*LanW]),
      .pend_hit_i(lh_q[i] & tk_q),
      .serve_o(o_serve[O*LanW +: LanW]), .close_o(o_close[O*LanW +: LanW]),
      .drained_o(drained_ch[i]), .drain_idle_o(drain_idle[i]),
      .ev_flit_o(sa_flit[i]), .ev_pkt_o(sa_pkt[i]), .ev_wait_o(sa_wait[i]),
      .ev_discard_o(sa_discard[i]), .ev_stray_o(sa_stray[i]), .qdepth_o(sa_qdepth[i]),
      .out_valid_o(out_valid_o[i]), .out_kind_o(out_kind_o[2*i +: 2]), .out_vl_o(out_vl_o[4*i +: 4]),
      .out_data_o(out_data_o[64*i +: 64])
    );
  end

  // ---- output 0: the SMA takes its ready lane V every cycle, captured next cycle
  logic        s0_syn;
  assign o_serve[V-1:0] = '0;
  assign o_close[V-1:0] = '0;
  assign o_serve[V] = o_ready[V];
  assign s0_syn = x_drop[V] || (x_kind[2*V +: 2] == 2'd0 && x_hsent[V]);
  assign o_close[V] = o_ready[V] && (s0_syn || x_kind[2*V +: 2] == 2'd2);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cap_valid_q <= 1'b0; cap_syn_q <= 1'b0; cap_kind_q <= '0; cap_data_q <= '0;
    end else begin
      cap_valid_q <= o_ready[V];
      cap_syn_q   <= s0_syn;
      cap_kind_q  <= s0_syn ? 2'd2 : x_kind[2*V +: 2];
      cap_data_q  <= x_data[64*V +: 64];
    end
  end

  // ---- credits out (§5.6): a pop of c is on the pins in c+1
  logic [P*LanW-1:0] cred_out_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cred_out_q <= '0;
    else cred_out_q <= f_pop[NIn*LanW-1:LanW];
  end
  assign out_credit_o = cred_out_q;

  // ---- port FSMs (§6)
  logic [15:0] sc_status [P];
  for (genvar i = 0; i < P; i++) begin : gen_fsm
    logic [2:0] ph;
    assign off_ready[i] = drain_idle[i] && f_idle_empty[(i+1)*LanW +: LanW] == '1;
    ibsw_port_fsm #(.WakeCycles(WakeCycles), .BootActive(BootActive)) u_fsm (
      .clk_i, .rst_ni,
      .sym_i(in_valid_i[i] && in_kind_i[2*i +: 2] == 2'd3), .sym_data_i(in_data_i[64*i +: 64]),
      .pkt_i(in_valid_i[i] && in_kind_i[2*i +: 2] != 2'd3),
      .drained_sent_i(drained_ch[i]), .off_ready_i(off_ready[i]),
      .set_i(sma_pi_set && 32'(sma_sel) == i + 1), .set_pstate_i(sma_pi_pstate), .set_phys_i(sma_pi_phys),
      .set_status_o(pi_status[i]),
      .phys_o(ph), .pstate_o(pst[i]), .usable_next_o(usable_n[i]), .draining_o(draining[i]), .target_o(target[i]),
      .sent_drained_o(sent_drained[i]), .cred_init_o(cred_init[i]),
      .err10_o(e10[i]), .err12_o(e12[i]), .err13_o(e13[i])
    );
    assign phys[i] = ph;
    assign linkup[i] = ph == PhLinkUp;
    assign active[i] = pst[i] == 3'd4;
    assign usable[i] = linkup[i] && active[i] && !draining[i];   // §5.2 for data
    assign power_on_o[i] = ph == PhPolling || ph == PhTraining || ph == PhLinkUp || ph == PhLer;
    assign port_state_o[3*i +: 3] = pst[i];
    assign phys_state_o[3*i +: 3] = ph;
    assign draining_o[i] = draining[i];
  end

  // ---- counters, errors (§8.1, §10) and samplers (§8.2)
  logic [127:0] s_ctl [P];
  logic [191:0] s_res [P];
  for (genvar i = 0; i < P; i++) begin : gen_cnt
    logic [15:1] ev;
    logic        sel;
    assign sel = 32'(sma_sel) == i + 1;
    always_comb begin
      ev = iu_err[i+1][15:1];
      ev[5]  = badvl[i];
      ev[9]  = sma_bad && 32'(sma_bad_port) == i + 1;
      ev[10] = e10[i];
      ev[12] = e12[i];
      ev[13] = e13[i];
      ev[14] = sa_stray[i] != '0;
      ev[15] = sa_discard[i] != '0;
    end
    ibsw_counters #(.CntW(CntW), .ExtW(ExtW)) u_cnt (
      .clk_i, .rst_ni,
      .ev_xflit_i(sa_flit[i]), .ev_rflit_i(rflit[i]), .ev_xpkt_i(sa_pkt[i]), .ev_rpkt_i(rpkt[i]),
      .ev_wait_i(sa_wait[i]), .err_i(ev), .n_stray_i(sa_stray[i]), .n_discard_i(sa_discard[i]),
      .clr_i(sel ? sma_clr : 11'd0), .clr_ext_i(sel ? sma_clr_ext : 4'd0),
      .xmit_data_o(cnt_xmit_data_o[CntW*i +: CntW]), .rcv_data_o(cnt_rcv_data_o[CntW*i +: CntW]),
      .xmit_pkts_o(cnt_xmit_pkts_o[CntW*i +: CntW]), .rcv_pkts_o(cnt_rcv_pkts_o[CntW*i +: CntW]),
      .xmit_wait_o(cnt_xmit_wait_o[CntW*i +: CntW]),
      .symbol_err_o(cnt_symbol_err_o[C16*i +: C16]), .rcv_err_o(cnt_rcv_err_o[C16*i +: C16]),
      .relay_err_o(cnt_relay_err_o[C16*i +: C16]), .xmit_discards_o(cnt_xmit_discards_o[C16*i +: C16]),
      .vl15_dropped_o(cnt_vl15_dropped_o[C16*i +: C16]), .link_downed_o(cnt_link_downed_o[C8*i +: C8]),
      .ext_xmit_data_o(ext_xmit_data_o[ExtW*i +: ExtW]), .ext_rcv_data_o(ext_rcv_data_o[ExtW*i +: ExtW]),
      .ext_xmit_pkts_o(ext_xmit_pkts_o[ExtW*i +: ExtW]), .ext_rcv_pkts_o(ext_rcv_pkts_o[ExtW*i +: ExtW]),
      .err_o(err_o[i]), .err_code_o(err_code_o[4*i +: 4])
    );
    ibsw_sampler #(.CntW(CntW)) u_smp (
      .clk_i, .rst_ni, .set_i(sma_sc_set && sel), .set_data_i(sma_sc_data), .set_status_o(sc_status[i]),
      .ev_i({sa_wait[i], rpkt[i], sa_pkt[i], rflit[i], sa_flit[i]}), .qdepth_i(sa_qdepth[i]),
      .status_o(sample_status_o[2*i +: 2]), .ctl_o(s_ctl[i]), .res_o(s_res[i])
    );
  end

  // ---- the SMA's own error pair (§10): response HEADs it could not route
  logic [3:0]     smae_q;
  logic           smao_q;
  logic [3:0]     smac_q;
  logic [C16-1:0] smad_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      smae_q <= '0; smao_q <= 1'b0; smac_q <= '0; smad_q <= '0;
    end else begin
      smae_q <= (iu_err[0][4:1] != '0) ? r_err[0] : 4'd0;
      smao_q <= smae_q != '0;
      if (smae_q != '0) begin
        smac_q <= smae_q;
        if (smad_q != '1) smad_q <= smad_q + 1'b1;
      end
    end
  end
  assign sma_err_o = smao_q;
  assign sma_err_code_o = smac_q;
  assign cnt_sma_dropped_o = smad_q;

  // ---- the SMA (§7) and the reads of its selected port
  logic [63:0]  pinfo;
  logic [127:0] sctl;
  logic [191:0] sres;
  logic [255:0] pcnt, pext;
  logic [15:0]  pi_st, sc_st;
  always_comb begin
    logic [3:0] spd, wid;
    spd = (LinkSpeed == 1 || LinkSpeed == 3) ? 4'd2 : 4'd1;
    wid = (LinkSpeed >= 2) ? 4'd2 : 4'd1;
    pinfo = '0; sctl = '0; sres = '0; pcnt = '0; pext = '0; pi_st = '0; sc_st = '0;
    for (int unsigned i = 0; i < P; i++) begin
      if (32'(sma_sel) == i + 1) begin
        pinfo = {1'b0, pst[i], 1'b0, phys[i], spd, wid, draining[i], target[i], 4'd0, 8'(i + 1), 32'd0};
        sctl  = s_ctl[i];
        sres  = s_res[i];
        pcnt  = {32'(cnt_xmit_data_o[CntW*i +: CntW]), 32'(cnt_rcv_data_o[CntW*i +: CntW]),
                 32'(cnt_xmit_pkts_o[CntW*i +: CntW]), 32'(cnt_rcv_pkts_o[CntW*i +: CntW]),
                 32'(cnt_xmit_wait_o[CntW*i +: CntW]), 16'(cnt_symbol_err_o[C16*i +: C16]),
                 8'(cnt_link_downed_o[C8*i +: C8]), 8'd0,
                 16'(cnt_rcv_err_o[C16*i +: C16]), 16'(cnt_relay_err_o[C16*i +: C16]),
                 16'(cnt_xmit_discards_o[C16*i +: C16]), 16'(cnt_vl15_dropped_o[C16*i +: C16])};
        pext  = {64'(ext_xmit_data_o[ExtW*i +: ExtW]), 64'(ext_rcv_data_o[ExtW*i +: ExtW]),
                 64'(ext_xmit_pkts_o[ExtW*i +: ExtW]), 64'(ext_rcv_pkts_o[ExtW*i +: ExtW])};
        pi_st = pi_status[i];
        sc_st = sc_status[i];
      end
    end
  end

  ibsw_sma #(
    .NumPorts(P), .NumDataVls(V), .RouteCycles(RouteCycles), .LftBlocks(LftBlocks)
  ) u_sma (
    .clk_i, .rst_ni, .idle_o(sma_idle), .grant_i(sma_grant), .grant_port_i(sma_grant_port),
    .cap_valid_i(cap_valid_q), .cap_kind_i(cap_kind_q), .cap_data_i(cap_data_q), .cap_syn_i(cap_syn_q),
    .bad_o(sma_bad), .bad_port_o(sma_bad_port), .sel_port_o(sma_sel),
    .lft_blk_o(sma_blk), .lft_we_o(sma_lft_we), .lft_wdata_o(sma_lft_wdata), .lft_rdata_i(lft_blk_rdata),
    .top_we_o(sma_top_we), .top_wdata_o(sma_top_wdata), .top_i(lft_top),
    .pi_set_o(sma_pi_set), .pi_pstate_o(sma_pi_pstate), .pi_phys_o(sma_pi_phys), .pi_status_i(pi_st),
    .sc_set_o(sma_sc_set), .sc_data_o(sma_sc_data), .sc_status_i(sc_st),
    .clr_o(sma_clr), .clr_ext_o(sma_clr_ext),
    .pinfo_i(pinfo), .sctl_i(sctl), .sres_i(sres), .pcnt_i(pcnt), .pext_i(pext),
    .power_i({32'd0, 15'd0, power_mw_o, energy_o}),
    .buf_full_i(iu_full15[0]), .push_o(sma_push), .push_kind_o(sma_push_kind), .push_data_o(sma_push_data)
  );

  // input 0 has no port pins (no credits out, no reset-time idle check); output
  // 0 carries lane V only (the SMA reads kind and data of its lane)
  logic unused_in0;
  assign unused_in0 = ^{f_idle_empty[LanW-1:0], f_pop[LanW-1:0], iu_full15[NIn-1:1],
                        x_kind[2*V-1:0], x_data[64*V-1:0]};

  // ---- power meter (§9)
  ibsw_power #(.NumPorts(P), .LinkSpeed(LinkSpeed)) u_power (
    .clk_i, .rst_ni, .on_i(power_on_o), .power_mw_o, .energy_o
  );

`ifndef SYNTHESIS
  // the drop mark's short path (the LFT's entry_ok) agrees with the routing code
  always_ff @(posedge clk_i) begin
    for (int unsigned n = 0; n < NIn; n++) begin
      ib_route_drop_is_err: assert (r_drop[n] == (r_err[n] != 4'd0));
    end
  end
  // the crossbar's ready (registered "ACTIVE and not empty" through the
  // one-hot owner) is §5.4's: BUSY, the owner's lane ACTIVE and its buffer
  // not empty, read through the owner's index
  logic [NIn*LanW-1:0] ref_ready;
  always_comb begin
    for (int unsigned o = 0; o < NIn; o++) begin
      for (int unsigned l = 0; l < LanW; l++) begin
        logic [4:0] w;
        w = o_owner[5*(o*LanW + l) +: 5];
        ref_ready[o*LanW + l] = o_busy[o*LanW + l] && 32'(w) < NIn &&
                                f_active[32'(w)*LanW + l] && f_nonempty[32'(w)*LanW + l];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    xb_ready_exact: assert (o_ready == ref_ready);
  end
`endif
endmodule
