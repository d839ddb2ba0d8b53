// RUN: tle-opt %s --triton-tle-lower-to-iluvatar | FileCheck %s
// RUN: tle-opt %s --triton-tle-lower-to-iluvatar | tle-opt | FileCheck %s
// RUN: tle-opt %s --triton-tle-lower-to-iluvatar | FileCheck %s --check-prefix=NOTLE

// The five TLE-Struct primitives (plus the whole-buffer accesses the
// local-pointer passes make) lowered for an Iluvatar target.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#swizzled = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "iluvatar:ivcore11", "ttg.threads-per-warp" = 32 : i32} {

// CHECK-LABEL: tt.func @alloc(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<64x32xf32
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32, #{{shared[0-9]*}}, #smem, mutable>
// CHECK: %[[B:.*]] = ttg.local_alloc %[[X]] : (tensor<64x32xf32, #{{.*}}>) -> !ttg.memdesc<64x32xf32, #{{.*}}, #smem, mutable>
// CHECK: tt.return %[[A]], %[[B]]
tt.func @alloc(%x: tensor<64x32xf32, #blocked>) -> (!ttg.memdesc<64x32xf32, #shared, #smem, mutable>, !ttg.memdesc<64x32xf32, #swizzled, #smem, mutable>) {
  %a = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  %b = tle.alloc smem %x : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf32, #swizzled, #smem, mutable>
  tt.return %a, %b : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, !ttg.memdesc<64x32xf32, #swizzled, #smem, mutable>
}

// CHECK-LABEL: tt.func @local_ptr(
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32
// CHECK: %[[ALL:.*]] = iluvatar_tle.local_pointers %[[BUF]] : !ttg.memdesc<64x32xf32, #{{.*}}, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #{{blocked[0-9]*}}>
// CHECK: tt.store %[[ALL]], %{{.*}} : tensor<64x32x!tt.ptr<f32, 3>
// CHECK: %[[ONE:.*]] = iluvatar_tle.local_pointers %[[BUF]][%{{.*}}, %{{.*}}] : !ttg.memdesc<64x32xf32, #{{.*}}, #smem, mutable>, i32, i32 -> !tt.ptr<f32, 3>
// CHECK: tt.load %[[ONE]] : !tt.ptr<f32, 3>
// CHECK: %[[SOME:.*]] = iluvatar_tle.local_pointers %[[BUF]][%{{.*}}, %{{.*}}] : !ttg.memdesc<64x32xf32, #{{.*}}, #smem, mutable>, tensor<128xi32, #{{.*}}>, tensor<128xi32, #{{.*}}> -> tensor<128x!tt.ptr<f32, 3>, #{{.*}}>
// CHECK: tt.load %[[SOME]] : tensor<128x!tt.ptr<f32, 3>
tt.func @local_ptr(%v: tensor<64x32xf32, #blocked>, %i: i32, %rows: tensor<128xi32, #blocked1>) -> (f32, tensor<128xf32, #blocked1>) {
  %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  %all = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
  tt.store %all, %v : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
  %one = tle.local_pointers %buf[%i, %i] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32, i32 -> !tt.ptr<f32, 3>
  %s = tt.load %one : !tt.ptr<f32, 3>
  %some = tle.local_pointers %buf[%rows, %rows] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1> -> tensor<128x!tt.ptr<f32, 3>, #blocked1>
  %t = tt.load %some : tensor<128x!tt.ptr<f32, 3>, #blocked1>
  tt.return %s, %t : f32, tensor<128xf32, #blocked1>
}

// CHECK-LABEL: tt.func @copy(
// CHECK-SAME: %[[SRC:[a-z0-9]+]]: tensor<64x32x!tt.ptr<f16>, #{{.*}}>, %[[DST:[a-z0-9]+]]: tensor<64x32x!tt.ptr<f16>, #{{.*}}>
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16
// global -> shared: load, full-view local pointers, store
// CHECK-NEXT: %[[V:.*]] = tt.load %[[SRC]] : tensor<64x32x!tt.ptr<f16>, #[[L:blocked[0-9]*]]>
// CHECK-NEXT: %[[P:.*]] = iluvatar_tle.local_pointers %[[BUF]] : !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable> -> tensor<64x32x!tt.ptr<f16, 3>, #[[L]]>
// CHECK-NEXT: tt.store %[[P]], %[[V]] : tensor<64x32x!tt.ptr<f16, 3>, #[[L]]>
// shared -> global: full-view local pointers, load, store
// CHECK-NEXT: %[[Q:.*]] = iluvatar_tle.local_pointers %[[BUF]] : !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable> -> tensor<64x32x!tt.ptr<f16, 3>, #[[L]]>
// CHECK-NEXT: %[[W:.*]] = tt.load %[[Q]] : tensor<64x32x!tt.ptr<f16, 3>, #[[L]]>
// CHECK-NEXT: tt.store %[[DST]], %[[W]] : tensor<64x32x!tt.ptr<f16>, #[[L]]>
// CHECK-NEXT: tt.return
tt.func @copy(%src: tensor<64x32x!tt.ptr<f16>, #blocked>, %dst: tensor<64x32x!tt.ptr<f16>, #blocked>) {
  %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  tle.copy %src, %buf shape [64, 32] : tensor<64x32x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  tle.copy %buf, %dst shape [64, 32] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f16>, #blocked>
  tt.return
}

