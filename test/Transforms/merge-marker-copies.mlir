// RUN: tle-opt %s -split-input-file --triton-tle-merge-marker-copies | FileCheck %s
// RUN: tle-opt %s -split-input-file --triton-tle-merge-marker-copies -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// One count per split: straight-line copies, chains, none apart, loops, a tiled result, reduces,
// an operand passed twice.
// STATS: (S) 0 iter-args-merged
// STATS-NEXT: (S) 6 merged
// STATS: (S) 0 iter-args-merged
// STATS-NEXT: (S) 1 merged
// STATS: (S) 0 iter-args-merged
// STATS-NEXT: (S) 0 merged
// STATS: (S) 2 iter-args-merged
// STATS-NEXT: (S) 2 merged
// STATS: (S) 0 iter-args-merged
// STATS-NEXT: (S) 1 merged
// STATS: (S) 0 iter-args-merged
// STATS-NEXT: (S) 1 merged
// STATS: (S) 0 iter-args-merged
// STATS-NEXT: (S) 1 merged

#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#b3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // What remove-layout-conversions leaves of one tle.gpu.wgmma and its wait
  // whose result a row max and an exp2 read: the wgmma marker and its wait
  // in three layouts (their operands rematerialized, splats and a zero
  // accumulator), one copy an exact repeat. Each folds into the first of
  // its number; a used copy's result becomes a convert of the first's; the
  // operands only the copies used go.
  // CHECK-LABEL: tt.func @copies(
  // CHECK-NEXT: %[[A:.*]] = tt.splat %arg0 : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #[[L1:.*]]>
  // CHECK-NEXT: %[[B:.*]] = tt.splat %arg1 : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #[[L1]]>
  // CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #[[L1]]>
  // CHECK-NEXT: %[[S:.*]] = tt.elementwise_inline_asm "tle.wgmma {tle.marker.scalar_operands = array<i32: 0, 1>}" {{.*}}tle.marker.id = 7 : i64{{.*}} %[[A]], %[[B]], %[[Z]]
  // CHECK-NEXT: %[[W:.*]] = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {{.*}} %[[S]]
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[W]] : tensor<64x128xf32, #[[L1]]> -> tensor<64x128xf32, #[[L2:.*]]>
  // CHECK-NEXT: tt.return %[[W]], %[[C]], %[[W]]
  tt.func @copies(%q: !tt.ptr<bf16, 3>, %k: !tt.ptr<bf16, 3>) -> (tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>, tensor<64x128xf32, #b1>) {
    %a1 = tt.splat %q : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b1>
    %b1 = tt.splat %k : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b1>
    %z1 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b1>
    %a2 = tt.splat %q : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b2>
    %b2 = tt.splat %k : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b2>
    %z2 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b2>
    %a3 = tt.splat %q : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b3>
    %b3 = tt.splat %k : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b3>
    %z3 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b3>
    %s1 = tt.elementwise_inline_asm "tle.wgmma {tle.marker.scalar_operands = array<i32: 0, 1>}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 7 : i64} %a1, %b1, %z1 : tensor<64x128x!tt.ptr<bf16, 3>, #b1>, tensor<64x128x!tt.ptr<bf16, 3>, #b1>, tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %s2 = tt.elementwise_inline_asm "tle.wgmma {tle.marker.scalar_operands = array<i32: 0, 1>}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 7 : i64} %a2, %b2, %z2 : tensor<64x128x!tt.ptr<bf16, 3>, #b2>, tensor<64x128x!tt.ptr<bf16, 3>, #b2>, tensor<64x128xf32, #b2> -> tensor<64x128xf32, #b2> loc(#l)
    %s3 = tt.elementwise_inline_asm "tle.wgmma {tle.marker.scalar_operands = array<i32: 0, 1>}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 7 : i64} %a3, %b3, %z3 : tensor<64x128x!tt.ptr<bf16, 3>, #b3>, tensor<64x128x!tt.ptr<bf16, 3>, #b3>, tensor<64x128xf32, #b3> -> tensor<64x128xf32, #b3> loc(#l)
    %s4 = tt.elementwise_inline_asm "tle.wgmma {tle.marker.scalar_operands = array<i32: 0, 1>}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 7 : i64} %a1, %b1, %z1 : tensor<64x128x!tt.ptr<bf16, 3>, #b1>, tensor<64x128x!tt.ptr<bf16, 3>, #b1>, tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %w1 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 8 : i64} %s1 : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#m)
    %w2 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 8 : i64} %s2 : tensor<64x128xf32, #b2> -> tensor<64x128xf32, #b2> loc(#m)
    %w3 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 8 : i64} %s3 : tensor<64x128xf32, #b3> -> tensor<64x128xf32, #b3> loc(#m)
    %w4 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 8 : i64} %s4 : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#m)
    tt.return %w1, %w2, %w4 : tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>, tensor<64x128xf32, #b1>
  }
}
#l = loc("attn.py":10:5)
#m = loc("attn.py":11:5)

