// The adaptive up-link choice of one VC (docs/elite4.md §5.4, our choice):
// registered, computed every cycle from that cycle's registered state and
// used by VA in the next (so it may be one cycle stale). Among the free
// up-links, in order from the pointer: the first whose downstream buffer is
// empty, else the first with a credit, else the first. The pointer moves
// past the chosen port when an adaptive requester was granted it.
module elite4_up_select #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned UpMask   = 32'hF0,
  localparam int unsigned PortW   = $clog2(NumPorts)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NumPorts-1:0] free_i,      // output VC (o, v) FREE
  input  logic [NumPorts-1:0] empty_i,     // cred[o][v] == BufDepth
  input  logic [NumPorts-1:0] avail_i,     // cred[o][v] > 0
  input  logic                granted_i,   // VA granted an adaptive requester this cycle
  output logic                valid_o,
  output logic [NumPorts-1:0] sel_o        // one-hot
);

  logic [PortW-1:0]    ptr_q, ptr, port_q, pnext_q, pnext_d;
  logic                valid_q, valid_d, gr_q;
  logic [NumPorts-1:0] sel_q, sel_d, up, c_empty, c_avail, c_any, at_or_after;

  // first set bit of c at or after the pointer, wrapping (one-hot)
  function automatic logic [NumPorts-1:0] first_from(input logic [NumPorts-1:0] c,
                                                     input logic [NumPorts-1:0] hi);
    logic [NumPorts-1:0] r;
    logic                f;
    r = '0; f = 1'b0;
    for (int unsigned k = 0; k < NumPorts; k++) begin
      if (!f && c[k] && hi[k]) begin r[k] = 1'b1; f = 1'b1; end
    end
    for (int unsigned k = 0; k < NumPorts; k++) begin
      if (!f && c[k]) begin r[k] = 1'b1; f = 1'b1; end
    end
    first_from = r;
  endfunction

  always_comb begin
    for (int unsigned o = 0; o < NumPorts; o++) begin
      up[o]          = UpMask[o];
      at_or_after[o] = o >= 32'(ptr);
    end
    c_any   = up & free_i;
    c_empty = c_any & empty_i;
    c_avail = c_any & avail_i;
    valid_d = c_any != '0;
    if (c_empty != '0)      sel_d = first_from(c_empty, at_or_after);
    else if (c_avail != '0) sel_d = first_from(c_avail, at_or_after);
    else                    sel_d = first_from(c_any, at_or_after);
    // the port granted is the registered choice (used by VA this cycle)
    port_q = '0;
    for (int unsigned o = 0; o < NumPorts; o++) if (sel_q[o]) port_q = PortW'(o);
    // the pointer past it, from registers only; VA's late grant only goes
    // into a flip-flop (gr_q) and moves the pointer in the next cycle, where
    // ptr is ptr_q or, after a grant, the pointer past that grant's port
    // (pnext_q): the same pointer in every cycle (ours, docs/elite4.md §10)
    pnext_d = (32'(port_q) == NumPorts - 1) ? '0 : port_q + 1'b1;
  end
  assign ptr = gr_q ? pnext_q : ptr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= '0; valid_q <= 1'b0; sel_q <= '0; gr_q <= 1'b0; pnext_q <= '0;
    end else begin
      ptr_q <= ptr; valid_q <= valid_d; sel_q <= sel_d; gr_q <= granted_i; pnext_q <= pnext_d;
    end
  end

  assign valid_o = valid_q;
  assign sel_o   = sel_q;

`ifndef SYNTHESIS
  // a valid choice names exactly one up-link; an invalid one names none
  logic a_bad;
  always_comb begin
    a_bad = 1'b0;
    if (valid_q && (sel_q == '0 || (sel_q & (sel_q - 1'b1)) != '0)) a_bad = 1'b1;
    if ((sel_q & ~up) != '0) a_bad = 1'b1;
    if (!valid_q && sel_q != '0) a_bad = 1'b1;
  end
  always_ff @(posedge clk_i) begin
    ups_onehot_up: assert (!a_bad);
  end
`endif

endmodule
