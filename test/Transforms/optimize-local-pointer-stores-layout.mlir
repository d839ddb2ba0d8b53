// RUN: tle-opt %s -split-input-file -triton-tle-optimize-local-pointer-stores | FileCheck %s
// RUN: tle-opt %s -split-input-file -triton-tle-optimize-local-pointer-stores=in-value-encoding=false | FileCheck %s --check-prefix=OFF

// A masked store of a value Triton converted to the pointers' encoding reads,
// selects and writes the buffer in the encoding the value is computed in: the
// mask is recomputed there from its ranges, the convert (a trip through
// shared-memory scratch) is gone.

// OFF-LABEL: tt.func @mma_value(
// OFF: %[[CV:.+]] = ttg.convert_layout %arg0 : tensor<64x128xf16, #{{.+}}> -> tensor<64x128xf16, #[[B:blocked[0-9]*]]>
// OFF: arith.select %{{.+}}, %[[CV]], %{{.+}} : tensor<64x128xi1, #[[B]]>, tensor<64x128xf16, #[[B]]>
// CHECK-LABEL: tt.func @mma_value(
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[R:.+]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[MMA:mma[0-9]*]]}>>
// CHECK: %[[C:.+]] = arith.cmpi slt, %[[R]], %{{.+}} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[MMA]]}>>
// CHECK: %[[E:.+]] = tt.expand_dims %[[C]] {axis = 1 : i32} : tensor<64xi1, #ttg.slice<{dim = 1, parent = #[[MMA]]}>> -> tensor<64x1xi1, #[[MMA]]>
// CHECK: %[[M:.+]] = tt.broadcast %[[E]] : tensor<64x1xi1, #[[MMA]]> -> tensor<64x128xi1, #[[MMA]]>
// CHECK: %[[OLD:.+]] = tle.local_load %{{.+}} : !ttg.memdesc<64x128xf16, #{{.+}}, #smem, mutable> -> tensor<64x128xf16, #[[MMA]]>
// CHECK: %[[NEW:.+]] = arith.select %[[M]], %arg0, %[[OLD]] : tensor<64x128xi1, #[[MMA]]>, tensor<64x128xf16, #[[MMA]]>
// CHECK: tle.local_store %[[NEW]], %{{.+}} : tensor<64x128xf16, #[[MMA]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_value(%v: tensor<64x128xf16, #mma>, %n: i32) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<64x128x!tt.ptr<f16, 3>, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %ns = tt.splat %n : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c = arith.cmpi slt, %r, %ns : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %e = tt.expand_dims %c {axis = 1 : i32} : tensor<64xi1, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi1, #blocked>
    %m = tt.broadcast %e : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %cv = ttg.convert_layout %v : tensor<64x128xf16, #mma> -> tensor<64x128xf16, #blocked>
    tt.store %p, %cv, %m : tensor<64x128x!tt.ptr<f16, 3>, #blocked>
    tt.return
  }
}

// -----

// The mask comes from loaded indices (a 1-D leaf that cannot be recomputed):
// that vector of 64 is converted to the value's encoding (a few hundred bytes
// of scratch) instead of the 64x64 tile, once for both stores using it.

// CHECK-LABEL: tt.func @loaded_leaf(
// CHECK: %[[IDS:.+]] = tt.load %arg1 : tensor<64x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #[[B1:blocked[0-9]*]]}>>
// CHECK-NEXT: %[[MOVED:.+]] = ttg.convert_layout %[[IDS]] : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[B1]]}>> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[B2:blocked[0-9]*]]}>>
// CHECK: arith.cmpi sge, %[[MOVED]], %{{.+}} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[B2]]}>>
// CHECK: %[[OLD:.+]] = tle.local_load %{{.+}} -> tensor<64x64xbf16, #[[B2]]>
// CHECK: arith.select %{{.+}}, %arg0, %[[OLD]] : tensor<64x64xi1, #[[B2]]>, tensor<64x64xbf16, #[[B2]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.cmpi sge, %[[MOVED]], %{{.+}} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[B2]]}>>
// CHECK: arith.select %{{.+}}, %arg0, %{{.+}} : tensor<64x64xi1, #[[B2]]>, tensor<64x64xbf16, #[[B2]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loaded_leaf(%v: tensor<64x64xbf16, #blocked2>, %ip: tensor<64x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #blocked1}>>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64x!tt.ptr<bf16, 3>, #blocked1>
    %ids = tt.load %ip : tensor<64x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %zero = arith.constant dense<0> : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %ok = arith.cmpi sge, %ids, %zero : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %e = tt.expand_dims %ok {axis = 1 : i32} : tensor<64xi1, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi1, #blocked1>
    %m = tt.broadcast %e : tensor<64x1xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
    %cv = ttg.convert_layout %v : tensor<64x64xbf16, #blocked2> -> tensor<64x64xbf16, #blocked1>
    tt.store %p, %cv, %m : tensor<64x64x!tt.ptr<bf16, 3>, #blocked1>
    %buf2 = tle.alloc smem : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
    %p2 = tle.local_pointers %buf2 : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64x!tt.ptr<bf16, 3>, #blocked1>
    tt.store %p2, %cv, %m : tensor<64x64x!tt.ptr<bf16, 3>, #blocked1>
    tt.return
  }
}

// -----

// Left in the pointers' encoding (the convert stays): a mask that is itself a
// loaded 2-D tile (converting it would cost what the value's convert does),
// and a mask whose 1-D leaf is over 1024 elements.

// CHECK-LABEL: tt.func @mask_tile(
// CHECK: %[[CV:.+]] = ttg.convert_layout %arg0
// CHECK: %[[OLD:.+]] = tle.local_load %{{.+}} -> tensor<64x64xbf16, #[[B1:blocked[0-9]*]]>
// CHECK: arith.select %{{.+}}, %[[CV]], %[[OLD]] : tensor<64x64xi1, #[[B1]]>, tensor<64x64xbf16, #[[B1]]>
// CHECK-LABEL: tt.func @big_leaf(
// CHECK: %[[CV:.+]] = ttg.convert_layout %arg0
// CHECK: arith.select %{{.+}}, %[[CV]], %{{.+}} : tensor<2048xi1, #{{.+}}>, tensor<2048xf32, #{{.+}}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#l1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#l2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mask_tile(%v: tensor<64x64xbf16, #blocked2>, %mp: tensor<64x64x!tt.ptr<i1>, #blocked1>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64x!tt.ptr<bf16, 3>, #blocked1>
    %m = tt.load %mp : tensor<64x64x!tt.ptr<i1>, #blocked1>
    %cv = ttg.convert_layout %v : tensor<64x64xbf16, #blocked2> -> tensor<64x64xbf16, #blocked1>
    tt.store %p, %cv, %m : tensor<64x64x!tt.ptr<bf16, 3>, #blocked1>
    tt.return
  }
  tt.func @big_leaf(%v: tensor<2048xf32, #l2>, %ip: tensor<2048x!tt.ptr<i32>, #l1>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<2048xf32, #flat, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<2048xf32, #flat, #smem, mutable> -> tensor<2048x!tt.ptr<f32, 3>, #l1>
    %ids = tt.load %ip : tensor<2048x!tt.ptr<i32>, #l1>
    %zero = arith.constant dense<0> : tensor<2048xi32, #l1>
    %m = arith.cmpi sge, %ids, %zero : tensor<2048xi32, #l1>
    %cv = ttg.convert_layout %v : tensor<2048xf32, #l2> -> tensor<2048xf32, #l1>
    tt.store %p, %cv, %m : tensor<2048x!tt.ptr<f32, 3>, #l1>
    tt.return
  }
}