// -----

#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Operands matched through their defining ops (make_range, expand_dims,
  // broadcast, addi) and through a convert_layout.
  // CHECK-LABEL: tt.func @chains(
  // CHECK-COUNT-1: "tle.local_load {
  // CHECK-NOT: "tle.local_load {
  // CHECK: tt.return
  tt.func @chains(%p: !tt.ptr<bf16, 3>, %x: tensor<64x128xi32, #b1>) -> (tensor<64x128xbf16, #b1>, tensor<64x128xbf16, #b2>) {
    %r1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #b1}>>
    %e1 = tt.expand_dims %r1 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #b1}>> -> tensor<1x128xi32, #b1>
    %o1 = tt.broadcast %e1 : tensor<1x128xi32, #b1> -> tensor<64x128xi32, #b1>
    %i1 = arith.addi %o1, %x : tensor<64x128xi32, #b1>
    %r2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #b2}>>
    %e2 = tt.expand_dims %r2 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #b2}>> -> tensor<1x128xi32, #b2>
    %o2 = tt.broadcast %e2 : tensor<1x128xi32, #b2> -> tensor<64x128xi32, #b2>
    %x2 = ttg.convert_layout %x : tensor<64x128xi32, #b1> -> tensor<64x128xi32, #b2>
    %i2 = arith.addi %o2, %x2 : tensor<64x128xi32, #b2>
    %s1 = tt.splat %p : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b1>
    %s2 = tt.splat %p : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b2>
    %v1 = tt.elementwise_inline_asm "tle.local_load {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 3 : i64} %s1, %i1 : tensor<64x128x!tt.ptr<bf16, 3>, #b1>, tensor<64x128xi32, #b1> -> tensor<64x128xbf16, #b1> loc(#l)
    %v2 = tt.elementwise_inline_asm "tle.local_load {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 3 : i64} %s2, %i2 : tensor<64x128x!tt.ptr<bf16, 3>, #b2>, tensor<64x128xi32, #b2> -> tensor<64x128xbf16, #b2> loc(#l)
    tt.return %v1, %v2 : tensor<64x128xbf16, #b1>, tensor<64x128xbf16, #b2>
  }
}
#l = loc("attn.py":20:5)

// -----