// CHECK-LABEL: tt.func @whole_buffer(
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32
// CHECK-NEXT: ttg.local_store %{{.*}}, %[[BUF]] : tensor<64x32xf32, #{{.*}}> -> !ttg.memdesc<64x32xf32
// CHECK-NEXT: %[[R:.*]] = ttg.local_load %[[BUF]] : !ttg.memdesc<64x32xf32, #{{.*}}, #smem, mutable> -> tensor<64x32xf32, #{{.*}}>
// CHECK-NEXT: tt.return %[[R]]
tt.func @whole_buffer(%v: tensor<64x32xf32, #blocked>) -> tensor<64x32xf32, #blocked> {
  %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  tle.local_store %v, %buf : tensor<64x32xf32, #blocked> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  %r = tle.local_load %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32xf32, #blocked>
  tt.return %r : tensor<64x32xf32, #blocked>
}

// CHECK-LABEL: tt.func @extract_tile(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<64x64xf32, #{{.*}}>, %[[I:[a-z0-9]+]]: i64
// CHECK: %[[T:.*]] = iluvatar_tle.extract_tile %[[X]][3] : tensor<64x64xf32, #[[L:blocked[0-9]*]]> -> tensor<16x32xf32, #[[L]]>
// CHECK: %[[U:.*]] = iluvatar_tle.extract_tile %[[X]][%[[I]]] : tensor<64x64xf32, #[[L]]>, i64 -> tensor<16x32xf32, #[[L]]>
// CHECK: tt.return %[[T]], %[[U]]
tt.func @extract_tile(%x: tensor<64x64xf32, #blocked>, %i: i64) -> (tensor<16x32xf32, #blocked>, tensor<16x32xf32, #blocked>) {
  %t = tle.extract_tile %x[3] tile [16, 32] : tensor<64x64xf32, #blocked> -> tensor<16x32xf32, #blocked>
  %u = tle.extract_tile %x[%i] tile [16, 32] : tensor<64x64xf32, #blocked>, i64 -> tensor<16x32xf32, #blocked>
  tt.return %t, %u : tensor<16x32xf32, #blocked>, tensor<16x32xf32, #blocked>
}

// CHECK-LABEL: tt.func @insert_tile(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<64x64xf32, #{{.*}}>, %[[T:[a-z0-9]+]]: tensor<16x32xf32, #{{.*}}>, %[[I:[a-z0-9]+]]: i32
// CHECK: %[[Y:.*]] = iluvatar_tle.insert_tile %[[T]] into %[[X]][7] : tensor<16x32xf32, #{{.*}}> into tensor<64x64xf32, #{{.*}}>
// CHECK: %[[Z:.*]] = iluvatar_tle.insert_tile %[[T]] into %[[Y]][%[[I]]] : tensor<16x32xf32, #{{.*}}> into tensor<64x64xf32, #{{.*}}>, i32
// CHECK: tt.return %[[Z]]
tt.func @insert_tile(%x: tensor<64x64xf32, #blocked>, %t: tensor<16x32xf32, #blocked>, %i: i32) -> tensor<64x64xf32, #blocked> {
  %y = tle.insert_tile %t into %x[7] : tensor<16x32xf32, #blocked> into tensor<64x64xf32, #blocked>
  %z = tle.insert_tile %t into %y[%i] : tensor<16x32xf32, #blocked> into tensor<64x64xf32, #blocked>, i32
  tt.return %z : tensor<64x64xf32, #blocked>
}

}

// No tle op survives (iluvatar_tle ops do).
// NOTLE-NOT: {{[^_]}}tle.
