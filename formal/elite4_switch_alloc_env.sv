// Proof environment of elite4_switch_alloc (formal/proofs, docs/formal.md):
// the allocator with the one input relation the switch (elite4.sv) keeps and
// its assertions rely on. Read by `make formal` only (FORMAL), never by a
// simulation or synthesis.
//
// The relation: a busy output VC (o, v) belongs to an input VC (owner, v)
// whose circuit goes through o, i.e. outs_i of that input VC has bit o. The
// output unit is busy (OutBusy) only while the owner's packet is being
// forwarded, and the owner's circuit is that packet's route. Without it abc
// refutes sa_data_has_credit at once: an owner whose circuit does not include
// o is sent on o without o's credit being looked at (all_cred checks only
// the circuit's outputs).
module elite4_switch_alloc_env #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumVcs   = 2,
  localparam int unsigned NumReq  = NumPorts * NumVcs,
  localparam int unsigned VcW     = $clog2(NumVcs),
  localparam int unsigned PortW   = $clog2(NumPorts)
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic [NumPorts*NumVcs-1:0]       obusy_i,
  input  logic [NumPorts*NumVcs*PortW-1:0] owner_i,
  input  logic [NumPorts*NumVcs-1:0]       cred_avail_i,
  input  logic [NumPorts*NumVcs-1:0]       tokp_i,
  input  logic [NumReq-1:0]                ready_i,
  input  logic [NumReq-1:0]                bcast_i,
  input  logic [NumReq*NumPorts-1:0]       outs_i,
  output logic [NumPorts-1:0]              tok_send_o,
  output logic [NumPorts*VcW-1:0]          tok_vc_o,
  output logic [NumPorts-1:0]              data_send_o,
  output logic [NumPorts*VcW-1:0]          data_vc_o,
  output logic [NumReq-1:0]                send_o,
  output logic [NumPorts-1:0]              waiting_o
);

  elite4_switch_alloc #(.NumPorts(NumPorts), .NumVcs(NumVcs)) u_sa (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .obusy_i      (obusy_i),
    .owner_i      (owner_i),
    .cred_avail_i (cred_avail_i),
    .tokp_i       (tokp_i),
    .ready_i      (ready_i),
    .bcast_i      (bcast_i),
    .outs_i       (outs_i),
    .tok_send_o   (tok_send_o),
    .tok_vc_o     (tok_vc_o),
    .data_send_o  (data_send_o),
    .data_vc_o    (data_vc_o),
    .send_o       (send_o),
    .waiting_o    (waiting_o)
  );

`ifdef FORMAL
  logic [PortW-1:0] env_own;
  logic             env_ok;
  always_comb begin
    env_own = '0;
    env_ok  = 1'b1;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        env_own = owner_i[(o*NumVcs+v)*PortW +: PortW];
        if (obusy_i[o*NumVcs+v] && !outs_i[(32'(env_own)*NumVcs + v)*NumPorts + o]) env_ok = 1'b0;
      end
    end
  end
  always_comb begin
    sa_env_busy_owner_routed: assume (env_ok);
  end
`endif

endmodule