#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Negative: markers the frontend emitted apart stay apart, however alike:
  // different numbers (a tl.static_range body: one line, two markers), no
  // number, a store between two copies, operands that differ (another
  // pointer, another constant), another block.
  // CHECK-LABEL: tt.func @apart(
  // CHECK-COUNT-10: "tle.wgmma_wait {pendings = 0 : i32}"
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.return
  tt.func @apart(%a: tensor<64x128xf32, #b1>, %c: tensor<64x128xf32, #b2>, %p: !tt.ptr<f32>, %v: f32, %f: i1) -> (tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>, tensor<64x128xf32, #b2>, tensor<64x128xf32, #b2>) {
    %0 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 1 : i64} %a : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %1 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 2 : i64} %a : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %2 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %a : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %3 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %a : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %4 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 5 : i64} %a : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    tt.store %p, %v : !tt.ptr<f32>
    %5 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 5 : i64} %a : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %c1 = arith.constant dense<1.000000e+00> : tensor<64x128xf32, #b1>
    %c2 = arith.constant dense<2.000000e+00> : tensor<64x128xf32, #b2>
    %6 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 6 : i64} %c1 : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %7 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 6 : i64} %c2 : tensor<64x128xf32, #b2> -> tensor<64x128xf32, #b2> loc(#l)
    %8 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 9 : i64} %c : tensor<64x128xf32, #b2> -> tensor<64x128xf32, #b2> loc(#l)
    %9 = scf.if %f -> (tensor<64x128xf32, #b2>) {
      %w = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 9 : i64} %c : tensor<64x128xf32, #b2> -> tensor<64x128xf32, #b2> loc(#l)
      scf.yield %w : tensor<64x128xf32, #b2>
    } else {
      scf.yield %c : tensor<64x128xf32, #b2>
    }
    tt.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>, tensor<64x128xf32, #b2>, tensor<64x128xf32, #b2>
  }
}
#l = loc("attn.py":30:5)

// -----

#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // A loop Triton carries once per layout: two iter_args whose inits are the
  // same constant and whose yields are the copies themselves. The pair is
  // assumed equal while its inits and yields are compared (coinduction), so
  // the copy in the body folds into the first; then the loop carries the
  // value once, and the dropped result is a convert of the kept one.
  // CHECK-LABEL: tt.func @carried(
  // CHECK: %[[L:.*]] = scf.for %{{.*}} iter_args(%[[X:.*]] = %{{.*}}) -> (tensor<64x128xf32, #[[B1:.*]]>)
  // CHECK-NEXT: %[[W:.*]] = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {{.*}} %[[X]]
  // CHECK-NEXT: scf.yield %[[W]] : tensor<64x128xf32, #[[B1]]>
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]]
  // CHECK-NEXT: tt.return %[[L]], %[[C]]
  tt.func @carried(%n: i32) -> (tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z1 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b1>
    %z2 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b2>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x1 = %z1, %x2 = %z2) -> (tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>) : i32 {
      %w1 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 2 : i64} %x1 : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
      %w2 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 2 : i64} %x2 : tensor<64x128xf32, #b2> -> tensor<64x128xf32, #b2> loc(#l)
      scf.yield %w1, %w2 : tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>
    }
    tt.return %r#0, %r#1 : tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>
  }

  // Negative: the same loop with inits that differ (0 and 1): the
  // assumption fails and is forgotten; both markers and iter_args stay.
  // CHECK-LABEL: tt.func @carried_apart(
  // CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
  // CHECK-COUNT-2: "tle.wgmma_wait {pendings = 0 : i32}"
  // CHECK-NOT: ttg.convert_layout
  tt.func @carried_apart(%n: i32) -> (tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z1 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b1>
    %o2 = arith.constant dense<1.000000e+00> : tensor<64x128xf32, #b2>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x1 = %z1, %x2 = %o2) -> (tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>) : i32 {
      %w1 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 2 : i64} %x1 : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
      %w2 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 2 : i64} %x2 : tensor<64x128xf32, #b2> -> tensor<64x128xf32, #b2> loc(#l)
      scf.yield %w1, %w2 : tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>
    }
    tt.return %r#0, %r#1 : tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>
  }
  // A loop with a folded copy and a second pair of iter_args whose inits
  // differ (0 and 1): the copies' pair is carried once, the other pair stays
  // (its yields read the merged value through a convert).
  // CHECK-LABEL: tt.func @carried_mixed(
  // CHECK: %[[L:.*]]:3 = scf.for %{{.*}} iter_args(%[[X:.*]] = %{{.*}}, %[[Y1:.*]] = %{{.*}}, %[[Y2:.*]] = %{{.*}}) -> (tensor<64x128xf32, #[[B1:.*]]>, tensor<64x128xf32, #[[B1]]>, tensor<64x128xf32, #[[B2:.*]]>)
  // CHECK-NEXT: %[[W:.*]] = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {{.*}} %[[X]]
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[W]] : tensor<64x128xf32, #[[B1]]> -> tensor<64x128xf32, #[[B2]]>
  // CHECK-NEXT: %[[A1:.*]] = arith.addf %[[Y1]], %[[W]]
  // CHECK-NEXT: %[[A2:.*]] = arith.addf %[[Y2]], %[[C]]
  // CHECK-NEXT: scf.yield %[[W]], %[[A1]], %[[A2]]
  // CHECK-NOT: tle.wgmma_wait
  // CHECK: tt.return %[[L]]#1, %[[L]]#2
  tt.func @carried_mixed(%n: i32) -> (tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z1 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b1>
    %z2 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b2>
    %o2 = arith.constant dense<1.000000e+00> : tensor<64x128xf32, #b2>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%x1 = %z1, %x2 = %z2, %y1 = %z1, %y2 = %o2) -> (tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>) : i32 {
      %w1 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 3 : i64} %x1 : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
      %w2 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 3 : i64} %x2 : tensor<64x128xf32, #b2> -> tensor<64x128xf32, #b2> loc(#l)
      %a1 = arith.addf %y1, %w1 : tensor<64x128xf32, #b1>
      %a2 = arith.addf %y2, %w2 : tensor<64x128xf32, #b2>
      scf.yield %w1, %w2, %a1, %a2 : tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>, tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>
    }
    tt.return %r#2, %r#3 : tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>
  }
}
#l = loc("attn.py":40:5)

