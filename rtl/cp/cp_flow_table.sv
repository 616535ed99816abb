// E2CM per-flow occupancy table. Spec: docs/cp.md §8.
//
// A small CAM: each tracked entry holds one flow's bytes in the queue (q)
// and its occupancy at the last answered probe (qold). A flow whose bytes
// drain to 0 frees its entry at the end of that cycle (§8).
//
// The table runs one cycle behind the queue monitor (§8): cycle t's events
// (the verdicts enq_ok/deq_ok, flows, lengths, MODE on, APPLY) are
// registered here and applied in t+1, so the verdicts, decided late in t,
// do not steer every entry in the same cycle (§13: that path was 4.1 ns).
// Events are applied in order, one cycle each, so no bypass is needed.
// Within t+1 nothing waits for a sum: every entry forms its three
// candidate sums (q+e, q-d, q+e-d) from its register and the event lengths
// side by side (cp_ks_add), whether each leaves the entry tracked comes from
// compares (q > d, q+e > d) rather than a zero test on the sum, and the
// lookups and the registered verdicts only pick one.
module cp_flow_table #(
  parameter int unsigned QW       = 27,
  parameter int unsigned NumFlows = 16,
  parameter int unsigned FlowW    = 8,
  localparam int unsigned IdxW    = $clog2(NumFlows)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // cycle t's events, registered here and applied in t+1
  input  logic             en_i,          // MODE is on; off empties the table
  input  logic             enq_ok_i,
  input  logic [FlowW-1:0] enq_flow_i,
  input  logic [15:0]      enq_len_i,
  input  logic             deq_ok_i,
  input  logic [FlowW-1:0] deq_flow_i,
  input  logic [15:0]      deq_len_i,
  input  logic             clear_qold_i,  // APPLY (clears every Qold_flow with t's events)
  // lookup of the flow whose probe is being answered (registered table,
  // i.e. after the events of two cycles ago)
  input  logic [FlowW-1:0] lk_flow_i,
  output logic             lk_hit_o,
  output logic [QW-1:0]    lk_q_o,
  output logic [QW-1:0]    lk_qold_o,
  input  logic             qold_we_i,     // Qold_flow <- Q_flow for the looked-up entry
  output logic             full_now_o,    // the registered enqueue (of t-1) found the table full
  output logic             ft_full_o      // registered pulse of the same
);

  // the event register: cycle t's events, applied in t+1
  logic             en, enq_ok, deq_ok, clear_qold;
  logic [FlowW-1:0] enq_flow, deq_flow;
  logic [15:0]      enq_len, deq_len;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en         <= 1'b0;
      enq_ok     <= 1'b0;
      deq_ok     <= 1'b0;
      clear_qold <= 1'b0;
    end else begin
      en         <= en_i;
      enq_ok     <= enq_ok_i;
      deq_ok     <= deq_ok_i;
      clear_qold <= clear_qold_i;
    end
  end
  // flows and lengths are read only with their verdict
  always_ff @(posedge clk_i) begin
    enq_flow <= enq_flow_i;
    enq_len  <= enq_len_i;
    deq_flow <= deq_flow_i;
    deq_len  <= deq_len_i;
  end

  logic [NumFlows-1:0] trk_q, trk_d;      // tracked: allocated and q != 0
  logic [FlowW-1:0]    flow_q [NumFlows];
  logic [FlowW-1:0]    flow_d [NumFlows];
  logic [QW-1:0]       q_q    [NumFlows];
  logic [QW-1:0]       q_d    [NumFlows];
  logic [QW-1:0]       qold_q [NumFlows];
  logic [QW-1:0]       qold_d [NumFlows];
  logic                full_q;

  logic [NumFlows-1:0] hit_e, hit_d, hit_l, free_1h;
  logic                enq_hit, free_found;
  logic [IdxW-1:0]     lk_idx;

  // Lookups on the registered table; a flow is held by one entry at most.
  always_comb begin
    for (int unsigned i = 0; i < NumFlows; i++) begin
      hit_e[i] = trk_q[i] && (flow_q[i] == enq_flow);
      hit_d[i] = trk_q[i] && (flow_q[i] == deq_flow);
      hit_l[i] = trk_q[i] && (flow_q[i] == lk_flow_i);
    end
    enq_hit = |hit_e;
    // the lowest-numbered free entry (not observable, §8; any choice would do)
    free_1h = ~trk_q & (trk_q + NumFlows'(1));
    free_found = !(&trk_q);   // the same as |free_1h, without the increment
    lk_idx = '0;
    for (int unsigned i = 0; i < NumFlows; i++) if (hit_l[i]) lk_idx = IdxW'(i);
  end

  assign lk_hit_o   = |hit_l;
  assign lk_q_o     = q_q[lk_idx];
  assign lk_qold_o  = qold_q[lk_idx];
  assign full_now_o = en && enq_ok && !enq_hit && !free_found;

  for (genvar g = 0; g < NumFlows; g++) begin : gen_upd
    // the three candidate sums of this entry, modulo 2^QW, and whether the
    // true (signed) result is above 0: q > d, q + e > d
    logic [QW-1:0] c_e, c_d, c_ed, ed_s, ed_c, unused_gt_s;
    logic [QW+1:0] ed_top, t_s, t_c;
    logic          d_gt, ed_gt;
    logic [4:0]    unused_co;
    logic [QW:0]   unused_ed_low;

    cp_ks_add #(.W(QW)) u_e (
      .a_i (q_q[g]), .b_i (QW'(enq_len)), .ci_i (1'b0), .s_o (c_e), .co_o (unused_co[0])
    );
    cp_ks_add #(.W(QW)) u_d (
      .a_i (q_q[g]), .b_i (~(QW'(deq_len))), .ci_i (1'b1), .s_o (c_d), .co_o (unused_co[1])
    );
    always_comb begin
      logic [QW-1:0] a, b, c;
      a    = q_q[g];
      b    = QW'(enq_len);
      c    = ~(QW'(deq_len));
      ed_s = a ^ b ^ c;
      ed_c = (((a & b) | (a & c) | (b & c)) << 1) | QW'(1);   // the +1 of -d
    end
    cp_ks_add #(.W(QW)) u_ed (
      .a_i (ed_s), .b_i (ed_c), .ci_i (1'b0), .s_o (c_ed), .co_o (unused_co[2])
    );
    // q + e - d - 1 >= 0 on QW+2 bits (only the sign is read), and q > d as
    // the carry out of q + ~d: both on the Kogge-Stone tree, as `+` and `>`
    // map to near-ripple chains (§13)
    always_comb begin
      logic [QW+1:0] a, b, c;
      a   = (QW+2)'(q_q[g]);
      b   = (QW+2)'(enq_len);
      c   = ~((QW+2)'(deq_len));
      t_s = a ^ b ^ c;
      t_c = ((a & b) | (a & c) | (b & c)) << 1;
    end
    cp_ks_add #(.W(QW+2)) u_top (
      .a_i (t_s), .b_i (t_c), .ci_i (1'b0), .s_o (ed_top), .co_o (unused_co[3])
    );
    assign ed_gt  = !ed_top[QW+1];
    assign unused_ed_low = ed_top[QW:0];
    cp_ks_add #(.W(QW)) u_gt (
      .a_i (q_q[g]), .b_i (~(QW'(deq_len))), .ci_i (1'b0), .s_o (unused_gt_s), .co_o (d_gt)
    );

    // Each of the four cases of (enq_ok, deq_ok) is formed without them; the
    // registered verdicts pick one.
    logic          he, hd, fa;
    logic [QW-1:0] v10, v01, v11, dq;
    logic          t10, t01, t11;
    always_comb begin
      he = en && hit_e[g];
      hd = en && hit_d[g];
      fa = en && !enq_hit && free_1h[g];          // allocated if the enqueue is accepted
      // a dequeue takes bytes only from an entry that held its flow at the
      // start of the cycle; it saturates at 0 (§8)
      dq  = d_gt ? c_d : '0;
      v10 = fa ? QW'(enq_len) : he ? c_e : q_q[g];
      t10 = fa || he || trk_q[g];
      v01 = hd ? dq : q_q[g];
      t01 = hd ? d_gt : trk_q[g];
      if (fa)            begin v11 = QW'(enq_len);     t11 = 1'b1;     end
      else if (he && hd) begin v11 = ed_gt ? c_ed : '0;  t11 = ed_gt;    end
      else if (he)       begin v11 = c_e;                t11 = 1'b1;     end
      else if (hd)       begin v11 = dq;                 t11 = d_gt;     end
      else               begin v11 = q_q[g];             t11 = trk_q[g]; end
      case ({enq_ok, deq_ok})
        2'b11:   begin q_d[g] = v11;    trk_d[g] = en && t11;      end
        2'b10:   begin q_d[g] = v10;    trk_d[g] = en && t10;      end
        2'b01:   begin q_d[g] = v01;    trk_d[g] = en && t01;      end
        default: begin q_d[g] = q_q[g]; trk_d[g] = en && trk_q[g]; end
      endcase
      // the free entry takes the flow and Qold_flow = 0 whether or not the
      // enqueue is accepted (an untracked entry's fields are never read), so
      // only q and the tracked bit wait for the queue monitor's verdicts
      flow_d[g] = fa ? enq_flow : flow_q[g];
      // Qold_flow <- Q_flow for the answered probe's entry; if the entry
      // stops being tracked this cycle the value is never read (an entry is
      // read only while tracked, and allocation sets qold to 0)
      qold_d[g] = qold_q[g];
      if (fa)                    qold_d[g] = '0;
      if (qold_we_i && hit_l[g]) qold_d[g] = q_q[g];
      if (clear_qold)          qold_d[g] = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      trk_q  <= '0;
      full_q <= 1'b0;
    end else begin
      trk_q  <= trk_d;
      full_q <= full_now_o;
    end
  end

  // Entry payloads need no reset: they are read only while tracked. (A
  // generate loop: Verilator 5.006 cannot build array writes in a for loop
  // inside always_ff.)
  for (genvar g = 0; g < NumFlows; g++) begin : gen_entry
    always_ff @(posedge clk_i) begin
      flow_q[g] <= flow_d[g];
      q_q[g]    <= q_d[g];
      qold_q[g] <= qold_d[g];
    end
  end

  assign ft_full_o = full_q;

endmodule
