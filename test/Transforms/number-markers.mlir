// RUN: tle-opt %s --triton-tle-number-markers | FileCheck %s
// RUN: tle-opt %s --triton-tle-number-markers --triton-tle-number-markers -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Every marker gets its own number, after the largest one already given (a
// second run numbers nothing); other inline asm gets none.
// STATS: TLENumberMarkers
// STATS-NEXT: (S) 2 numbered
// STATS: TLENumberMarkers
// STATS-NEXT: (S) 0 numbered
module {
  // CHECK-LABEL: tt.func @markers(
  // CHECK: "tle.wgmma_shared_operand_fence {tle.marker.no_results = true}" {{.*}}tle.marker.id = 4 : i64
  // CHECK: "tle.wgmma_wait {pendings = 0 : i32}" {{.*}}tle.marker.id = 3 : i64
  // CHECK: "tle.wgmma_wait {pendings = 1 : i32}" {{.*}}tle.marker.id = 5 : i64
  // CHECK: "mov.b32 $0, $1;"
  // CHECK-NOT: tle.marker.id
  // CHECK: tt.return
  tt.func @markers(%a: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
    %0 = tt.elementwise_inline_asm "tle.wgmma_shared_operand_fence {tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    %1 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tle.marker.id = 3 : i64} %a : tensor<64xf32> -> tensor<64xf32>
    %2 = tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 1 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %a : tensor<64xf32> -> tensor<64xf32>
    %3 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %a : tensor<64xf32> -> tensor<64xf32>
    tt.return %1, %2, %3 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  }
}
