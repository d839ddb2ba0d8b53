// RUN: tle-opt %s --triton-tle-lower-barriers | FileCheck %s --implicit-check-not=tle.barrier
// RUN: tle-opt %s --triton-tle-lower-barriers --canonicalize | FileCheck %s --check-prefix=CANON

// tle.barrier_try_wait: the phase's parity (flipped for a READY barrier),
// then a ttng.wait_barrier predicated on a begin marker, between the begin
// and end markers the llir finish turns into one mbarrier.try_wait.parity;
// the result is the end marker's value != 0.

#bars = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @test(
  // CHECK: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
  // CHECK: %[[P:.*]] = arith.andi %arg1, %c1_i32
  // CHECK: %[[Q:.*]] = arith.xori %[[P]], %c1_i32
  // CHECK: %[[BAR:.*]] = ttg.memdesc_index %[[BARS]][%arg0]
  // CHECK: %[[BEGIN:.*]] = tt.elementwise_inline_asm "tle.barrier_try_wait.begin;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  // CHECK: %[[PRED:.*]] = arith.cmpi ne, %[[BEGIN]], %{{.*}} : i32
  // CHECK: ttng.wait_barrier %[[BAR]], %[[Q]], %[[PRED]]
  // CHECK: %[[END:.*]] = tt.elementwise_inline_asm "tle.barrier_try_wait.end;" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %[[BEGIN]] : i32 -> i32
  // CHECK: %[[R:.*]] = arith.cmpi ne, %[[END]], %{{.*}} : i32
  // CHECK: tt.return %[[R]] : i1
  tt.func @test(%i: i32, %phase: i32) -> i1 {
    %bars = tle.barrier_alloc arrive_count 1 ready : !ttg.memdesc<2x1xi64, #bars, #smem, mutable>
    %done = tle.barrier_try_wait %bars[%i], %phase : !ttg.memdesc<2x1xi64, #bars, #smem, mutable>, i32, i32
    tt.return %done : i1
  }

  // A PENDING barrier's phase keeps its parity (as barrier_wait's): phase 0
  // waits on parity 0, incomplete on a fresh barrier, not parity 1 (which
  // names the phase before it and would answer true at once).
  // CHECK-LABEL: tt.func @pending(
  // CHECK: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK: %[[P:.*]] = arith.andi %[[C0]], %c1_i32
  // CHECK-NOT: arith.xori
  // CHECK: "tle.barrier_try_wait.begin;"
  // CHECK: ttng.wait_barrier %{{.*}}, %[[P]], %{{.*}}
  // CHECK: "tle.barrier_try_wait.end;"
  // CANON-LABEL: tt.func @pending(
  // CANON: %[[Z:.*]] = arith.constant 0 : i32
  // CANON: ttng.wait_barrier %{{.*}}, %[[Z]], %{{.*}}
  tt.func @pending() -> i1 {
    %c0 = arith.constant 0 : i32
    %bars = tle.barrier_alloc arrive_count 2 : !ttg.memdesc<1x1xi64, #bars, #smem, mutable>
    %done = tle.barrier_try_wait %bars[%c0], %c0 : !ttg.memdesc<1x1xi64, #bars, #smem, mutable>, i32, i32
    tt.return %done : i1
  }
}
