// RUN: tle-opt %s -split-input-file --triton-tle-async-copy-loads | FileCheck %s --implicit-check-not='tle.async' --implicit-check-not='tt.latency'

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// Masked, other = -1.0: copy + commit at the load, independent ops, then the
// wait, the read back and the select of `other` right before the first use.
// CHECK-LABEL: tt.func @masked_other
// CHECK-NEXT: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
// CHECK-NEXT: %[[T:.*]] = ttg.async_copy_global_to_local %arg0, %[[BUF]] mask %arg1 other %arg2 : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
// CHECK-NEXT: %[[G:.*]] = ttg.async_commit_group tokens %[[T]]
// CHECK-NEXT: %[[X:.*]] = arith.mulf %arg3, %arg3
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[X]], %arg3
// CHECK-NEXT: %[[W:.*]] = ttg.async_wait %[[G]] {num = 0 : i32}
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[BUF]] token %[[W]] : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512xf32, #blocked>
// CHECK-NEXT: %[[S:.*]] = arith.select %arg1, %[[V]], %arg2 : tensor<512xi1, #blocked>, tensor<512xf32, #blocked>
// CHECK-NEXT: arith.addf %[[Y]], %[[S]]
tt.func @masked_other(%p: tensor<512x!tt.ptr<f32>, #blocked>, %m: tensor<512xi1, #blocked>, %o: tensor<512xf32, #blocked>, %z: tensor<512xf32, #blocked>) {
  %a = tt.load %p, %m, %o {tle.async, tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
  %x = arith.mulf %z, %z : tensor<512xf32, #blocked>
  %y = arith.addf %x, %z : tensor<512xf32, #blocked>
  %r = arith.addf %y, %a : tensor<512xf32, #blocked>
  tt.store %p, %r : tensor<512x!tt.ptr<f32>, #blocked>
  tt.return
}

// Unmasked: no mask, no other, no select.
// CHECK-LABEL: tt.func @unmasked
// CHECK-NEXT: %[[BUF:.*]] = ttg.local_alloc
// CHECK-NEXT: %[[T:.*]] = ttg.async_copy_global_to_local %arg0, %[[BUF]] : tensor<512x!tt.ptr<i32>, #blocked> -> <512xi32, #shared, #smem, mutable>
// CHECK-NEXT: %[[G:.*]] = ttg.async_commit_group tokens %[[T]]
// CHECK-NEXT: arith.muli
// CHECK-NEXT: %[[W:.*]] = ttg.async_wait %[[G]] {num = 0 : i32}
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[BUF]] token %[[W]]
// CHECK-NEXT: arith.addi %{{.*}}, %[[V]]
tt.func @unmasked(%p: tensor<512x!tt.ptr<i32>, #blocked>, %q: tensor<512x!tt.ptr<i32>, #blocked>, %z: tensor<512xi32, #blocked>) {
  %a = tt.load %p {tle.async} : tensor<512x!tt.ptr<i32>, #blocked>
  %x = arith.muli %z, %z : tensor<512xi32, #blocked>
  %r = arith.addi %x, %a : tensor<512xi32, #blocked>
  tt.store %q, %r : tensor<512x!tt.ptr<i32>, #blocked>
  tt.return
}

// other = +0.0 is cp.async's zero-fill: no select.
// CHECK-LABEL: tt.func @zero_other
// CHECK: ttg.async_copy_global_to_local %arg0, %{{.*}} mask %arg1 other %{{.*}} :
// CHECK: ttg.local_load
// CHECK-NOT: arith.select
// CHECK: tt.store
tt.func @zero_other(%p: tensor<512x!tt.ptr<f32>, #blocked>, %m: tensor<512xi1, #blocked>) {
  %zero = arith.constant dense<0.0> : tensor<512xf32, #blocked>
  %a = tt.load %p, %m, %zero {tle.async} : tensor<512x!tt.ptr<f32>, #blocked>
  tt.store %p, %a : tensor<512x!tt.ptr<f32>, #blocked>
  tt.return
}

// other = -0.0 is not the zero-fill: select.
// CHECK-LABEL: tt.func @negative_zero_other
// CHECK: ttg.local_load
// CHECK-NEXT: arith.select %arg1
tt.func @negative_zero_other(%p: tensor<512x!tt.ptr<f32>, #blocked>, %m: tensor<512xi1, #blocked>) {
  %nz = arith.constant dense<-0.0> : tensor<512xf32, #blocked>
  %a = tt.load %p, %m, %nz {tle.async} : tensor<512x!tt.ptr<f32>, #blocked>
  tt.store %p, %a : tensor<512x!tt.ptr<f32>, #blocked>
  tt.return
}

// The first user is nested in an scf.if: the wait goes before the scf.if.
// CHECK-LABEL: tt.func @nested_user
// CHECK: ttg.async_commit_group
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: %[[W:.*]] = ttg.async_wait
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %{{.*}} token %[[W]]
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.addf %{{.*}}, %[[V]]
tt.func @nested_user(%p: tensor<512x!tt.ptr<f32>, #blocked>, %c: i1, %z: tensor<512xf32, #blocked>) {
  %a = tt.load %p {tle.async} : tensor<512x!tt.ptr<f32>, #blocked>
  %x = arith.mulf %z, %z : tensor<512xf32, #blocked>
  %r = scf.if %c -> (tensor<512xf32, #blocked>) {
    %s = arith.addf %x, %a : tensor<512xf32, #blocked>
    scf.yield %s : tensor<512xf32, #blocked>
  } else {
    scf.yield %x : tensor<512xf32, #blocked>
  }
  tt.store %p, %r : tensor<512x!tt.ptr<f32>, #blocked>
  tt.return
}

