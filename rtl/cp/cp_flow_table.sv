// E2CM per-flow occupancy table. Spec: docs/cp.md §8.
//
// A small CAM: each valid entry holds one flow's bytes in the queue (q) and
// its occupancy at the last answered probe (qold). Entries are allocated on
// a flow's first tracked enqueue and freed when its bytes drain to 0.
module cp_flow_table #(
  parameter int unsigned QW       = 27,
  parameter int unsigned NumFlows = 16,
  parameter int unsigned FlowW    = 8,
  localparam int unsigned IdxW    = $clog2(NumFlows)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,          // MODE is on; off empties the table
  input  logic             enq_ok_i,
  input  logic [FlowW-1:0] enq_flow_i,
  input  logic [15:0]      enq_len_i,
  input  logic             deq_ok_i,
  input  logic [FlowW-1:0] deq_flow_i,
  input  logic [15:0]      deq_len_i,
  // lookup of the flow whose probe is being answered (registered table)
  input  logic [FlowW-1:0] lk_flow_i,
  output logic             lk_hit_o,
  output logic [QW-1:0]    lk_q_o,
  output logic [QW-1:0]    lk_qold_o,
  input  logic             qold_we_i,     // Qold_flow <- Q_flow for the looked-up entry
  input  logic             clear_qold_i,  // APPLY
  output logic             full_now_o,    // this cycle's enqueue found the table full
  output logic             ft_full_o      // registered pulse of the same
);

  logic [NumFlows-1:0] valid_q, valid_d;
  logic [FlowW-1:0]    flow_q [NumFlows];
  logic [FlowW-1:0]    flow_d [NumFlows];
  logic [QW-1:0]       q_q    [NumFlows];
  logic [QW-1:0]       q_d    [NumFlows];
  logic [QW-1:0]       qold_q [NumFlows];
  logic [QW-1:0]       qold_d [NumFlows];
  logic                full_q;

  logic            enq_hit, deq_hit, free_found, lk_hit;
  logic [IdxW-1:0] enq_idx, deq_idx, free_idx, lk_idx;

  // Lookups on the registered table; flows are unique, the first match is the only one.
  always_comb begin
    enq_hit = 1'b0; enq_idx = '0;
    deq_hit = 1'b0; deq_idx = '0;
    lk_hit  = 1'b0; lk_idx  = '0;
    free_found = 1'b0; free_idx = '0;
    for (int unsigned i = 0; i < NumFlows; i++) begin
      if (valid_q[i] && flow_q[i] == enq_flow_i && !enq_hit) begin enq_hit = 1'b1; enq_idx = IdxW'(i); end
      if (valid_q[i] && flow_q[i] == deq_flow_i && !deq_hit) begin deq_hit = 1'b1; deq_idx = IdxW'(i); end
      if (valid_q[i] && flow_q[i] == lk_flow_i  && !lk_hit)  begin lk_hit  = 1'b1; lk_idx  = IdxW'(i); end
      if (!valid_q[i] && !free_found) begin free_found = 1'b1; free_idx = IdxW'(i); end
    end
  end

  assign lk_hit_o   = lk_hit;
  assign lk_q_o     = q_q[lk_idx];
  assign lk_qold_o  = qold_q[lk_idx];
  assign full_now_o = en_i && enq_ok_i && !enq_hit && !free_found;

  always_comb begin
    for (int unsigned i = 0; i < NumFlows; i++) begin
      logic [QW-1:0] q;
      valid_d[i] = valid_q[i];
      flow_d[i]  = flow_q[i];
      qold_d[i]  = qold_q[i];
      q          = q_q[i];
      if (en_i && enq_ok_i && enq_hit && enq_idx == IdxW'(i)) begin
        q = q + QW'(enq_len_i);
      end
      if (en_i && enq_ok_i && !enq_hit && free_found && free_idx == IdxW'(i)) begin
        valid_d[i] = 1'b1;
        flow_d[i]  = enq_flow_i;
        q          = QW'(enq_len_i);
        qold_d[i]  = '0;
      end
      // only an entry that held deq_flow at the start of the cycle loses bytes
      if (en_i && deq_ok_i && deq_hit && deq_idx == IdxW'(i)) begin
        q = (q >= QW'(deq_len_i)) ? q - QW'(deq_len_i) : '0;
      end
      if (q == '0 || !en_i) valid_d[i] = 1'b0;
      if (qold_we_i && lk_hit && lk_idx == IdxW'(i) && valid_d[i]) qold_d[i] = q_q[i];
      if (clear_qold_i) qold_d[i] = '0;
      q_d[i] = q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      full_q  <= 1'b0;
    end else begin
      valid_q <= valid_d;
      full_q  <= full_now_o;
    end
  end

  // Entry payloads need no reset: they are read only while valid. (A
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
