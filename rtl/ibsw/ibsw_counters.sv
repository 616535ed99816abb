// ibsw_counters: one port's PortCounters, PortCountersExtended and error
// outputs (docs/ibsw.md §8.1, §10). The events of cycle c are registered at
// its end and added at the end of c+1, so counters and err_o show them in
// c+2; a clear of cycle e has priority (0 at e+1; events of e count).
module ibsw_counters #(
  parameter int unsigned CntW = 32,
  parameter int unsigned ExtW = 64,
  localparam int unsigned C16 = (CntW < 16) ? CntW : 16,
  localparam int unsigned C8  = (CntW < 8) ? CntW : 8
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            ev_xflit_i,   // XmitData +2
  input  logic            ev_rflit_i,   // RcvData +2
  input  logic            ev_xpkt_i,
  input  logic            ev_rpkt_i,
  input  logic            ev_wait_i,
  input  logic [15:1]     err_i,        // error codes of this cycle at this port
  input  logic [3:0]      n_stray_i,    // error 14 events (one per lane)
  input  logic [3:0]      n_discard_i,  // error 15 events (one per packet)
  input  logic [10:0]     clr_i,        // PortCounters fields, order of the outputs below
  input  logic [3:0]      clr_ext_i,
  output logic [CntW-1:0] xmit_data_o,
  output logic [CntW-1:0] rcv_data_o,
  output logic [CntW-1:0] xmit_pkts_o,
  output logic [CntW-1:0] rcv_pkts_o,
  output logic [CntW-1:0] xmit_wait_o,
  output logic [C16-1:0]  symbol_err_o,
  output logic [C16-1:0]  rcv_err_o,
  output logic [C16-1:0]  relay_err_o,
  output logic [C16-1:0]  xmit_discards_o,
  output logic [C16-1:0]  vl15_dropped_o,
  output logic [C8-1:0]   link_downed_o,
  output logic [ExtW-1:0] ext_xmit_data_o,
  output logic [ExtW-1:0] ext_rcv_data_o,
  output logic [ExtW-1:0] ext_xmit_pkts_o,
  output logic [ExtW-1:0] ext_rcv_pkts_o,
  output logic            err_o,
  output logic [3:0]      err_code_o
);
  if (CntW < 8 || CntW > 32) begin : gen_cntw_check
    $error("ibsw_counters: CntW must be 8..32");
  end
  if (ExtW < 16 || ExtW < CntW || ExtW > 64) begin : gen_extw_check
    $error("ibsw_counters: ExtW must be max(16, CntW)..64");
  end

  // increments of the 11 + 4 counters: XmitData, RcvData, XmitPkts, RcvPkts,
  // XmitWait, SymbolErrors, RcvErrors, RelayErrors, XmitDiscards, VL15Dropped, LinkDowned
  logic [3:0]  inc_q [11];   // this cycle's increments (of last cycle's events)
  logic [4:0]  ev_q;          // last cycle's flit, packet and wait events
  logic [15:1] errv_q;
  logic [3:0]  nstray_q, ndisc_q;
  logic [CntW-1:0] c_q [11];
  logic [ExtW-1:0] x_q [4];
  logic            eo_q;
  logic [3:0]      ec_q;

  function automatic int unsigned width_of(input int unsigned k);
    width_of = (k < 5) ? CntW : (k == 10) ? C8 : C16;
  endfunction

  // The events of cycle c are registered as they come (ev_q, errv_q and the
  // two counts) and summed into increments in c+1, in front of the adders:
  // the sums after the error bits (which wait for the space check after SA's
  // pop) were 4.21 ns in ibsw_p8_w24 (docs/ibsw.md Status) *(ours)*. The
  // increments equal the sums once registered in c (cn_inc_exact).
  // {inc[10], ..., inc[0]}, 4 bits each
  function automatic logic [43:0] incs(input logic [4:0] e, input logic [13:1] er, input logic [3:0] ns,
                                       input logic [3:0] nd);
    incs[3:0]   = e[0] ? 4'd2 : 4'd0;
    incs[7:4]   = e[1] ? 4'd2 : 4'd0;
    incs[11:8]  = 4'(e[2]);
    incs[15:12] = 4'(e[3]);
    incs[19:16] = 4'(e[4]);
    incs[23:20] = 4'(er[10]) + 4'(er[12]) + ns;
    incs[27:24] = 4'(er[5]) + 4'(er[6]) + 4'(er[7]) + 4'(er[8]) + 4'(er[11]);
    incs[31:28] = 4'(er[1]) + 4'(er[2]) + 4'(er[3]) + 4'(er[4]);
    incs[35:32] = nd;
    incs[39:36] = 4'(er[9]);
    incs[43:40] = 4'(er[13]);
  endfunction
  logic [43:0] incv;
  assign incv = incs(ev_q, errv_q[13:1], nstray_q, ndisc_q);
  for (genvar k = 0; k < 11; k++) begin : gen_inc
    assign inc_q[k] = incv[4*k +: 4];
  end

  // count + inc on Kogge-Stone trees (cp's cp_ks_add): `+` maps to a
  // near-ripple chain in the osu018 flow (docs/timing.md); saturate on the
  // carry out of the counter's own width.
  logic [CntW-1:0] c_s [11];
  logic [10:0]     c_co;
  logic [ExtW-1:0] x_s [4];
  logic [3:0]      x_co;
  for (genvar k = 0; k < 11; k++) begin : gen_cadd
    localparam int unsigned Wk = (k < 5) ? CntW : (k == 10) ? C8 : C16;
    logic [Wk-1:0] s;
    cp_ks_add #(.W(Wk), .Keep(1)) u_add (
      .a_i(c_q[k][Wk-1:0]), .b_i(Wk'(inc_q[k])), .ci_i(1'b0), .s_o(s), .co_o(c_co[k])
    );
    assign c_s[k] = CntW'(s);
  end
  for (genvar k = 0; k < 4; k++) begin : gen_xadd
    cp_ks_add #(.W(ExtW), .Keep(1)) u_add (
      .a_i(x_q[k]), .b_i(ExtW'(inc_q[k])), .ci_i(1'b0), .s_o(x_s[k]), .co_o(x_co[k])
    );
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned k = 0; k < 11; k++) begin
        c_q[k]   <= '0;
      end
      for (int unsigned k = 0; k < 4; k++) x_q[k] <= '0;
      errv_q <= '0;
      ev_q   <= '0;
      nstray_q <= '0;
      ndisc_q  <= '0;
      eo_q   <= 1'b0;
      ec_q   <= '0;
    end else begin
      for (int unsigned k = 0; k < 11; k++) begin
        if (clr_i[k]) c_q[k] <= '0;
        else if (c_co[k]) c_q[k] <= CntW'((65'd1 << width_of(k)) - 65'd1);
        else c_q[k] <= c_s[k];
      end
      for (int unsigned k = 0; k < 4; k++) begin
        if (clr_ext_i[k]) x_q[k] <= '0;
        else if (x_co[k]) x_q[k] <= '1;
        else x_q[k] <= x_s[k];
      end
      errv_q <= err_i;
      ev_q   <= {ev_wait_i, ev_rpkt_i, ev_xpkt_i, ev_rflit_i, ev_xflit_i};
      nstray_q <= n_stray_i;
      ndisc_q  <= n_discard_i;
      eo_q   <= errv_q != '0;
      if (errv_q != '0) begin
        for (int k = 15; k >= 1; k--) if (errv_q[k]) ec_q <= 4'(k);
      end
    end
  end

  assign xmit_data_o     = c_q[0];
  assign rcv_data_o      = c_q[1];
  assign xmit_pkts_o     = c_q[2];
  assign rcv_pkts_o      = c_q[3];
  assign xmit_wait_o     = c_q[4];
  assign symbol_err_o    = C16'(c_q[5]);
  assign rcv_err_o       = C16'(c_q[6]);
  assign relay_err_o     = C16'(c_q[7]);
  assign xmit_discards_o = C16'(c_q[8]);
  assign vl15_dropped_o  = C16'(c_q[9]);
  assign link_downed_o   = C8'(c_q[10]);
  assign ext_xmit_data_o = x_q[0];
  assign ext_rcv_data_o  = x_q[1];
  assign ext_xmit_pkts_o = x_q[2];
  assign ext_rcv_pkts_o  = x_q[3];
  assign err_o           = eo_q;
  assign err_code_o      = ec_q;

`ifndef SYNTHESIS
  // last cycle's increments as they were once registered (0 at reset, as ev_q
  // and the others): the sums from the registered events must equal them
  logic [43:0] inc_p;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) inc_p <= '0;
    else inc_p <= incs({ev_wait_i, ev_rpkt_i, ev_xpkt_i, ev_rflit_i, ev_xflit_i}, err_i[13:1], n_stray_i, n_discard_i);
  end
  always_ff @(posedge clk_i) begin
    cn_inc_exact: assert (incv == inc_p);
    for (int unsigned k = 0; k < 11; k++) begin
      cn_within_width: assert (64'(c_q[k]) < (64'd1 << width_of(k)));
    end
  end
`endif
endmodule