// No user: the wait goes before the block's terminator; nothing is read back.
// CHECK-LABEL: tt.func @no_user
// CHECK: ttg.async_commit_group
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: ttg.async_wait
// CHECK-NOT: ttg.local_load
// CHECK-NEXT: tt.return
tt.func @no_user(%p: tensor<512x!tt.ptr<f32>, #blocked>, %z: tensor<512xf32, #blocked>) {
  %a = tt.load %p {tle.async} : tensor<512x!tt.ptr<f32>, #blocked>
  %x = arith.mulf %z, %z : tensor<512xf32, #blocked>
  tt.return
}

// A write before the first use: the copy's reads must complete before it.
// CHECK-LABEL: tt.func @write_before_use
// CHECK: ttg.async_commit_group
// CHECK-NEXT: ttg.async_wait
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: tt.store %arg0, %arg1
// CHECK-NEXT: arith.addf
tt.func @write_before_use(%p: tensor<512x!tt.ptr<f32>, #blocked>, %z: tensor<512xf32, #blocked>) {
  %a = tt.load %p {tle.async} : tensor<512x!tt.ptr<f32>, #blocked>
  tt.store %p, %z : tensor<512x!tt.ptr<f32>, #blocked>
  %r = arith.addf %a, %z : tensor<512xf32, #blocked>
  tt.store %p, %r : tensor<512x!tt.ptr<f32>, #blocked>
  tt.return
}

// In a loop Triton did not pipeline: copy and wait inside the body; the
// first use is the yield.
// CHECK-LABEL: tt.func @in_loop
// CHECK: scf.for
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: ttg.async_copy_global_to_local
// CHECK-NEXT: ttg.async_commit_group
// CHECK-NEXT: ttg.async_wait
// CHECK-NEXT: %[[V:.*]] = ttg.local_load
// CHECK-NEXT: scf.yield %[[V]]
tt.func @in_loop(%p: tensor<512x!tt.ptr<f32>, #blocked>, %n: i32, %z: tensor<512xf32, #blocked>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<512xf32, #blocked>) : i32 {
    %a = tt.load %p {tle.async, tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
    scf.yield %a : tensor<512xf32, #blocked>
  }
  tt.store %p, %r : tensor<512x!tt.ptr<f32>, #blocked>
  tt.return
}

// Loads without tle.async are left alone.
// CHECK-LABEL: tt.func @plain
// CHECK-NEXT: tt.load %arg0 : tensor<512x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: tt.load %arg0 {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
// CHECK-NOT: ttg.{{async|local}}
tt.func @plain(%p: tensor<512x!tt.ptr<f32>, #blocked>) {
  %a = tt.load %p : tensor<512x!tt.ptr<f32>, #blocked>
  %b = tt.load %p {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
  %r = arith.addf %a, %b : tensor<512xf32, #blocked>
  tt.store %p, %r : tensor<512x!tt.ptr<f32>, #blocked>
  tt.return
}

// Elements narrower than 4 bytes stay synchronous loads (attributes dropped).
// CHECK-LABEL: tt.func @narrow
// CHECK-NEXT: tt.load %arg0 : tensor<512x!tt.ptr<f16>, #blocked>
// CHECK-NOT: ttg.{{async|local}}
tt.func @narrow(%p: tensor<512x!tt.ptr<f16>, #blocked>) {
  %a = tt.load %p {tle.async, tt.latency = 2 : i32} : tensor<512x!tt.ptr<f16>, #blocked>
  tt.store %p, %a : tensor<512x!tt.ptr<f16>, #blocked>
  tt.return
}

// So do loads of a tensor with a zero dimension: no memdesc has its shape
// (scripts/fuzz_tle_opt.py: MemDescType::get asserted).
// CHECK-LABEL: tt.func @zero_size
// CHECK-NEXT: tt.load %arg0 : tensor<0x!tt.ptr<f32>, #blocked>
// CHECK-NOT: ttg.{{async|local}}
tt.func @zero_size(%p: tensor<0x!tt.ptr<f32>, #blocked>) {
  %a = tt.load %p {tle.async} : tensor<0x!tt.ptr<f32>, #blocked>
  tt.return
}
}

// -----

// More than 16 contiguous bytes per thread: the copy runs in a layout cut to
// 16 bytes (4 x f32); the read back is in the load's layout.
#blocked8 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: #[[CUT:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func @wide
// CHECK-NEXT: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<16x64xf32, #[[SH]], #smem, mutable>
// CHECK-NEXT: %[[P:.*]] = ttg.convert_layout %arg0 : tensor<16x64x!tt.ptr<f32>, #{{.*}}> -> tensor<16x64x!tt.ptr<f32>, #[[CUT]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %arg1 : tensor<16x64xi1, #{{.*}}> -> tensor<16x64xi1, #[[CUT]]>
// CHECK-NEXT: ttg.async_copy_global_to_local %[[P]], %[[BUF]] mask %[[M]] : tensor<16x64x!tt.ptr<f32>, #[[CUT]]>
// CHECK: ttg.local_load %[[BUF]] token %{{.*}} -> tensor<16x64xf32, #{{.*}}>
tt.func @wide(%p: tensor<16x64x!tt.ptr<f32>, #blocked8>, %m: tensor<16x64xi1, #blocked8>) {
  %a = tt.load %p, %m {tle.async} : tensor<16x64x!tt.ptr<f32>, #blocked8>
  tt.store %p, %a : tensor<16x64x!tt.ptr<f32>, #blocked8>
  tt.return
}
}
