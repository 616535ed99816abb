// ibsw_switch_alloc: SA of one external output o (docs/ibsw.md §5.4-§5.6,
// §6.4-§6.5): pacing by slot, DRAINED, VL15 first, round robin over the data
// lanes, sink mode when the port is not LinkUp, the symbols of Polling /
// Training / LinkErrorRecovery; the credit counters, pend, and the staging
// and output registers (ST, §5.5: the pins show the choice of c in c+2).
module ibsw_switch_alloc #(
  parameter int unsigned NumPorts   = 4,
  parameter int unsigned NumDataVls = 2,
  parameter int unsigned BufDepth   = 4,
  parameter int unsigned Buf15Depth = 4,
  localparam int unsigned LanW = NumDataVls + 1,
  localparam int unsigned NIn  = NumPorts + 1,
  localparam int unsigned CW   = 9
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              slot_i,
  input  logic [2:0]        phys_i,
  input  logic [2:0]        pstate_i,
  input  logic              draining_i,
  input  logic              sent_drained_i,
  input  logic              cred_init_i,     // the port enters Training
  input  logic [LanW-1:0]   in_credit_i,
  input  logic [LanW-1:0]   busy_i,          // ost[o][l]
  input  logic [LanW-1:0]   ready_i,         // BUSY, owner ACTIVE, owner's buffer not empty
  input  logic [LanW-1:0]   hsent_i,         // the owner's
  input  logic [LanW-1:0]   front_drop_i,
  input  logic [2*LanW-1:0] front_kind_i,
  input  logic [64*LanW-1:0] front_data_i,
  input  logic [NIn-1:0]    pend_hit_i,      // input n pushed a live HEAD for o last cycle (registered)
  output logic [LanW-1:0]   serve_o,
  output logic [LanW-1:0]   close_o,
  output logic              drained_o,       // DRAINED chosen (sent_drained <- 1)
  output logic              drain_idle_o,    // pend 0, no lane BUSY, every credit back
  output logic              ev_flit_o,       // a packet flit chosen (XmitData +2)
  output logic              ev_pkt_o,        // a TAIL chosen (XmitPkts +1)
  output logic              ev_wait_o,       // XmitWait +1
  output logic [3:0]        ev_discard_o,    // packets ended in sink mode (error 15)
  output logic [3:0]        ev_stray_o,      // credit returns to full counters (error 14)
  output logic [31:0]       qdepth_o,        // Σ data lanes (BufDepth - cred)
  output logic              out_valid_o,
  output logic [1:0]        out_kind_o,
  output logic [3:0]        out_vl_o,
  output logic [63:0]       out_data_o
);
  localparam logic [2:0] PhPolling = 3'd2, PhTraining = 3'd4, PhLinkUp = 3'd5, PhLer = 3'd6;
  localparam logic [63:0] SynTail = 64'hBAD0BAD0BAD0BAD0;

  logic [CW-1:0] cred_q [LanW];
  logic [CW-1:0] cred_d [LanW];
  logic [15:0]   pend_q, pend_d;
  logic [3:0]    pcls_d;
  logic [3:0]    pcls_q;   // last cycle's closes: SA's choice -> pend was 5.1 ns
  logic [15:0]   pend_s;
  logic          pend_co;
  logic          pend_zero;
  logic [2:0]    srr_q, srr_d;
  logic          st_valid_q, st_valid_d, o_valid_q;
  logic [1:0]    st_kind_q, st_kind_d, o_kind_q;
  logic [3:0]    st_vl_q, st_vl_d, o_vl_q;
  logic [63:0]   st_data_q, st_data_d, o_data_q;
  logic [LanW-1:0] full_cred, has_cred, consume, syn;
  // cred_q != 0 and cred_q == max, each its own register: SA's request and
  // the drain condition read flags, not 9-bit compares (a credit counter ->
  // SA -> pop chain was among ibsw_p8_w24's worst, docs/ibsw.md Status)
  // *(ours)*. Assertion sa_cred_flags_exact.
  logic [LanW-1:0] hc_q, hc_d, fc_q, fc_d;
  logic          linkup, chosen_any;
  logic [2:0]    ch;

  function automatic logic [CW-1:0] cmax(input int unsigned l);
    cmax = (l == NumDataVls) ? CW'(Buf15Depth) : CW'(BufDepth);
  endfunction

  // The lane SA serves (§5.4's order: DRAINED, then VL15, then the data
  // lanes round robin from srr), as one-hot grants: a data lane's grant is its
  // request and no request ahead of it in the order that starts at srr_q, the
  // masks of that order from the register alone, so ready -> serve is an
  // AND-OR with no encode and compare (ready -> SA -> pop -> the space check
  // was the worst path of ibsw_p4 and ibsw_p8_w24, docs/ibsw.md Status)
  // *(ours)*. Assertion sa_grant_is_scan compares it with the scan as written.
  logic [LanW-1:0] req, gnt;
  logic            drain_now;
  always_comb begin
    logic ahead;
    for (int unsigned l = 0; l < LanW; l++) begin
      full_cred[l] = fc_q[l];
      has_cred[l]  = hc_q[l];
      req[l]       = ready_i[l] && has_cred[l];
    end
    drain_now = draining_i && !sent_drained_i && pend_zero && busy_i == '0 && &full_cred;
    gnt = '0;
    ahead = 1'b0;
    if (phys_i == PhLinkUp && slot_i && !drain_now) begin
      gnt[NumDataVls] = req[NumDataVls];
      if (!req[NumDataVls] && pstate_i == 3'd4) begin
        for (int unsigned l = 0; l < NumDataVls; l++) begin
          ahead = 1'b0;
          for (int unsigned k = 0; k < NumDataVls; k++) begin
            if ((32'(srr_q) <= k && k < l) || (l < 32'(srr_q) && (k >= 32'(srr_q) || k < l)))
              ahead = ahead | req[k];
          end
          gnt[l] = req[l] && !ahead;
        end
      end
    end
  end

  always_comb begin
    logic [3:0] nclose;
    nclose = '0;
    linkup = phys_i == PhLinkUp;
    for (int unsigned l = 0; l < LanW; l++) begin
      // synthetic close: the front is a HEAD after ours was sent, or drop-marked
      syn[l] = front_drop_i[l] || (front_kind_i[2*l +: 2] == 2'd0 && hsent_i[l]);
    end
    serve_o      = '0;
    consume      = '0;
    drained_o    = 1'b0;
    chosen_any   = 1'b0;
    ch           = '0;
    srr_d        = srr_q;
    ev_discard_o = '0;
    st_valid_d = 1'b0; st_kind_d = '0; st_vl_d = '0; st_data_d = '0;
    if (linkup) begin
      if (slot_i && drain_now) begin
        drained_o = 1'b1;
        st_valid_d = 1'b1; st_kind_d = 2'd3; st_data_d = 64'd3;
      end
      chosen_any = gnt != '0;
      serve_o    = gnt;
      consume    = gnt;
      for (int unsigned l = 0; l < LanW; l++) begin
        if (gnt[l]) begin
          ch         = 3'(l);
          st_valid_d = 1'b1;
          st_vl_d    = (l == NumDataVls) ? 4'd15 : 4'(l);
          if (syn[l]) begin
            st_kind_d = 2'd2;
            st_data_d = SynTail;
          end else begin
            st_kind_d = front_kind_i[2*l +: 2];
            st_data_d = front_data_i[64*l +: 64];
            if (l == NumDataVls && st_kind_d == 2'd0)
              st_data_d = {st_data_d[63:48], 5'b0, st_data_d[47:5]};
          end
        end
      end
      if (gnt[NumDataVls-1:0] != '0) srr_d = (32'(ch) + 1 == NumDataVls) ? 3'd0 : ch + 3'd1;
    end else begin
      serve_o = ready_i;    // sink mode
      if (phys_i == PhPolling || phys_i == PhLer) begin
        st_valid_d = 1'b1; st_kind_d = 2'd3; st_data_d = 64'd1;
      end else if (phys_i == PhTraining) begin
        st_valid_d = 1'b1; st_kind_d = 2'd3; st_data_d = 64'd2;
      end
    end
    for (int unsigned l = 0; l < LanW; l++) begin
      close_o[l] = serve_o[l] && (syn[l] || front_kind_i[2*l +: 2] == 2'd2);
      nclose = nclose + 4'(close_o[l]);
    end
    if (!linkup) ev_discard_o = nclose;
    ev_flit_o = chosen_any;
    ev_pkt_o  = chosen_any && (close_o != '0);
    ev_wait_o = linkup && ready_i != '0 && !chosen_any;
  end
  // pend apart from SA: its increments come from arrivals that depend on SA's pops.
  // pend_q is pend (§5.0) of the previous cycle; the arrivals (pend_hit_i, one
  // bit per input, registered by the parent) and closes (pcls_q) of that cycle
  // reach it now: pend = pend_q + Σ pend_hit_i - pcls_q. The operands (pend_q,
  // each hit bit, ~pcls_q with a carry in of 1 for the minus) are reduced to
  // two by rows of full adders (carry save) and added once on a Kogge-Stone
  // tree (cp's cp_ks_add): counting the hits, then subtracting, then adding
  // was 4.19 ns in ibsw_p8_w24 (docs/ibsw.md Status) *(ours)*.
  localparam int unsigned NOps = NIn + 2;
  function automatic int unsigned csa_after(input int unsigned n, input int unsigned st);
    csa_after = n;
    for (int unsigned k = 0; k < st; k++) if (csa_after > 2) csa_after = (csa_after / 3) * 2 + csa_after % 3;
  endfunction
  function automatic int unsigned csa_rows(input int unsigned n);
    csa_rows = 0;
    for (int unsigned k = 0; k < 16; k++) if (csa_after(n, k) > 2) csa_rows = k + 1;
  endfunction
  localparam int unsigned Rows = csa_rows(NOps);
  // row r's operands at [(r*NOps + k)*16 +: 16], k < csa_after(NOps, r)
  logic [(Rows+1)*NOps*16-1:0] csa /*verilator split_var*/;
  always_comb begin
    logic [3:0] nc;
    nc = '0;
    for (int unsigned l = 0; l < LanW; l++) nc = nc + 4'(close_o[l]);
    pcls_d = nc;
  end
  assign csa[0 +: 16]  = pend_q;
  assign csa[16 +: 16] = ~{12'd0, pcls_q};
  for (genvar n = 0; n < NIn; n++) begin : gen_csa_in
    assign csa[(n+2)*16 +: 16] = 16'(pend_hit_i[n]);
  end
  for (genvar r = 0; r < Rows; r++) begin : gen_csa_row
    localparam int unsigned M = csa_after(NOps, r);
    localparam int unsigned G = M / 3;
    localparam int unsigned B = r * NOps * 16, Bn = (r + 1) * NOps * 16;
    for (genvar g = 0; g < G; g++) begin : gen_fa
      logic [15:0] x, y, z;
      assign x = csa[B + (3*g)*16 +: 16];
      assign y = csa[B + (3*g+1)*16 +: 16];
      assign z = csa[B + (3*g+2)*16 +: 16];
      assign csa[Bn + (2*g)*16 +: 16]   = x ^ y ^ z;
      assign csa[Bn + (2*g+1)*16 +: 16] = {(x[14:0] & y[14:0]) | (x[14:0] & z[14:0]) | (y[14:0] & z[14:0]), 1'b0};
    end
    for (genvar k = 3 * G; k < M; k++) begin : gen_pass
      assign csa[Bn + (2*G + k - 3*G)*16 +: 16] = csa[B + k*16 +: 16];
    end
    for (genvar k = 2 * G + M - 3 * G; k < NOps; k++) begin : gen_zero
      assign csa[Bn + k*16 +: 16] = '0;
    end
  end
  logic unused_csa;
  assign unused_csa = ^csa;   // the zero rows past each row's operands
  cp_ks_add #(.W(16), .Keep(1)) u_pend_add (
    .a_i(csa[Rows*NOps*16 +: 16]), .b_i(csa[Rows*NOps*16 + 16 +: 16]), .ci_i(1'b1), .s_o(pend_s), .co_o(pend_co)
  );
  assign pend_d = pend_s;
  logic unused_pend_co;
  assign unused_pend_co = pend_co;   // the carry out of the modular sum: not the sign
  // pend = 0 without the adder: a close of the previous cycle ended a packet
  // counted in pend_q, so pend_q + inc - pcls_q = 0 exactly when nothing was
  // pushed for o and pend_q equals the closes. The add-and-compare from the
  // registers into the drain condition and the port FSM was ibsw_p4's worst
  // path (4,166 ps, docs/ibsw.md Status).
  assign pend_zero = pend_hit_i == '0 && pend_q == 16'(pcls_q);

  // Credits (§5.6): returns only in LinkUp; a return to a full counter with
  // no consume is error 14.
  always_comb begin
    ev_stray_o = '0;
    qdepth_o = '0;
    for (int unsigned l = 0; l < LanW; l++) begin
      cred_d[l] = cred_q[l];
      if (cred_init_i) cred_d[l] = cmax(l);
      else begin
        if (consume[l] && !(linkup && in_credit_i[l])) cred_d[l] = cred_q[l] - 1'b1;
        else if (!consume[l] && linkup && in_credit_i[l]) begin
          if (full_cred[l]) ev_stray_o = ev_stray_o + 4'd1;
          else cred_d[l] = cred_q[l] + 1'b1;
        end
      end
      if (l < NumDataVls) qdepth_o = qdepth_o + 32'(cmax(l)) - 32'(cred_q[l]);
    end
  end
  // the flags of cred_d, SA's consume choosing last between the two cases
  always_comb begin
    logic cr, inc;
    for (int unsigned l = 0; l < LanW; l++) begin
      cr  = linkup && in_credit_i[l];
      inc = cr && !fc_q[l];   // a return without a consume counts up (not full)
      hc_d[l] = cred_init_i || (consume[l] ? (cr ? hc_q[l] : cred_q[l] != CW'(1)) : (inc || hc_q[l]));
      fc_d[l] = cred_init_i || (consume[l] ? (cr && fc_q[l]) : (inc ? cred_q[l] == cmax(l) - 1'b1 : fc_q[l]));
    end
  end
  assign drain_idle_o = pend_zero && busy_i == '0 && &full_cred;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned l = 0; l < LanW; l++) cred_q[l] <= cmax(l);
      hc_q <= '1;
      fc_q <= '1;
      pend_q <= '0;
      pcls_q <= '0;
      srr_q <= '0;
      st_valid_q <= 1'b0; st_kind_q <= '0; st_vl_q <= '0; st_data_q <= '0;
      o_valid_q <= 1'b0; o_kind_q <= '0; o_vl_q <= '0; o_data_q <= '0;
    end else begin
      for (int unsigned l = 0; l < LanW; l++) cred_q[l] <= cred_d[l];
      hc_q <= hc_d;
      fc_q <= fc_d;
      pend_q <= pend_d;
      pcls_q <= pcls_d;
      srr_q <= srr_d;
      st_valid_q <= st_valid_d; st_kind_q <= st_kind_d; st_vl_q <= st_vl_d; st_data_q <= st_data_d;
      o_valid_q <= st_valid_q; o_kind_q <= st_kind_q; o_vl_q <= st_vl_q; o_data_q <= st_data_q;
    end
  end
  assign out_valid_o = o_valid_q;
  assign out_kind_o  = o_kind_q;
  assign out_vl_o    = o_vl_q;
  assign out_data_o  = o_data_q;

`ifndef SYNTHESIS
  // §5.4's choice as a scan (the order's first request), for sa_grant_is_scan
  logic [LanW-1:0] scan_gnt;
  always_comb begin
    logic found;
    found = 1'b0;
    scan_gnt = '0;
    if (linkup && slot_i && !drain_now) begin
      if (req[NumDataVls]) scan_gnt[NumDataVls] = 1'b1;
      else if (pstate_i == 3'd4) begin
        for (int unsigned l = 0; l < NumDataVls; l++) begin
          if (!found && req[l] && l >= 32'(srr_q)) begin
            found = 1'b1;
            scan_gnt[l] = 1'b1;
          end
        end
        for (int unsigned l = 0; l < NumDataVls; l++) begin
          if (!found && req[l] && l < 32'(srr_q)) begin
            found = 1'b1;
            scan_gnt[l] = 1'b1;
          end
        end
      end
    end
  end
  logic [LanW-1:0] has_cred_ref, full_cred_ref;   // the flags from the counters
  always_comb begin
    for (int unsigned l = 0; l < LanW; l++) begin
      has_cred_ref[l]  = cred_q[l] != '0;
      full_cred_ref[l] = cred_q[l] == cmax(l);
    end
  end
  logic [5:0] pend_inc;   // Σ pend_hit_i, for the checks
  always_comb begin
    pend_inc = '0;
    for (int unsigned n = 0; n < NIn; n++) pend_inc = pend_inc + 6'(pend_hit_i[n]);
  end
  always_ff @(posedge clk_i) begin
    sa_one_flit: assert (!(linkup && !$onehot0(serve_o)));
    sa_grant_is_scan: assert (gnt == scan_gnt);
    sa_serve_ready: assert ((serve_o & ~ready_i) == '0);
    sa_pend_no_underflow: assert (!(pend_q + 16'(pend_inc) < 16'(pcls_q) + 16'(close_o != '0)));
    sa_pend_q_covers_closes: assert (pend_q >= 16'(pcls_q));
    sa_pend_zero_exact: assert (pend_zero == (pend_q + 16'(pend_inc) == 16'(pcls_q)));
    sa_pend_add: assert (pend_d == pend_q + 16'(pend_inc) - 16'(pcls_q));
    for (int unsigned l = 0; l < LanW; l++) begin
      sa_cred_le_max: assert (cred_q[l] <= cmax(l));
      sa_consume_has_credit: assert (!(consume[l] && cred_q[l] == '0));
    end
    sa_cred_flags_exact: assert (hc_q == has_cred_ref && fc_q == full_cred_ref);
  end
`endif
endmodule