// -----

#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#t1 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 1, 4], order = [2, 1, 0]}>
#t2 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // A tiled result (docs/markers.md, "Tiles"): each copy's result is used by
  // its tt.reshape and pick tt.reduce. The copy goes with its chain; the
  // users of its chain's end read the first's end, converted.
  // CHECK-LABEL: tt.func @tiled(
  // CHECK-COUNT-1: tle.marker.tiled_results
  // CHECK-NOT: tle.marker.tiled_results
  // CHECK-COUNT-1: tt.reshape
  // CHECK-NOT: tt.reshape
  // CHECK: %[[END:.*]] = "tt.reduce"
  // CHECK: tt.reduce.return
  // CHECK: %[[C:.*]] = ttg.convert_layout %[[END]]
  // CHECK: tt.return %[[END]], %[[C]]
  tt.func @tiled(%p: !tt.ptr<bf16, 3>) -> (tensor<64x64xf32, #ttg.slice<{dim = 1, parent = #t1}>>, tensor<64x64xf32, #ttg.slice<{dim = 1, parent = #t2}>>) {
    %s1 = tt.splat %p : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b1>
    %s2 = tt.splat %p : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b2>
    %m1 = tt.elementwise_inline_asm "tle.wgmma {tle.marker.scalar_operands = array<i32: 0>, tle.marker.tile_shape = array<i64: 64, 64>, tle.marker.tiled_results = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 5 : i64} %s1 : tensor<64x128x!tt.ptr<bf16, 3>, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %m2 = tt.elementwise_inline_asm "tle.wgmma {tle.marker.scalar_operands = array<i32: 0>, tle.marker.tile_shape = array<i64: 64, 64>, tle.marker.tiled_results = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 5 : i64} %s2 : tensor<64x128x!tt.ptr<bf16, 3>, #b2> -> tensor<64x128xf32, #b2> loc(#l)
    %r1 = tt.reshape %m1 : tensor<64x128xf32, #b1> -> tensor<64x2x64xf32, #t1>
    %r2 = tt.reshape %m2 : tensor<64x128xf32, #b2> -> tensor<64x2x64xf32, #t2>
    %e1 = "tt.reduce"(%r1) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      tt.reduce.return %a : f32
    }) : (tensor<64x2x64xf32, #t1>) -> tensor<64x64xf32, #ttg.slice<{dim = 1, parent = #t1}>>
    %e2 = "tt.reduce"(%r2) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      tt.reduce.return %a : f32
    }) : (tensor<64x2x64xf32, #t2>) -> tensor<64x64xf32, #ttg.slice<{dim = 1, parent = #t2}>>
    tt.return %e1, %e2 : tensor<64x64xf32, #ttg.slice<{dim = 1, parent = #t1}>>, tensor<64x64xf32, #ttg.slice<{dim = 1, parent = #t2}>>
  }
}
#l = loc("attn.py":50:5)

