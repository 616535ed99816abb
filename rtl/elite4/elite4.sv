// elite4: NumPorts-port, NumVcs-VC source-routed wormhole switch.
// Spec: docs/elite4.md.
//
// Per cycle: flits arrive into per-VC input buffers; HEADs at a buffer's
// front are decoded and given output VCs (elite4_vc_alloc); each output
// sends a pending token or one data flit (elite4_switch_alloc); tokens
// coming back free their output VC and, once all are in, go upstream.
// Buses are flat: port p's field at [p*W +: W], (port, VC) bits at p*NumVcs+v.
module elite4 #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumVcs   = 2,
  parameter int unsigned BufDepth = 8,
  parameter int unsigned UpMask   = 32'hF0,   // bit p: port p is an up-link
  localparam int unsigned VcW     = $clog2(NumVcs),
  localparam int unsigned PortW   = $clog2(NumPorts),
  localparam int unsigned NumReq  = NumPorts * NumVcs,
  localparam int unsigned CntW    = $clog2(BufDepth + 1),
  localparam int unsigned EvW     = $clog2(6 * NumVcs + 3)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [NumPorts-1:0]        in_valid_i,
  input  logic [2*NumPorts-1:0]      in_kind_i,
  input  logic [VcW*NumPorts-1:0]    in_vc_i,
  input  logic [32*NumPorts-1:0]     in_data_i,
  input  logic [NumReq-1:0]          in_credit_i,
  output logic [NumPorts-1:0]        out_valid_o,
  output logic [2*NumPorts-1:0]      out_kind_o,
  output logic [VcW*NumPorts-1:0]    out_vc_o,
  output logic [32*NumPorts-1:0]     out_data_o,
  output logic [NumReq-1:0]          out_credit_o,
  output logic [NumReq-1:0]          alloc_o,
  output logic [NumPorts-1:0]        err_o,
  output logic [3*NumPorts-1:0]      err_code_o,
  output logic [32*NumPorts-1:0]     cnt_xmit_flits_o,
  output logic [32*NumPorts-1:0]     cnt_rcv_flits_o,
  output logic [32*NumPorts-1:0]     cnt_xmit_pkts_o,
  output logic [32*NumPorts-1:0]     cnt_rcv_pkts_o,
  output logic [32*NumPorts-1:0]     cnt_xmit_wait_o,
  output logic [32*NumPorts-1:0]     cnt_errors_o,
  output logic [32*NumPorts-1:0]     cnt_crc_errors_o
);

  if (NumPorts < 2 || NumPorts > 16) begin : gen_ports_check
    $error("elite4: NumPorts must be 2..16");
  end
  if (NumVcs != 2 && NumVcs != 4) begin : gen_vcs_check
    $error("elite4: NumVcs must be 2 or 4");
  end
  if (BufDepth < 4 || BufDepth > 64) begin : gen_depth_check
    $error("elite4: BufDepth must be 4..64");
  end

  // input units -> allocators
  logic [NumReq-1:0]          req_valid, req_up, grant, ready, bcast, send;
  logic [NumReq*NumPorts-1:0] req_mask, grant_mask, outs, tok_hit;
  logic [NumReq*2-1:0]        send_kind;
  logic [NumReq*32-1:0]       send_data;
  logic [NumReq-1:0]          tok_ack, tok_done, tok_done_ack, nack;
  logic [NumReq-1:0]          ev_route, ev_nopkt, ev_trunc, ev_crc;
  logic [NumPorts-1:0]        ev_ovf;
  // output units
  logic [NumReq-1:0]          ofree, obusy, tokp, cred_avail, alloc_here, closed;
  logic [NumReq*PortW-1:0]    owner, alloc_owner;
  logic [NumReq*CntW-1:0]     cred;
  logic [NumPorts-1:0]        tok_in, tok_hit_port;
  logic [NumPorts*PortW-1:0]  tok_owner;
  logic [NumPorts-1:0]        ev_stray;
  logic [NumReq-1:0]          ev_tok_ovf, ev_cred_ovf;
  // switch allocation
  logic [NumPorts-1:0]        tok_send, data_send, waiting;
  logic [NumPorts*VcW-1:0]    tok_vc, data_vc;
  logic [NumPorts*2-1:0]      data_kind;
  logic [NumPorts*32-1:0]     data_flit;

  for (genvar p = 0; p < NumPorts; p++) begin : gen_in
    elite4_input_unit #(.NumPorts(NumPorts), .NumVcs(NumVcs), .BufDepth(BufDepth)) u_in (
      .clk_i, .rst_ni,
      .in_valid_i     (in_valid_i[p]),
      .in_kind_i      (in_kind_i[p*2 +: 2]),
      .in_vc_i        (in_vc_i[p*VcW +: VcW]),
      .in_data_i      (in_data_i[p*32 +: 32]),
      .req_valid_o    (req_valid[p*NumVcs +: NumVcs]),
      .req_up_o       (req_up[p*NumVcs +: NumVcs]),
      .req_mask_o     (req_mask[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .grant_i        (grant[p*NumVcs +: NumVcs]),
      .grant_mask_i   (grant_mask[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .ready_o        (ready[p*NumVcs +: NumVcs]),
      .bcast_o        (bcast[p*NumVcs +: NumVcs]),
      .outs_o         (outs[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .send_kind_o    (send_kind[p*NumVcs*2 +: NumVcs*2]),
      .send_data_o    (send_data[p*NumVcs*32 +: NumVcs*32]),
      .send_i         (send[p*NumVcs +: NumVcs]),
      .tok_hit_i      (tok_hit[p*NumVcs*NumPorts +: NumVcs*NumPorts]),
      .tok_ack_i      (tok_ack[p*NumVcs +: NumVcs]),
      .tok_done_o     (tok_done[p*NumVcs +: NumVcs]),
      .tok_done_ack_o (tok_done_ack[p*NumVcs +: NumVcs]),
      .nack_o         (nack[p*NumVcs +: NumVcs]),
      .out_credit_o   (out_credit_o[p*NumVcs +: NumVcs]),
      .ev_route_o     (ev_route[p*NumVcs +: NumVcs]),
      .ev_nopkt_o     (ev_nopkt[p*NumVcs +: NumVcs]),
      .ev_ovf_o       (ev_ovf[p]),
      .ev_trunc_o     (ev_trunc[p*NumVcs +: NumVcs]),
      .ev_crc_o       (ev_crc[p*NumVcs +: NumVcs])
    );
  end

  elite4_vc_alloc #(.NumPorts(NumPorts), .NumVcs(NumVcs), .CntW(CntW), .UpMask(UpMask)) u_vc_alloc (
    .clk_i, .rst_ni,
    .req_valid_i  (req_valid),
    .req_up_i     (req_up),
    .req_mask_i   (req_mask),
    .ofree_i      (ofree),
    .cred_i       (cred),
    .grant_o      (grant),
    .grant_mask_o (grant_mask)
  );

  elite4_switch_alloc #(.NumPorts(NumPorts), .NumVcs(NumVcs)) u_switch_alloc (
    .clk_i, .rst_ni,
    .obusy_i      (obusy),
    .owner_i      (owner),
    .cred_avail_i (cred_avail),
    .tokp_i       (tokp),
    .ready_i      (ready),
    .bcast_i      (bcast),
    .outs_i       (outs),
    .tok_send_o   (tok_send),
    .tok_vc_o     (tok_vc),
    .data_send_o  (data_send),
    .data_vc_o    (data_vc),
    .send_o       (send),
    .waiting_o    (waiting)
  );

  // Crossbar and circuit bookkeeping: what each output gets from whom.
  always_comb begin
    alloc_here = '0; alloc_owner = '0; closed = '0;
    data_kind = '0; data_flit = '0; tok_in = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        for (int unsigned i = 0; i < NumPorts; i++) begin
          if (grant[i*NumVcs+v] && grant_mask[(i*NumVcs+v)*NumPorts + o]) begin
            alloc_here[o*NumVcs+v] = 1'b1;
            alloc_owner[(o*NumVcs+v)*PortW +: PortW] = PortW'(i);
          end
        end
      end
      for (int unsigned i = 0; i < NumPorts; i++) begin
        for (int unsigned v = 0; v < NumVcs; v++) begin
          if (32'(owner[(o*NumVcs+v)*PortW +: PortW]) == i && 32'(data_vc[o*VcW +: VcW]) == v) begin
            data_kind[o*2 +: 2]  = send_kind[(i*NumVcs+v)*2 +: 2];
            data_flit[o*32 +: 32] = send_data[(i*NumVcs+v)*32 +: 32];
          end
        end
      end
      for (int unsigned v = 0; v < NumVcs; v++) begin
        closed[o*NumVcs+v] = data_send[o] && 32'(data_vc[o*VcW +: VcW]) == v &&
                             data_kind[o*2 +: 2] == elite4_pkg::KindTail;
      end
      tok_in[o] = in_valid_i[o] && in_kind_i[o*2 +: 2] == elite4_pkg::KindToken;
    end
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_out
    elite4_output_unit #(.NumPorts(NumPorts), .NumVcs(NumVcs), .BufDepth(BufDepth)) u_out (
      .clk_i, .rst_ni,
      .alloc_i       (alloc_here[p*NumVcs +: NumVcs]),
      .alloc_owner_i (alloc_owner[p*NumVcs*PortW +: NumVcs*PortW]),
      .closed_i      (closed[p*NumVcs +: NumVcs]),
      .tok_in_i      (tok_in[p]),
      .tok_in_vc_i   (in_vc_i[p*VcW +: VcW]),
      .tok_hit_o     (tok_hit_port[p]),
      .tok_owner_o   (tok_owner[p*PortW +: PortW]),
      .tok_set_i     (tok_done[p*NumVcs +: NumVcs] | nack[p*NumVcs +: NumVcs]),
      .tok_set_ack_i (tok_done_ack[p*NumVcs +: NumVcs]),
      .tokp_o        (tokp[p*NumVcs +: NumVcs]),
      .tok_send_i    (tok_send[p]),
      .tok_vc_i      (tok_vc[p*VcW +: VcW]),
      .data_send_i   (data_send[p]),
      .data_vc_i     (data_vc[p*VcW +: VcW]),
      .data_kind_i   (data_kind[p*2 +: 2]),
      .data_i        (data_flit[p*32 +: 32]),
      .ofree_o       (ofree[p*NumVcs +: NumVcs]),
      .obusy_o       (obusy[p*NumVcs +: NumVcs]),
      .owner_o       (owner[p*NumVcs*PortW +: NumVcs*PortW]),
      .cred_o        (cred[p*NumVcs*CntW +: NumVcs*CntW]),
      .cred_avail_o  (cred_avail[p*NumVcs +: NumVcs]),
      .in_credit_i   (in_credit_i[p*NumVcs +: NumVcs]),
      .out_valid_o   (out_valid_o[p]),
      .out_kind_o    (out_kind_o[p*2 +: 2]),
      .out_vc_o      (out_vc_o[p*VcW +: VcW]),
      .out_data_o    (out_data_o[p*32 +: 32]),
      .ev_stray_o    (ev_stray[p]),
      .ev_tok_ovf_o  (ev_tok_ovf[p*NumVcs +: NumVcs]),
      .ev_cred_ovf_o (ev_cred_ovf[p*NumVcs +: NumVcs])
    );
  end

  // Tokens that closed a circuit go to the input VC that owns it; all the
  // tokens of one input VC in a cycle combine (ack only if all ack).
  always_comb begin
    tok_hit = '0;
    tok_ack = '1;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned i = 0; i < NumPorts; i++) begin
        for (int unsigned v = 0; v < NumVcs; v++) begin
          if (tok_hit_port[o] && 32'(tok_owner[o*PortW +: PortW]) == i &&
              32'(in_vc_i[o*VcW +: VcW]) == v) begin
            tok_hit[(i*NumVcs+v)*NumPorts + o] = 1'b1;
            if (!in_data_i[o*32]) tok_ack[i*NumVcs+v] = 1'b0;
          end
        end
      end
    end
  end

  // Counters and error status per port.
  for (genvar p = 0; p < NumPorts; p++) begin : gen_cnt
    logic [EvW-1:0] ev_count, crc_count;
    logic [2:0]     ev_code;
    always_comb begin
      ev_count  = EvW'(ev_ovf[p]) + EvW'(ev_stray[p]);
      crc_count = '0;
      for (int unsigned v = 0; v < NumVcs; v++) begin
        ev_count  = ev_count + EvW'(ev_route[p*NumVcs+v]) + EvW'(ev_nopkt[p*NumVcs+v]) +
                    EvW'(ev_trunc[p*NumVcs+v]) + EvW'(ev_crc[p*NumVcs+v]) +
                    EvW'(ev_tok_ovf[p*NumVcs+v]) + EvW'(ev_cred_ovf[p*NumVcs+v]);
        crc_count = crc_count + EvW'(ev_crc[p*NumVcs+v]);
      end
      // the lowest code present (§6)
      if      (ev_route[p*NumVcs +: NumVcs] != '0)  ev_code = elite4_pkg::ErrRoute;
      else if (ev_nopkt[p*NumVcs +: NumVcs] != '0)  ev_code = elite4_pkg::ErrNoPacket;
      else if (ev_ovf[p])                           ev_code = elite4_pkg::ErrCreditOvf;
      else if (ev_trunc[p*NumVcs +: NumVcs] != '0)  ev_code = elite4_pkg::ErrTruncated;
      else if (ev_stray[p])                         ev_code = elite4_pkg::ErrStrayTok;
      else if ((ev_tok_ovf[p*NumVcs +: NumVcs] | ev_cred_ovf[p*NumVcs +: NumVcs]) != '0)
                                                    ev_code = elite4_pkg::ErrOverflow;
      else if (ev_crc[p*NumVcs +: NumVcs] != '0)    ev_code = elite4_pkg::ErrCrc;
      else                                          ev_code = 3'd0;
    end

    elite4_counters #(.EvW(EvW)) u_cnt (
      .clk_i, .rst_ni,
      .xmit_i       (tok_send[p] || data_send[p]),
      .xmit_pkt_i   (data_send[p] && data_kind[p*2 +: 2] == elite4_pkg::KindTail),
      .rcv_i        (in_valid_i[p]),
      .rcv_pkt_i    (in_valid_i[p] && in_kind_i[p*2 +: 2] == elite4_pkg::KindTail),
      .wait_i       (waiting[p]),
      .ev_count_i   (ev_count),
      .ev_code_i    (ev_code),
      .crc_errs_i   (crc_count),
      .xmit_flits_o (cnt_xmit_flits_o[p*32 +: 32]),
      .rcv_flits_o  (cnt_rcv_flits_o[p*32 +: 32]),
      .xmit_pkts_o  (cnt_xmit_pkts_o[p*32 +: 32]),
      .rcv_pkts_o   (cnt_rcv_pkts_o[p*32 +: 32]),
      .xmit_wait_o  (cnt_xmit_wait_o[p*32 +: 32]),
      .errors_o     (cnt_errors_o[p*32 +: 32]),
      .crc_errors_o (cnt_crc_errors_o[p*32 +: 32]),
      .err_o        (err_o[p]),
      .err_code_o   (err_code_o[p*3 +: 3])
    );
  end

  // alloc_o: a registered copy of this cycle's grants (for latency breakdowns).
  logic [NumReq-1:0] alloc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) alloc_q <= '0;
    else         alloc_q <= grant;
  end
  assign alloc_o = alloc_q;

endmodule
