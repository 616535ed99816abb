// One output port of elite4: the state of its output VCs (FREE, BUSY until
// the TAIL leaves, TOKWAIT until the token passes back) with their owners and
// early-token flags, the token input register and the T1 token rules, the
// tokens owed upstream on this port, and the credits toward the downstream
// buffers. Spec: docs/elite4.md §5.3, §5.4 (grants), §5.5 (TAILs), §5.7.
//
// Per-VC owners are one-hot over the inputs: [v*NumPorts + i].
module elite4_output_unit #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumVcs   = 2,
  parameter int unsigned BufDepth = 8,
  localparam int unsigned VcW     = $clog2(NumVcs),
  localparam int unsigned CntW    = $clog2(BufDepth + 1)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // ARRIVE: a token arriving on this port (for a packet that left through it)
  input  logic                       in_valid_i,
  input  logic [1:0]                 in_kind_i,
  input  logic [VcW-1:0]             in_vc_i,
  input  logic                       in_ack_i,
  // VA: (this port, v) granted to an input
  input  logic [NumVcs-1:0]          take_i,
  input  logic [NumVcs*NumPorts-1:0] take_owner_i,
  input  logic [NumVcs-1:0]          take_bcast_i,  // ... for a broadcast ...
  input  logic [NumVcs*NumPorts-1:0] take_outs_i,   // ... whose outputs are these
  // SA: a TAIL (real or synthetic) leaves on (this port, v); a data flit's credit
  input  logic [NumVcs-1:0]          tail_sent_i,
  input  logic                       data_send_i,
  input  logic [VcW-1:0]             data_vc_i,
  input  logic [NumVcs-1:0]          consume_i,     // the same, one bit per VC
  // tokens owed upstream on this port (set by this port's input unit; SA sends them)
  input  logic [NumVcs-1:0]          tok_set_i,
  input  logic [NumVcs-1:0]          tok_set_ack_i,
  input  logic                       tok_send_i,
  input  logic [VcW-1:0]             tok_vc_i,
  output logic [NumVcs-1:0]          tokp_o,
  output logic [NumVcs-1:0]          tokack_o,
  // state for the allocators
  output logic [NumVcs-1:0]          free_o,
  output logic [NumVcs-1:0]          busy_o,
  output logic [NumVcs*NumPorts-1:0] owner_o,
  output logic [NumVcs-1:0]          obcast_o,      // the circuit is a broadcast
  output logic [NumVcs*NumPorts-1:0] oouts_o,       // all the outputs of the circuit
  output logic [NumVcs-1:0]          cred_avail_o,
  output logic [NumVcs-1:0]          cred_empty_o,  // all BufDepth credits: downstream buffer empty
  output logic [NumVcs-1:0]          cred_two_o,    // at least 2 credits
  // T1: the token of this cycle counts for (this port, v) of owner_o
  output logic [NumVcs-1:0]          tok_hit_o,
  output logic                       tok_ack_o,
  // credits from the downstream neighbour
  input  logic [NumVcs-1:0]          in_credit_i,
  // error events of this cycle
  output logic                       ev_stray_o,
  output logic [NumVcs-1:0]          ev_tok_ovf_o,
  output logic [NumVcs-1:0]          ev_cred_ovf_o
);

  logic [NumVcs*2-1:0]        ost_q, ost_d;
  logic [NumVcs*NumPorts-1:0] owner_q, owner_d;
  // copies of the owner's bcast and outs (fixed while the circuit lives), so
  // SA's broadcast agreement needs no multiplexer by owner
  logic [NumVcs-1:0]          obc_q, obc_d;
  logic [NumVcs*NumPorts-1:0] oouts_q, oouts_d;
  logic [NumVcs-1:0]          early_q, early_d;   // token already back, TAIL not yet gone
  logic [NumVcs-1:0]          tokp_q, tokp_d, tokack_q, tokack_d;
  logic                       tin_v_q, tin_a_q;
  logic [VcW-1:0]             tin_vc_q;
  logic [NumVcs*CntW-1:0]     cred;

  logic [NumVcs-1:0] unused_udf, unused_ovf;
  logic              unused_bad_vc;

  common_credit_counter #(.NumVcs(NumVcs), .MaxCredits(BufDepth)) u_credits (
    .clk_i, .rst_ni,
    .init_i       (1'b0),
    .consume_i    (data_send_i),
    .consume_vc_i (data_vc_i),
    .return_i     (in_credit_i),
    .credits_o    (cred),
    .avail_o      (cred_avail_o),
    .underflow_o  (unused_udf),    // a flit is only sent with a credit
    .overflow_o   (unused_ovf),    // reported in the cycle itself, below
    .bad_vc_o     (unused_bad_vc)  // NumVcs is a power of two: every VC number exists
  );

  always_comb begin
    ost_d = ost_q; owner_d = owner_q; early_d = early_q; obc_d = obc_q; oouts_d = oouts_q;
    tokp_d = tokp_q; tokack_d = tokack_q;
    tok_hit_o = '0; ev_stray_o = 1'b0; ev_tok_ovf_o = '0; ev_cred_ovf_o = '0;
    tok_ack_o = tin_a_q;

    for (int unsigned v = 0; v < NumVcs; v++) begin
      free_o[v] = ost_q[v*2 +: 2] == elite4_pkg::OutFree;
      busy_o[v] = ost_q[v*2 +: 2] == elite4_pkg::OutBusy;
      cred_empty_o[v] = cred[v*CntW +: CntW] == CntW'(BufDepth);
      cred_two_o[v]   = cred[v*CntW +: CntW] >= CntW'(2);
      // VA: only a FREE output VC is taken
      if (take_i[v]) begin
        ost_d[v*2 +: 2] = elite4_pkg::OutBusy;
        owner_d[v*NumPorts +: NumPorts] = take_owner_i[v*NumPorts +: NumPorts];
        obc_d[v] = take_bcast_i[v];
        oouts_d[v*NumPorts +: NumPorts] = take_outs_i[v*NumPorts +: NumPorts];
        early_d[v] = 1'b0;
      end
      // T1: the token that arrived last cycle
      if (tin_v_q && 32'(tin_vc_q) == v) begin
        if (ost_q[v*2 +: 2] == elite4_pkg::OutTokWait) begin
          tok_hit_o[v] = 1'b1;
          ost_d[v*2 +: 2] = elite4_pkg::OutFree;
        end else if (ost_q[v*2 +: 2] == elite4_pkg::OutBusy && !early_q[v]) begin
          tok_hit_o[v] = 1'b1;            // early: the circuit frees when the TAIL has gone
          early_d[v] = 1'b1;
        end else begin
          ev_stray_o = 1'b1;
        end
      end
      // SA: the TAIL leaves
      if (tail_sent_i[v]) begin
        ost_d[v*2 +: 2] = early_d[v] ? elite4_pkg::OutFree : elite4_pkg::OutTokWait;
        early_d[v] = 1'b0;
      end
      // a credit return that finds the counter full and no consume to cancel it
      ev_cred_ovf_o[v] = in_credit_i[v] && cred_empty_o[v] && !consume_i[v];
    end

    // tokens owed upstream: SA sends the lowest pending one; a new one while
    // one is still owed (and not sent now) is lost
    if (tok_send_i) tokp_d[tok_vc_i] = 1'b0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (tok_set_i[v]) begin
        if (tokp_q[v] && !(tok_send_i && 32'(tok_vc_i) == v)) begin
          ev_tok_ovf_o[v] = 1'b1;
        end else begin
          tokp_d[v]   = 1'b1;
          tokack_d[v] = tok_set_ack_i[v];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ost_q <= '0; owner_q <= '0; early_q <= '0; tokp_q <= '0; tokack_q <= '0;
      obc_q <= '0; oouts_q <= '0;
      tin_v_q <= 1'b0; tin_vc_q <= '0; tin_a_q <= 1'b0;
    end else begin
      ost_q <= ost_d; owner_q <= owner_d; early_q <= early_d; tokp_q <= tokp_d; tokack_q <= tokack_d;
      obc_q <= obc_d; oouts_q <= oouts_d;
      // ARRIVE: a token is processed in the next cycle (T1)
      tin_v_q  <= in_valid_i && in_kind_i == elite4_pkg::KindToken;
      tin_vc_q <= (in_valid_i && in_kind_i == elite4_pkg::KindToken) ? in_vc_i : '0;
      tin_a_q  <= in_valid_i && in_kind_i == elite4_pkg::KindToken && in_ack_i;
    end
  end

  assign owner_o  = owner_q;
  assign obcast_o = obc_q;
  assign oouts_o  = oouts_q;
  assign tokp_o   = tokp_q;
  assign tokack_o = tokack_q;

  // Assertions (docs/elite4.md "Assertions"; proved by `make formal`).
`ifndef SYNTHESIS
  logic [NumVcs-1:0] a_ost_bad, a_early_bad;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      a_ost_bad[v]   = ost_q[v*2 +: 2] == 2'd3;   // no fourth state
      // an early token is only remembered while the circuit is busy
      a_early_bad[v] = early_q[v] && ost_q[v*2 +: 2] != elite4_pkg::OutBusy;
    end
  end
  always_ff @(posedge clk_i) begin
    ou_state_legal: assert (a_ost_bad == '0);
    ou_early_only_busy: assert (a_early_bad == '0);
  end
`endif

endmodule
