// ibsw_port_fsm: one port's PortPhysicalState / PortState, drain and training
// (docs/ibsw.md §6): symbol handling (§6.2), the SMA's PortInfo Set (§6.3,
// evaluated here against the state at e, status back the same cycle), drain
// before off (§6.4), wake and training (§6.5), link loss (§6.6).
module ibsw_port_fsm #(
  parameter int unsigned WakeCycles = 4,
  parameter int unsigned BootActive = 0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        sym_i,          // a kind-3 flit arrives
  input  logic [63:0] sym_data_i,
  input  logic        pkt_i,          // a kind 0-2 flit arrives
  input  logic        drained_sent_i, // SA chose DRAINED this cycle
  input  logic        off_ready_i,    // pend 0, no BUSY lane, credits back, inputs idle and empty
  input  logic        set_i,          // SubnSet(PortInfo) for this port executes
  input  logic [3:0]  set_pstate_i,
  input  logic [3:0]  set_phys_i,
  output logic [15:0] set_status_o,
  output logic [2:0]  phys_o,
  output logic [2:0]  pstate_o,
  output logic        usable_next_o,  // next cycle: LinkUp, Active, not draining (§5.2 for data)
  output logic        draining_o,
  output logic [2:0]  target_o,
  output logic        sent_drained_o,
  output logic        cred_init_o,    // enters Training this cycle
  output logic        err10_o,
  output logic        err12_o,
  output logic        err13_o
);
  localparam logic [2:0] PhSleep = 3'd1, PhPolling = 3'd2, PhDisabled = 3'd3, PhTraining = 3'd4,
                         PhLinkUp = 3'd5, PhLer = 3'd6;
  localparam logic [2:0] PsDown = 3'd1, PsInit = 3'd2, PsArmed = 3'd3, PsActive = 3'd4;
  localparam logic [23:0] W = 24'(WakeCycles);
  localparam logic [23:0] Wm2 = (WakeCycles >= 2) ? 24'(WakeCycles - 2) : 24'd0;

  if (WakeCycles < 1 || WakeCycles > 16777215) begin : gen_w_check
    $error("ibsw_port_fsm: WakeCycles must be 1..16777215");
  end
  if (BootActive > 1) begin : gen_b_check
    $error("ibsw_port_fsm: BootActive must be 0..1");
  end

  logic [2:0]  phys_q, phys_d, ps_q, ps_d, tgt_q;
  logic        drn_q, drn_d, sent_q, sent_d, peer_q, peer_d, seen2_q, seen2_d;
  logic [23:0] tcnt_q, tcnt_d;
  // tge_q = (tcnt_q + 1 >= W), registered from the next count: the 24-bit
  // add-and-compare in front of Training's exit was 3.87 ns in ibsw_p8_w24
  // (docs/ibsw.md Status) *(ours)*; pf_tge_exact checks it every cycle.
  logic        tge_q, tge_d;
  logic        ts1, ts2, drained_sym, bad_sym, auto_chg;
  logic [2:0]  phys_a, ps_a;
  logic        drn_a, phys_d_set, apply_q;

  always_comb begin
    logic seen2n;
    seen2n      = 1'b0;
    ts1         = sym_i && sym_data_i == 64'd1;
    ts2         = sym_i && sym_data_i == 64'd2;
    drained_sym = sym_i && sym_data_i == 64'd3;
    bad_sym     = sym_i && !ts1 && !ts2 && !drained_sym;
    phys_d = phys_q; ps_d = ps_q; drn_d = drn_q;
    sent_d = sent_q || drained_sent_i;
    peer_d = peer_q; seen2_d = seen2_q; tcnt_d = tcnt_q; tge_d = tge_q;
    cred_init_o = 1'b0;
    err10_o = 1'b0; err12_o = 1'b0; err13_o = 1'b0;
    if (phys_q != PhDisabled && phys_q != PhSleep) err12_o = bad_sym;
    case (phys_q)
      PhSleep: if (ts1) phys_d = PhPolling;
      PhPolling, PhLer: begin
        err10_o = pkt_i;
        if (ts1 || ts2) begin
          phys_d      = PhTraining;
          tcnt_d      = '0;
          tge_d       = WakeCycles == 1;          // 0 + 1 >= W
          seen2_d     = ts2;
          cred_init_o = 1'b1;
        end
      end
      PhTraining: begin
        err10_o = pkt_i;
        tcnt_d  = tge_q ? W : tcnt_q + 24'd1;
        tge_d   = (WakeCycles <= 2) || tcnt_q >= Wm2;   // min(tcnt_q + 1, W) + 1 >= W
        seen2n  = seen2_q || ts2;
        seen2_d = seen2n;
        if (tge_q && seen2n) begin
          phys_d = PhLinkUp;
          ps_d   = PsInit;
        end
      end
      PhLinkUp: begin
        if (drained_sym) peer_d = 1'b1;
        if (ts1) begin
          phys_d  = PhLer;
          ps_d    = PsDown;
          drn_d   = 1'b0;
          err13_o = 1'b1;
        end else if (drn_q && sent_q && peer_q && off_ready_i) begin
          phys_d = tgt_q;
          ps_d   = PsDown;
          drn_d  = 1'b0;
        end
      end
      default: ;
    endcase
    auto_chg = phys_d != phys_q || ps_d != ps_q || drn_d != drn_q;
  end

  // §6.3: first matching row decides; an accepted Set in a cycle where §6.2
  // changes the port is refused busy (one writer per cycle).
  always_comb begin
    logic apply;
    apply = 1'b0;
    phys_a = phys_q; ps_a = ps_q; drn_a = drn_q;
    set_status_o = 16'h0000;
    if (set_pstate_i != 4'd0 && set_phys_i != 4'd0) set_status_o = 16'h001C;
    else if (set_pstate_i == 4'd0 && set_phys_i == 4'd0) set_status_o = 16'h0000;
    else if (drn_q) set_status_o = 16'h0001;
    else if (set_phys_i != 4'd0) begin
      if (set_phys_i == {1'b0, phys_q}) set_status_o = 16'h011C;
      else if (set_phys_i == 4'(PhDisabled) || set_phys_i == 4'(PhSleep)) begin
        apply = 1'b1;
        if (phys_q == PhLinkUp) drn_a = 1'b1;
        else phys_a = set_phys_i[2:0];
      end else if (set_phys_i == 4'(PhPolling)) begin
        if (phys_q == PhDisabled || phys_q == PhSleep) begin
          apply = 1'b1;
          phys_a = PhPolling;
        end else set_status_o = 16'h001C;
      end else set_status_o = 16'h001C;
    end else begin
      if (set_pstate_i == {1'b0, ps_q}) set_status_o = 16'h011C;
      else if (set_pstate_i == 4'(PsArmed) && ps_q == PsInit) begin
        apply = 1'b1;
        ps_a = PsArmed;
      end else if (set_pstate_i == 4'(PsActive) && ps_q == PsArmed) begin
        apply = 1'b1;
        ps_a = PsActive;
      end else set_status_o = 16'h001C;
    end
    if (apply && auto_chg) begin
      set_status_o = 16'h0001;
      apply = 1'b0;
    end
    apply_q = apply;
  end
  // apart from the status: the SMA's Set strobe depends on the status it reads
  assign phys_d_set = apply_q && set_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phys_q  <= (BootActive != 0) ? PhLinkUp : PhPolling;
      ps_q    <= (BootActive != 0) ? PsActive : PsDown;
      tgt_q   <= '0;
      drn_q   <= 1'b0;
      sent_q  <= 1'b0;
      peer_q  <= 1'b0;
      seen2_q <= 1'b0;
      tcnt_q  <= '0;
      tge_q   <= WakeCycles == 1;
    end else begin
      if (phys_d_set) begin
        phys_q <= phys_a;
        ps_q   <= (phys_a != PhLinkUp) ? PsDown : ps_a;
        drn_q  <= drn_a;
        tgt_q  <= drn_a ? set_phys_i[2:0] : tgt_q;
      end else begin
        phys_q <= phys_d;
        ps_q   <= ps_d;
        drn_q  <= drn_d;
        tgt_q  <= drn_d ? tgt_q : '0;
      end
      // flags are cleared whenever phys leaves LinkUp
      if ((phys_d_set ? phys_a : phys_d) != PhLinkUp) begin
        sent_q <= 1'b0;
        peer_q <= 1'b0;
      end else begin
        sent_q <= sent_d;
        peer_q <= peer_d;
      end
      seen2_q <= seen2_d;
      tcnt_q  <= tcnt_d;
      tge_q   <= tge_d;
    end
  end

  // the values the registers above take
  logic [2:0] phys_n, ps_n;
  logic       drn_n;
  assign phys_n = phys_d_set ? phys_a : phys_d;
  assign ps_n   = phys_d_set ? ((phys_a != PhLinkUp) ? PsDown : ps_a) : ps_d;
  assign drn_n  = phys_d_set ? drn_a : drn_d;
  assign usable_next_o = phys_n == PhLinkUp && ps_n == PsActive && !drn_n;

  assign phys_o = phys_q;
  assign pstate_o = ps_q;
  assign draining_o = drn_q;
  assign target_o = drn_q ? tgt_q : 3'd0;
  assign sent_drained_o = sent_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    pf_pstate_down_unless_linkup: assert (phys_q == PhLinkUp || ps_q == PsDown);
    pf_phys_legal: assert (phys_q >= PhSleep && phys_q <= PhLer);
    pf_draining_linkup: assert (!drn_q || phys_q == PhLinkUp);
    pf_tge_exact: assert (tge_q == (32'(tcnt_q) + 1 >= WakeCycles));
  end
`endif
endmodule
