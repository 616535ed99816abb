// One output port of elite4: the state of its output VCs (FREE, BUSY until
// the tail leaves, TOKWAIT until the token passes back), its credits toward
// the downstream buffers, the tokens owed upstream on this port, and the
// link's output registers. Spec: docs/elite4.md §5.2, §5.5-5.7.
module elite4_output_unit #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumVcs   = 2,
  parameter int unsigned BufDepth = 8,
  localparam int unsigned VcW     = $clog2(NumVcs),
  localparam int unsigned PortW   = $clog2(NumPorts),
  localparam int unsigned CntW    = $clog2(BufDepth + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // allocation and circuit closing
  input  logic [NumVcs-1:0]        alloc_i,        // (this port, v) granted ...
  input  logic [NumVcs*PortW-1:0]  alloc_owner_i,  // ... to this input port
  input  logic [NumVcs-1:0]        closed_i,       // a TAIL left on (this port, v)
  // a token arriving on this port, for the packet that left through it
  input  logic                     tok_in_i,
  input  logic [VcW-1:0]           tok_in_vc_i,
  output logic                     tok_hit_o,      // it closes a circuit ...
  output logic [PortW-1:0]         tok_owner_o,    // ... owned by this input port
  // tokens owed upstream on this port (from this port's input unit)
  input  logic [NumVcs-1:0]        tok_set_i,
  input  logic [NumVcs-1:0]        tok_set_ack_i,
  output logic [NumVcs-1:0]        tokp_o,
  // switch allocation's decision for this port
  input  logic                     tok_send_i,
  input  logic [VcW-1:0]           tok_vc_i,
  input  logic                     data_send_i,
  input  logic [VcW-1:0]           data_vc_i,
  input  logic [1:0]               data_kind_i,
  input  logic [31:0]              data_i,
  // state for allocation
  output logic [NumVcs-1:0]        ofree_o,
  output logic [NumVcs-1:0]        obusy_o,
  output logic [NumVcs*PortW-1:0]  owner_o,
  output logic [NumVcs*CntW-1:0]   cred_o,
  output logic [NumVcs-1:0]        cred_avail_o,
  // credits from the downstream neighbour
  input  logic [NumVcs-1:0]        in_credit_i,
  // the link
  output logic                     out_valid_o,
  output logic [1:0]               out_kind_o,
  output logic [VcW-1:0]           out_vc_o,
  output logic [31:0]              out_data_o,
  // error events of this cycle
  output logic                     ev_stray_o,
  output logic [NumVcs-1:0]        ev_tok_ovf_o,
  output logic [NumVcs-1:0]        ev_cred_ovf_o
);

  logic [NumVcs*2-1:0]     ost_q, ost_d;
  logic [NumVcs*PortW-1:0] owner_q, owner_d;
  logic [NumVcs-1:0]       early_q, early_d;  // token already back, TAIL not yet gone
  logic [NumVcs-1:0]       tokp_q, tokp_d, tokack_q, tokack_d;
  logic                    valid_q, valid_d;
  logic [1:0]              kind_q, kind_d;
  logic [VcW-1:0]          vc_q, vc_d;
  logic [31:0]             data_q, data_d;

  logic [NumVcs-1:0] unused_udf, unused_ovf;
  logic              unused_bad_vc;

  common_credit_counter #(.NumVcs(NumVcs), .MaxCredits(BufDepth)) u_credits (
    .clk_i,
    .rst_ni,
    .init_i       (1'b0),
    .consume_i    (data_send_i),
    .consume_vc_i (data_vc_i),
    .return_i     (in_credit_i),
    .credits_o    (cred_o),
    .avail_o      (cred_avail_o),
    .underflow_o  (unused_udf),   // a flit is only sent with a credit
    .overflow_o   (unused_ovf),   // reported in the cycle itself, below
    .bad_vc_o     (unused_bad_vc) // NumVcs is a power of two: every VC number exists
  );

  always_comb begin
    ost_d = ost_q; owner_d = owner_q; early_d = early_q; tokp_d = tokp_q; tokack_d = tokack_q;
    tok_hit_o = 1'b0; ev_stray_o = 1'b0; ev_tok_ovf_o = '0; ev_cred_ovf_o = '0;
    tok_owner_o = '0;

    for (int unsigned v = 0; v < NumVcs; v++) begin
      ofree_o[v] = (ost_q[v*2 +: 2] == elite4_pkg::OutFree);
      obusy_o[v] = (ost_q[v*2 +: 2] == elite4_pkg::OutBusy);
      if (alloc_i[v]) begin
        ost_d[v*2 +: 2] = elite4_pkg::OutBusy;
        owner_d[v*PortW +: PortW] = alloc_owner_i[v*PortW +: PortW];
        early_d[v] = 1'b0;
      end
      // a credit return that finds the counter full and no consume to cancel it
      ev_cred_ovf_o[v] = in_credit_i[v] && cred_o[v*CntW +: CntW] == CntW'(BufDepth) &&
                         !(data_send_i && 32'(data_vc_i) == v);
    end

    // A token frees its circuit; one that comes back while the packet is
    // still leaving (a switch further on nacked its HEAD) is remembered, and
    // the circuit frees when the TAIL has gone.
    if (tok_in_i) begin
      if (ost_q[32'(tok_in_vc_i)*2 +: 2] == elite4_pkg::OutTokWait) begin
        tok_hit_o   = 1'b1;
        tok_owner_o = owner_q[32'(tok_in_vc_i)*PortW +: PortW];
        ost_d[32'(tok_in_vc_i)*2 +: 2] = elite4_pkg::OutFree;
      end else if (ost_q[32'(tok_in_vc_i)*2 +: 2] == elite4_pkg::OutBusy && !early_q[tok_in_vc_i]) begin
        tok_hit_o   = 1'b1;
        tok_owner_o = owner_q[32'(tok_in_vc_i)*PortW +: PortW];
        early_d[tok_in_vc_i] = 1'b1;
      end else begin
        ev_stray_o = 1'b1;
      end
    end
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (closed_i[v]) begin
        ost_d[v*2 +: 2] = early_d[v] ? elite4_pkg::OutFree : elite4_pkg::OutTokWait;
        early_d[v] = 1'b0;
      end
    end

    if (tok_send_i) tokp_d[tok_vc_i] = 1'b0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (tok_set_i[v]) begin
        if (tokp_q[v] && !(tok_send_i && 32'(tok_vc_i) == v)) begin
          ev_tok_ovf_o[v] = 1'b1;   // one still owed: the new one is lost
        end else begin
          tokp_d[v]   = 1'b1;
          tokack_d[v] = tok_set_ack_i[v];
        end
      end
    end

    valid_d = 1'b0; kind_d = '0; vc_d = '0; data_d = '0;
    if (tok_send_i) begin
      valid_d = 1'b1;
      kind_d  = elite4_pkg::KindToken;
      vc_d    = tok_vc_i;
      data_d  = {31'b0, tokack_q[tok_vc_i]};
    end else if (data_send_i) begin
      valid_d = 1'b1;
      kind_d  = data_kind_i;
      vc_d    = data_vc_i;
      data_d  = data_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ost_q <= '0; owner_q <= '0; early_q <= '0; tokp_q <= '0; tokack_q <= '0;
      valid_q <= 1'b0; kind_q <= '0; vc_q <= '0; data_q <= '0;
    end else begin
      ost_q <= ost_d; owner_q <= owner_d; early_q <= early_d; tokp_q <= tokp_d; tokack_q <= tokack_d;
      valid_q <= valid_d; kind_q <= kind_d; vc_q <= vc_d; data_q <= data_d;
    end
  end

  assign owner_o     = owner_q;
  assign tokp_o      = tokp_q;
  assign out_valid_o = valid_q;
  assign out_kind_o  = kind_q;
  assign out_vc_o    = vc_q;
  assign out_data_o  = data_q;

  // Assertions (docs/elite4.md "Assertions"; proved by `make formal`,
  // docs/formal.md). Not synthesized.
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
