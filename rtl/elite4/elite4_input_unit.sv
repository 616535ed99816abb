// One input port of elite4: a buffer per VC, route decode, and the per-VC
// packet state (IDLE, ACTIVE, DROP, WAIT_TOKEN). Spec: docs/elite4.md §5.1-5.5.
//
// Per-VC buses are flat: VC v's field at [v*W +: W].
module elite4_input_unit #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumVcs   = 2,
  parameter int unsigned BufDepth = 8,
  localparam int unsigned VcW     = $clog2(NumVcs)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // the link: a flit arriving on this port
  input  logic                       in_valid_i,
  input  logic [1:0]                 in_kind_i,
  input  logic [VcW-1:0]             in_vc_i,
  input  logic [31:0]                in_data_i,
  // requests to output allocation (IDLE with a legal HEAD at the front)
  output logic [NumVcs-1:0]          req_valid_o,
  output logic [NumVcs-1:0]          req_up_o,
  output logic [NumVcs*NumPorts-1:0] req_mask_o,
  input  logic [NumVcs-1:0]          grant_i,
  input  logic [NumVcs*NumPorts-1:0] grant_mask_i,
  // what switch allocation needs, and its decision
  output logic [NumVcs-1:0]          ready_o,      // ACTIVE with a flit at the front
  output logic [NumVcs-1:0]          bcast_o,
  output logic [NumVcs*NumPorts-1:0] outs_o,
  output logic [NumVcs*2-1:0]        send_kind_o,  // the flit this VC would send
  output logic [NumVcs*32-1:0]       send_data_o,
  input  logic [NumVcs-1:0]          send_i,       // ... and it goes out this cycle
  // tokens coming back for this port's packets
  input  logic [NumVcs*NumPorts-1:0] tok_hit_i,    // ports whose token arrived this cycle
  input  logic [NumVcs-1:0]          tok_ack_i,    // AND of those tokens' ack bits
  output logic [NumVcs-1:0]          tok_done_o,   // all tokens in: one goes upstream
  output logic [NumVcs-1:0]          tok_done_ack_o,
  output logic [NumVcs-1:0]          nack_o,       // illegal route: a nack goes upstream
  // credits to the upstream neighbour
  output logic [NumVcs-1:0]          out_credit_o,
  // error events of this cycle (§6)
  output logic [NumVcs-1:0]          ev_route_o,
  output logic [NumVcs-1:0]          ev_nopkt_o,
  output logic                       ev_ovf_o,
  output logic [NumVcs-1:0]          ev_trunc_o,
  output logic [NumVcs-1:0]          ev_crc_o
);

  logic [NumVcs*2-1:0]        ist_q, ist_d;
  logic [NumVcs*NumPorts-1:0] outs_q, outs_d, pend_q, pend_d;
  logic [NumVcs-1:0]          bcast_q, bcast_d, hsent_q, hsent_d, ack_q, ack_d;
  logic [NumVcs-1:0]          credit_q;

  logic [NumVcs-1:0]          push, pop, empty, full;
  logic [NumVcs*34-1:0]       front;
  logic [NumVcs-1:0]          legal, up, bc;
  logic [NumVcs*NumPorts-1:0] mask;
  logic [NumVcs*32-1:0]       stripped;
  logic [NumVcs*32-1:0]       crc;
  logic [NumVcs-1:0]          crc_feed;

  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    logic unused_count;
    logic unused_ovf, unused_udf, unused_keep_err;
    logic [$clog2(BufDepth+1)-1:0] count;

    common_fifo #(.Width(34), .Depth(BufDepth)) u_buf (
      .clk_i,
      .rst_ni,
      .push_i      (push[v]),
      .push_data_i ({in_kind_i, in_data_i}),
      .pop_i       (pop[v]),
      .pop_data_o  (front[v*34 +: 34]),
      .full_o      (full[v]),
      .empty_o     (empty[v]),
      .count_o     (count),
      .overflow_o  (unused_ovf),   // reported in the cycle itself, below
      .underflow_o (unused_udf)    // pops only happen with a front
    );
    assign unused_count = ^count;

    elite4_route_decode #(.NumPorts(NumPorts)) u_decode (
      .route_i    (front[v*34 +: 32]),
      .legal_o    (legal[v]),
      .up_o       (up[v]),
      .bcast_o    (bc[v]),
      .mask_o     (mask[v*NumPorts +: NumPorts]),
      .stripped_o (stripped[v*32 +: 32])
    );

    // The body CRC of the packet in flight: reset at allocation, fed with
    // every BODY word sent; crc_o is already the final inverted value.
    common_crc32 u_crc (
      .clk_i,
      .rst_ni,
      .init_i     (grant_i[v]),
      .valid_i    (crc_feed[v]),
      .data_i     (front[v*34 +: 32]),
      .keep_i     (4'hF),
      .crc_o      (crc[v*32 +: 32]),
      .keep_err_o (unused_keep_err)
    );
  end

  // What each VC asks for and would send: a function of the registered
  // state and the buffer fronts only (allocation answers it below).
  always_comb begin
    req_valid_o = '0; req_up_o = '0; req_mask_o = '0;
    ready_o = '0; send_kind_o = '0; send_data_o = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic [1:0] kind;
      kind = front[v*34+32 +: 2];
      if (ist_q[v*2 +: 2] == elite4_pkg::InIdle && !empty[v] && kind == elite4_pkg::KindHead &&
          legal[v]) begin
        req_valid_o[v] = 1'b1;
        req_up_o[v]    = up[v];
        req_mask_o[v*NumPorts +: NumPorts] = mask[v*NumPorts +: NumPorts];
      end
      if (ist_q[v*2 +: 2] == elite4_pkg::InActive) begin
        ready_o[v] = !empty[v];
        if (kind == elite4_pkg::KindHead && !hsent_q[v]) begin
          send_kind_o[v*2 +: 2]   = elite4_pkg::KindHead;
          send_data_o[v*32 +: 32] = stripped[v*32 +: 32];
        end else if (kind == elite4_pkg::KindHead) begin
          // a new HEAD where the tail should be: close with a poisoned TAIL
          send_kind_o[v*2 +: 2]   = elite4_pkg::KindTail;
          send_data_o[v*32 +: 32] = elite4_pkg::PoisonTail;
        end else begin
          send_kind_o[v*2 +: 2]   = kind;
          send_data_o[v*32 +: 32] = front[v*34 +: 32];
        end
      end
    end
    bcast_o = bcast_q;
    outs_o  = outs_q;
  end

  // Next state, pops and error events, given allocation's answers.
  always_comb begin
    ist_d   = ist_q;   outs_d  = outs_q;  pend_d = pend_q;
    bcast_d = bcast_q; hsent_d = hsent_q; ack_d  = ack_q;
    pop = '0; push = '0; crc_feed = '0;
    tok_done_o = '0; tok_done_ack_o = '0; nack_o = '0;
    ev_route_o = '0; ev_nopkt_o = '0; ev_trunc_o = '0; ev_crc_o = '0;

    for (int unsigned v = 0; v < NumVcs; v++) begin
      logic       have;
      logic [1:0] kind;
      logic [31:0] data;
      logic [NumPorts-1:0] pend_left;
      have = !empty[v];
      kind = front[v*34+32 +: 2];
      data = front[v*34 +: 32];
      pend_left = '0;

      case (ist_q[v*2 +: 2])
        elite4_pkg::InIdle: begin
          if (have && kind == elite4_pkg::KindHead) begin
            if (!legal[v]) begin
              pop[v] = 1'b1; nack_o[v] = 1'b1; ev_route_o[v] = 1'b1;
              ist_d[v*2 +: 2] = elite4_pkg::InDrop;
            end
          end else if (have) begin
            pop[v] = 1'b1; ev_nopkt_o[v] = 1'b1;   // BODY or TAIL with no packet
          end
          if (grant_i[v]) begin
            ist_d[v*2 +: 2] = elite4_pkg::InActive;
            outs_d[v*NumPorts +: NumPorts] = grant_mask_i[v*NumPorts +: NumPorts];
            pend_d[v*NumPorts +: NumPorts] = grant_mask_i[v*NumPorts +: NumPorts];
            bcast_d[v] = bc[v];
            hsent_d[v] = 1'b0;
            ack_d[v]   = 1'b1;
          end
        end
        elite4_pkg::InDrop: begin
          if (have && kind == elite4_pkg::KindHead) begin
            ist_d[v*2 +: 2] = elite4_pkg::InIdle;  // decoded next cycle
            ev_trunc_o[v] = 1'b1;
          end else if (have) begin
            pop[v] = 1'b1;
            if (kind == elite4_pkg::KindTail) ist_d[v*2 +: 2] = elite4_pkg::InIdle;
          end
        end
        elite4_pkg::InActive: begin
          // early tokens (a switch further on nacked the HEAD) count already
          pend_d[v*NumPorts +: NumPorts] = pend_q[v*NumPorts +: NumPorts] & ~tok_hit_i[v*NumPorts +: NumPorts];
          ack_d[v] = ack_q[v] & tok_ack_i[v];
          if (send_i[v]) begin
            if (kind == elite4_pkg::KindHead && hsent_q[v]) begin
              ev_trunc_o[v] = 1'b1;              // not popped: decoded after the token
              ist_d[v*2 +: 2] = elite4_pkg::InWaitToken;
            end else begin
              pop[v] = 1'b1;
            end
            if (kind == elite4_pkg::KindHead) hsent_d[v] = 1'b1;
            if (kind == elite4_pkg::KindBody) crc_feed[v] = 1'b1;
            if (kind == elite4_pkg::KindTail) begin
              if (data != crc[v*32 +: 32]) ev_crc_o[v] = 1'b1;
              ist_d[v*2 +: 2] = elite4_pkg::InWaitToken;
            end
          end
        end
        default: begin  // InWaitToken
          pend_left = pend_q[v*NumPorts +: NumPorts] & ~tok_hit_i[v*NumPorts +: NumPorts];
          pend_d[v*NumPorts +: NumPorts] = pend_left;
          ack_d[v] = ack_q[v] & tok_ack_i[v];
          if (pend_left == '0) begin
            tok_done_o[v]     = 1'b1;
            tok_done_ack_o[v] = ack_q[v] & tok_ack_i[v];
            ist_d[v*2 +: 2]   = elite4_pkg::InIdle;
          end
        end
      endcase
    end

    // Arrival: tokens are not buffered (the top routes them); a flit into a
    // full buffer that is not popped this cycle is lost (credit overflow).
    ev_ovf_o = 1'b0;
    if (in_valid_i && in_kind_i != elite4_pkg::KindToken) begin
      for (int unsigned v = 0; v < NumVcs; v++) begin
        if (32'(in_vc_i) == v) begin
          push[v]  = 1'b1;
          ev_ovf_o = full[v] && !pop[v];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ist_q    <= '0;
      outs_q   <= '0;
      pend_q   <= '0;
      bcast_q  <= '0;
      hsent_q  <= '0;
      ack_q    <= '0;
      credit_q <= '0;
    end else begin
      ist_q    <= ist_d;
      outs_q   <= outs_d;
      pend_q   <= pend_d;
      bcast_q  <= bcast_d;
      hsent_q  <= hsent_d;
      ack_q    <= ack_d;
      credit_q <= pop;      // every pop frees a slot upstream
    end
  end

  assign out_credit_o = credit_q;

endmodule
