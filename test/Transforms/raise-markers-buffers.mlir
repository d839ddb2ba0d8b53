// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers | FileCheck %s --implicit-check-not=elementwise_inline_asm

// Hand-written buffer markers beyond the captured kernel: handles reaching
// markers through tt.broadcast and ttg.convert_layout, 2-D buffers, one
// handle splat shared by several markers.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @chains
  // CHECK-NEXT: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
  // CHECK-NEXT: %[[P:.*]] = tle.local_pointers %[[BUF]] : !ttg.memdesc<16x32xf16, #shared, #smem, mutable> -> tensor<16x32x!tt.ptr<f16, 3>, #blocked>
  // CHECK-NEXT: %[[V:.*]] = tle.local_load %[[BUF]] : !ttg.memdesc<16x32xf16, #shared, #smem, mutable> -> tensor<16x32xf16, #blocked1>
  // CHECK-NEXT: tt.return %[[P]], %[[V]]
  tt.func public @chains() -> (tensor<16x32x!tt.ptr<f16, 3>, #blocked>, tensor<16x32xf16, #blocked1>) {
    %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [!ttg.memdesc<16x32xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f16, 3>
    %s = tt.splat %buf : !tt.ptr<f16, 3> -> tensor<1x32x!tt.ptr<f16, 3>, #blocked>
    %b = tt.broadcast %s : tensor<1x32x!tt.ptr<f16, 3>, #blocked> -> tensor<16x32x!tt.ptr<f16, 3>, #blocked>
    %p = tt.elementwise_inline_asm "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %b : tensor<16x32x!tt.ptr<f16, 3>, #blocked> -> tensor<16x32x!tt.ptr<f16, 3>, #blocked>
    %c = ttg.convert_layout %b : tensor<16x32x!tt.ptr<f16, 3>, #blocked> -> tensor<16x32x!tt.ptr<f16, 3>, #blocked1>
    %v = tt.elementwise_inline_asm "tle.local_load {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %c : tensor<16x32x!tt.ptr<f16, 3>, #blocked1> -> tensor<16x32xf16, #blocked1>
    tt.return %p, %v : tensor<16x32x!tt.ptr<f16, 3>, #blocked>, tensor<16x32xf16, #blocked1>
  }
}

// -----

// A scalar-indexed local pointer takes the handle itself; shard id and a
// cluster barrier; an i32 atomic on cluster pointers.
// CHECK-LABEL: tt.func public @scalars
// CHECK-NEXT: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<4xi32, #shared, #smem, mutable>
// CHECK-NEXT: %[[RANK:.*]] = tle.shard_id #device_mesh, "y"
// CHECK-NEXT: %[[ONE:.*]] = tle.local_pointers %[[BUF]][%[[RANK]]] : !ttg.memdesc<4xi32, #shared, #smem, mutable>, i32 -> !tt.ptr<i32, 3>
// CHECK-NEXT: %[[R:.*]] = tle.remote_pointers cluster %[[ONE]], %[[RANK]] : !tt.ptr<i32, 3> -> !tt.ptr<i32, 7>
// CHECK-NEXT: %[[OLD:.*]] = tle.atomic_rmw add, acq_rel, cluster, %[[R]], %[[RANK]] : (!tt.ptr<i32, 7>, i32) -> i32
// CHECK-NEXT: tle.distributed_barrier cluster
// CHECK-NEXT: tt.return %[[OLD]]
tt.func public @scalars() -> i32 {
  %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [!ttg.memdesc<4xi32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<i32, 3>
  %rank = tt.elementwise_inline_asm "tle.shard_id {mesh = #tle.device_mesh<shape = [2, 2], axes = [\22x\22, \22y\22], levels = [\22block_cluster\22, \22block_cluster\22]>, axis = \22y\22}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  %one = tt.elementwise_inline_asm "tle.local_pointers" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %buf, %rank : !tt.ptr<i32, 3>, i32 -> !tt.ptr<i32, 3>
  %r = tt.elementwise_inline_asm "tle.remote_pointers {space = #tle.remote_space<cluster>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %one, %rank : !tt.ptr<i32, 3>, i32 -> !tt.ptr<i32, 7>
  %old = tt.elementwise_inline_asm "tle.atomic_rmw {kind = #tle.atomic_kind<add>, sem = #tle.mem_semantic<acq_rel>, scope = #tle.mem_scope<cluster>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %r, %rank : !tt.ptr<i32, 7>, i32 -> i32
  %d = tt.elementwise_inline_asm "tle.distributed_barrier {group = #tle.distributed_group<cluster>, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.return %old : i32
}

// -----

// Triton folds the splat of a constant scalar operand into a splat constant;
// the op gets the scalar constant.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @splat_constant
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: tle.remote_pointers cluster %{{.*}}, %[[ZERO]] : tensor<64x!tt.ptr<i32, 3>, #blocked> -> tensor<64x!tt.ptr<i32, 7>, #blocked>
  tt.func public @splat_constant(%p: tensor<64x!tt.ptr<i32, 3>, #blocked>) -> tensor<64x!tt.ptr<i32, 7>, #blocked> {
    %zero = arith.constant dense<0> : tensor<64xi32, #blocked>
    %r = tt.elementwise_inline_asm "tle.remote_pointers {space = #tle.remote_space<cluster>, tle.marker.scalar_operands = array<i32: 1>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %p, %zero : tensor<64x!tt.ptr<i32, 3>, #blocked>, tensor<64xi32, #blocked> -> tensor<64x!tt.ptr<i32, 7>, #blocked>
    tt.return %r : tensor<64x!tt.ptr<i32, 7>, #blocked>
  }
}
