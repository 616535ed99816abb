// ibsw_input_unit: one input port's lanes (docs/ibsw.md §5.1 steps 3-4, §5.3):
// framing (rxs), the per-lane buffers of {kind, data, egr, drop}, and the
// front state (ist, rc, hsent) that turns a HEAD into a VA requester R-3
// cycles after its arrival. Sma = 1: input 0, the SMA's responses (lane V only).
// The arrival is already classified (a kind 0-2 flit of a LinkUp port with a
// legal lane, or a response flit) and routed (ibsw_route).
module ibsw_input_unit #(
  parameter int unsigned NumDataVls  = 2,
  parameter int unsigned BufDepth    = 4,
  parameter int unsigned Buf15Depth  = 4,
  parameter int unsigned RouteCycles = 5,
  parameter bit          Sma         = 1'b0,
  localparam int unsigned LanW = NumDataVls + 1,
  localparam int unsigned EW   = 72             // {drop, egr[4:0], kind[1:0], data[63:0]}
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              arr_i,
  input  logic [2:0]        arr_lane_i,
  input  logic [1:0]        arr_kind_i,
  input  logic [63:0]       arr_data_i,
  input  logic              arr_init_i,     // pstate Init: data-lane flits drop-marked (error 11)
  input  logic [4:0]        route_egr_i,
  input  logic [3:0]        route_err_i,    // 0 = routed
  input  logic              route_drop_i,   // route_err_i != 0, by a shorter path
  output logic              arr_live_head_o,  // a live HEAD arrives (taken or not): pend[route_egr] + 1 if taken
  output logic              arr_taken_o,      // the arrival has space (§5.1 step 3)
  output logic [15:0]       err_o,          // bit k: error k in this cycle
  output logic              full_at_start_o, // lane V full (the SMA pushes only when not)
  // front of each lane, to VA/SA
  output logic [LanW-1:0]   wait_o,
  output logic [LanW-1:0]   active_o,
  output logic [LanW-1:0]   nonempty_o,
  output logic [LanW-1:0]   ane_o,          // ACTIVE and not empty, from a register (= active_o & nonempty_o)
  output logic [LanW-1:0]   hsent_o,
  output logic [LanW-1:0]   idle_empty_o,
  output logic [5*LanW-1:0] front_egr_o,
  output logic [LanW-1:0]   front_drop_o,
  output logic [2*LanW-1:0] front_kind_o,
  output logic [64*LanW-1:0] front_data_o,
  input  logic [LanW-1:0]   gnt_i,          // VA granted the WAIT lane
  input  logic [LanW-1:0]   serve_i,        // SA sends or sinks the ACTIVE lane's front
  output logic [LanW-1:0]   pop_o           // a pop this cycle (credit out next cycle)
);
  localparam logic [1:0] KHead = 2'd0, KBody = 2'd1, KTail = 2'd2;
  localparam logic [1:0] RxIdle = 2'd0, RxOpen = 2'd1, RxDrop = 2'd2;
  localparam logic [1:0] IIdle = 2'd0, IRoute = 2'd1, IWait = 2'd2, IActive = 2'd3;

  if (NumDataVls < 2 || NumDataVls > 7) begin : gen_v_check
    $error("ibsw_input_unit: NumDataVls must be 2..7");
  end
  if (RouteCycles < 5 || RouteCycles > 255) begin : gen_r_check
    $error("ibsw_input_unit: RouteCycles must be 5..255");
  end

  logic [1:0] rxs_q [LanW];
  logic [1:0] rxs_d [LanW];
  logic [1:0] ist_q [LanW];
  logic [1:0] ist_d [LanW];
  logic [7:0] rc_q [LanW];
  logic [7:0] rc_d [LanW];
  logic [LanW-1:0] hsent_q, hsent_d;
  logic [LanW-1:0] push, full, empty, pop, ne_next;
  logic [LanW-1:0] ane_q, ane_d;
  logic [EW-1:0]   push_ent;
  logic [EW-1:0]   front [LanW];

  for (genvar l = 0; l < LanW; l++) begin : gen_lane
    if (Sma && l < NumDataVls) begin : gen_none
      assign front[l] = '0;
      assign full[l]  = 1'b1;
      assign empty[l] = 1'b1;
      assign ne_next[l] = 1'b0;
      logic unused_push;
      assign unused_push = push[l];   // input 0 never pushes data lanes
    end else begin : gen_buf
      localparam int unsigned Depth = (l == NumDataVls) ? Buf15Depth : BufDepth;
      ibsw_lane_buf #(.Width(EW), .Depth(Depth)) u_buf (
        .clk_i, .rst_ni,
        .push_i(push[l]), .push_data_i(push_ent), .pop_i(pop[l]),
        .pop_data_o(front[l]), .full_o(full[l]), .empty_o(empty[l]), .nonempty_next_o(ne_next[l])
      );
    end
  end

  // Front (§5.3) and SA's action on it (§5.4): pops first, they free space.
  always_comb begin
    logic live, is_head, is_body;
    live = 1'b0; is_head = 1'b0; is_body = 1'b0;
    pop     = '0;
    hsent_d = hsent_q;
    for (int unsigned l = 0; l < LanW; l++) begin
      ist_d[l] = ist_q[l];
      rc_d[l]  = rc_q[l];
      live     = !empty[l] && !front[l][71];
      is_head  = front[l][65:64] == KHead;
      is_body  = front[l][65:64] == KBody;
      case (ist_q[l])
        IIdle: if (!empty[l]) begin
          if (front[l][71]) pop[l] = 1'b1;
          else if (RouteCycles == 5) ist_d[l] = IWait;
          else begin
            ist_d[l] = IRoute;
            rc_d[l]  = 8'(RouteCycles - 5);
          end
        end
        IRoute: begin
          rc_d[l] = rc_q[l] - 8'd1;
          if (rc_q[l] == 8'd1) ist_d[l] = IWait;
        end
        IWait: if (gnt_i[l]) begin
          ist_d[l]   = IActive;
          hsent_d[l] = 1'b0;
        end
        default: if (serve_i[l]) begin
          if (live && is_head && !hsent_q[l]) begin
            pop[l]     = 1'b1;
            hsent_d[l] = 1'b1;
          end else if (live && is_body && hsent_q[l]) begin
            pop[l] = 1'b1;
          end else if (live && !is_head && !is_body) begin
            pop[l]   = 1'b1;
            ist_d[l] = IIdle;
          end else begin
            ist_d[l] = IIdle;    // synthetic close, not popped
          end
        end
      endcase
    end
  end

  // "ACTIVE and not empty" of the next cycle, registered: the crossbar's
  // ready reads it through the owner (one-hot) instead of the count's compare
  // and the lane state through the owner's index (count -> crossbar -> SA ->
  // pop -> the arrival's receive state was ibsw_p8_w24's worst path, 3,768 ps,
  // docs/ibsw.md Status) *(ours)*. Assertion xb_ready_exact (ibsw.sv).
  always_comb begin
    for (int unsigned l = 0; l < LanW; l++) ane_d[l] = ist_d[l] == IActive && ne_next[l];
  end

  // Arrival (§5.1 steps 3-4). The entry (and its drop mark) does not depend on
  // the space check, which waits for SA's pop: the lane buffer writes it
  // anyway and only takes it (pointers) if there is space. The outcome with
  // space (step 4) and without (step 3) is formed from the arrival and the
  // lane's registers; SA's pop of the arrival's lane only chooses between
  // them, last (pop -> space -> error bits, lane state and the pend hit was
  // the worst path of ibsw_p4 and ibsw_p8_w24, docs/ibsw.md Status) *(ours)*.
  // Assertion iu_arrival_exact compares it with the per-lane form.
  logic [LanW-1:0] arr_sel;   // the arrival's lane, one-hot (0 when none)
  logic            arr_space;  // step 3's check: the lane is not full, or pops now
  logic [15:0]     arr_ev;     // step 4's error events
  logic [1:0]      arr_rx, arr_rx_lost; // the lane's receive state after step 4 / step 3
  logic            arr_live_hd;
  always_comb begin
    logic hd, drop, full_sel, pop_sel, any;
    logic [1:0] rxs_sel;
    hd = arr_kind_i == KHead;
    full_sel = 1'b0; pop_sel = 1'b0; rxs_sel = RxIdle; any = 1'b0;
    for (int unsigned l = 0; l < LanW; l++) begin
      any = any | (32'(arr_lane_i) == l);
      arr_sel[l] = arr_i && 32'(arr_lane_i) == l;
      full_sel = full_sel | (arr_sel[l] & full[l]);
      pop_sel  = pop_sel | (arr_sel[l] & pop[l]);
      if (32'(arr_lane_i) == l) rxs_sel = rxs_q[l];
    end
    // §5.1 step 4 as if there were space
    drop = 1'b0; arr_live_hd = 1'b0;
    arr_ev = '0;
    arr_rx = rxs_sel;
    if (arr_init_i && 32'(arr_lane_i) < NumDataVls) begin
      drop = 1'b1;
      arr_ev[11] = 1'b1;
    end else if (hd) begin
      if (rxs_sel != RxIdle) arr_ev[8] = 1'b1;
      if (route_drop_i) begin
        drop = 1'b1;
        for (int unsigned k = 1; k <= 4; k++) if (32'(route_err_i) == k) arr_ev[k] = 1'b1;
        arr_rx = RxDrop;
      end else begin
        arr_live_hd = 1'b1;
        arr_rx = RxOpen;
      end
    end else if (rxs_sel == RxOpen) begin
      if (arr_kind_i == KTail) arr_rx = RxIdle;
    end else if (rxs_sel == RxDrop) begin
      drop = 1'b1;
      if (arr_kind_i == KTail) arr_rx = RxIdle;
    end else begin
      drop = 1'b1;
      arr_ev[7] = 1'b1;
    end
    // step 3: lost, error 6 and nothing else
    arr_rx_lost = hd ? RxDrop : (arr_kind_i == KTail ? RxIdle : rxs_sel);
    // written into the spare slot; taken if there is space
    push = arr_sel;
    arr_space = !full_sel || pop_sel;
    err_o = '0;
    if (arr_i) err_o = arr_space ? arr_ev : 16'h0040;
    arr_live_head_o = arr_i && arr_live_hd;
    arr_taken_o = arr_space;
    for (int unsigned l = 0; l < LanW; l++)
      rxs_d[l] = arr_sel[l] ? (arr_space ? arr_rx : arr_rx_lost) : rxs_q[l];
    // egr as routed whatever the outcome: VA reads it only for a live HEAD (wait_o)
    push_ent = {drop && any, route_egr_i, arr_kind_i, arr_data_i};
  end

`ifndef SYNTHESIS
  // The arrival per lane, as §5.1 reads (the form before the change above),
  // for iu_arrival_exact
  logic [LanW-1:0] ref_push;
  logic [15:0]     ref_err;
  logic            ref_plh;
  logic [1:0]      ref_rxs [LanW];
  logic [EW-1:0]   ref_ent;
  always_comb begin
    logic drop, space, hd, live_hd;
    logic [15:0] ev;
    logic [1:0]  rx;
    drop = 1'b0; space = 1'b0; hd = 1'b0; live_hd = 1'b0;
    ev = '0;
    rx = RxIdle;
    ref_push = '0;
    ref_err = '0;
    ref_plh = 1'b0;
    for (int unsigned k = 0; k < LanW; k++) ref_rxs[k] = rxs_q[k];
    for (int unsigned l = 0; l < LanW; l++) begin
      if (32'(arr_lane_i) == l) begin
        hd = arr_kind_i == KHead;
        live_hd = 1'b0;
        ev = '0;
        rx = rxs_q[l];
        if (arr_init_i && l < NumDataVls) begin
          drop = 1'b1;
          ev[11] = 1'b1;
        end else if (hd) begin
          if (rxs_q[l] != RxIdle) ev[8] = 1'b1;
          if (route_drop_i) begin
            drop = 1'b1;
            for (int unsigned k = 1; k <= 4; k++) if (32'(route_err_i) == k) ev[k] = 1'b1;
            rx = RxDrop;
          end else begin
            live_hd = 1'b1;
            rx = RxOpen;
          end
        end else if (rxs_q[l] == RxOpen) begin
          if (arr_kind_i == KTail) rx = RxIdle;
        end else if (rxs_q[l] == RxDrop) begin
          drop = 1'b1;
          if (arr_kind_i == KTail) rx = RxIdle;
        end else begin
          drop = 1'b1;
          ev[7] = 1'b1;
        end
        if (arr_i) begin
          ref_push[l] = 1'b1;
          space = !(full[l] && !pop[l]);
          if (!space) begin
            ref_err[6] = 1'b1;
            if (hd) ref_rxs[l] = RxDrop;
            else if (arr_kind_i == KTail) ref_rxs[l] = RxIdle;
          end else begin
            ref_err = ev;
            ref_rxs[l] = rx;
            ref_plh = live_hd;
          end
        end
      end
    end
    ref_ent = {drop, route_egr_i, arr_kind_i, arr_data_i};
  end
  always_ff @(posedge clk_i) begin
    iu_arrival_exact: assert (push == ref_push && err_o == ref_err && (arr_live_head_o && arr_taken_o) == ref_plh &&
                              push_ent == ref_ent);
    for (int unsigned l = 0; l < LanW; l++) iu_arrival_rxs_exact: assert (rxs_d[l] == ref_rxs[l]);
  end
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned l = 0; l < LanW; l++) begin
        rxs_q[l] <= RxIdle;
        ist_q[l] <= IIdle;
        rc_q[l]  <= '0;
      end
      hsent_q <= '0;
      ane_q   <= '0;
    end else begin
      for (int unsigned l = 0; l < LanW; l++) begin
        rxs_q[l] <= rxs_d[l];
        ist_q[l] <= ist_d[l];
        rc_q[l]  <= rc_d[l];
      end
      hsent_q <= hsent_d;
      ane_q   <= ane_d;
    end
  end

  always_comb begin
    for (int unsigned l = 0; l < LanW; l++) begin
      wait_o[l]       = ist_q[l] == IWait;
      active_o[l]     = ist_q[l] == IActive;
      nonempty_o[l]   = !empty[l];
      idle_empty_o[l] = ist_q[l] == IIdle && empty[l];
      front_drop_o[l] = front[l][71];
      front_egr_o[5*l +: 5]   = front[l][70:66];
      front_kind_o[2*l +: 2]  = front[l][65:64];
      front_data_o[64*l +: 64] = front[l][63:0];
    end
  end
  assign hsent_o = hsent_q;
  assign ane_o   = ane_q;
  assign pop_o = pop;
  assign full_at_start_o = full[NumDataVls];

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    for (int unsigned l = 0; l < LanW; l++) begin
      // §5.1 marks orphans: a live BODY/TAIL never reaches the front of an IDLE lane.
      iu_idle_front_head: assert (!(ist_q[l] == IIdle && !empty[l] && !front[l][71] && front[l][65:64] != KHead));
      // A requester's front is the live HEAD it routed.
      iu_wait_live_head: assert (!(ist_q[l] == IWait && (empty[l] || front[l][71] || front[l][65:64] != KHead)));
      iu_route_rc_nonzero: assert (!(ist_q[l] == IRoute && rc_q[l] == 8'd0));
    end
  end
`endif
endmodule