// -----

#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Operands computed by ops with bodies: a row max rematerialized in two
  // layouts matches (the combiners are compared as written); a row max and
  // a row sum do not.
  // CHECK-LABEL: tt.func @reduced(
  // CHECK-COUNT-1: "tle.wgmma_wait {pendings = 0 : i32}"
  // CHECK-NOT: "tle.wgmma_wait
  // CHECK: tt.return
  tt.func @reduced(%x: tensor<64x128xf32, #b1>) -> (tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>>) {
    %x2 = ttg.convert_layout %x : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b2>
    %m1 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.maxnumf %a, %b : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #b1>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>>
    %m2 = "tt.reduce"(%x2) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.maxnumf %a, %b : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #b2>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>>
    %w1 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 4 : i64} %m1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>> loc(#l)
    %w2 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 4 : i64} %m2 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>> loc(#l)
    tt.return %w1, %w2 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>>
  }

  // CHECK-LABEL: tt.func @reduced_apart(
  // CHECK-COUNT-2: "tle.wgmma_wait {pendings = 0 : i32}"
  tt.func @reduced_apart(%x: tensor<64x128xf32, #b1>) -> (tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>>) {
    %x2 = ttg.convert_layout %x : tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b2>
    %m1 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.maxnumf %a, %b : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #b1>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>>
    %m2 = "tt.reduce"(%x2) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      tt.reduce.return %r : f32
    }) : (tensor<64x128xf32, #b2>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>>
    %w1 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 4 : i64} %m1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>> loc(#l)
    %w2 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 4 : i64} %m2 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>> loc(#l)
    tt.return %w1, %w2 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b1}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>>
  }
}
#l = loc("attn.py":60:5)

// -----

#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // A copy that passes one value twice (a = b): once the copy is folded, that
  // value's splat is dead and erased once (the operands' definers are taken
  // before anything is erased; the recursive erasure freed the splat and
  // then asked it again: AddressSanitizer's use after free).
  // CHECK-LABEL: tt.func @operand_twice(
  // CHECK-NEXT: %[[A:.*]] = tt.splat %arg0 : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #[[L1:.*]]>
  // CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00>
  // CHECK-NEXT: %[[S:.*]] = tt.elementwise_inline_asm "tle.wgmma {{.*}} %[[A]], %[[A]], %[[Z]]
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[S]]
  // CHECK-NEXT: tt.return %[[S]], %[[C]]
  tt.func @operand_twice(%q: !tt.ptr<bf16, 3>) -> (tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>) {
    %a1 = tt.splat %q : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b1>
    %z1 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b1>
    %a2 = tt.splat %q : !tt.ptr<bf16, 3> -> tensor<64x128x!tt.ptr<bf16, 3>, #b2>
    %z2 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #b2>
    %s1 = tt.elementwise_inline_asm "tle.wgmma {tle.marker.scalar_operands = array<i32: 0, 1>}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 9 : i64} %a1, %a1, %z1 : tensor<64x128x!tt.ptr<bf16, 3>, #b1>, tensor<64x128x!tt.ptr<bf16, 3>, #b1>, tensor<64x128xf32, #b1> -> tensor<64x128xf32, #b1> loc(#l)
    %s2 = tt.elementwise_inline_asm "tle.wgmma {tle.marker.scalar_operands = array<i32: 0, 1>}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 9 : i64} %a2, %a2, %z2 : tensor<64x128x!tt.ptr<bf16, 3>, #b2>, tensor<64x128x!tt.ptr<bf16, 3>, #b2>, tensor<64x128xf32, #b2> -> tensor<64x128xf32, #b2> loc(#l)
    tt.return %s1, %s2 : tensor<64x128xf32, #b1>, tensor<64x128xf32, #b2>
  }
}
#l = loc("attn.py":50:5)
