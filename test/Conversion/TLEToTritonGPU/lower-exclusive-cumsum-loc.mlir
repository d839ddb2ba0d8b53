// RUN: tle-opt %s --triton-tle-lower-exclusive-cumsum --mlir-print-debuginfo | FileCheck %s

// Every op the lowering creates, and every combining-region argument, carries
// the cumsum's location (the user's line, for a raised marker).

// CHECK-DAG:   #[[L:loc[0-9]+]] = loc("kernel.py":12:34)
// CHECK-DAG:   #[[LI:loc[0-9]+]] = loc("kernel.py":20:8)

// CHECK-LABEL: tt.func @f32_2d
// CHECK-NEXT:    arith.constant dense<0.000000e+00> {{.*}} loc(#[[L]])
// CHECK-NEXT:    "tt.scan"
// CHECK-NEXT:    ^bb0(%{{.*}}: f32 loc("kernel.py":12:34), %{{.*}}: f32 loc("kernel.py":12:34), %{{.*}}: f32 loc("kernel.py":12:34), %{{.*}}: f32 loc("kernel.py":12:34)):
// CHECK-NEXT:      arith.addf {{.*}} loc(#[[L]])
// CHECK-NEXT:      arith.addf {{.*}} loc(#[[L]])
// CHECK-NEXT:      tt.scan.return {{.*}} loc(#[[L]])
// CHECK-NEXT:    }) : {{.*}} loc(#[[L]])
// CHECK-NEXT:    arith.addf {{.*}} loc(#[[L]])
// CHECK-NEXT:    tt.make_range {{.*}} loc(#[[L]])
// CHECK-NEXT:    tt.expand_dims {{.*}} loc(#[[L]])
// CHECK-NEXT:    tt.broadcast {{.*}} loc(#[[L]])
// CHECK-NEXT:    arith.constant {{.*}} loc(#[[L]])
// CHECK-NEXT:    arith.cmpi {{.*}} loc(#[[L]])
// CHECK-NEXT:    arith.constant {{.*}} loc(#[[L]])
// CHECK-NEXT:    arith.select {{.*}} loc(#[[L]])
// CHECK-NEXT:    "tt.reduce"
// CHECK-NEXT:    ^bb0(%{{.*}}: f32 loc("kernel.py":12:34), %{{.*}}: f32 loc("kernel.py":12:34)):
// CHECK-NEXT:      arith.addf {{.*}} loc(#[[L]])
// CHECK-NEXT:      tt.reduce.return {{.*}} loc(#[[L]])
// CHECK-NEXT:    }) : {{.*}} loc(#[[L]])
// CHECK-NEXT:    tt.return

// CHECK-LABEL: tt.func @i32_1d
// CHECK-NEXT:    "tt.scan"
// CHECK-NEXT:    ^bb0(%{{.*}}: i32 loc("kernel.py":20:8), %{{.*}}: i32 loc("kernel.py":20:8)):
// CHECK-NEXT:      arith.addi {{.*}} loc(#[[LI]])
// CHECK-NEXT:      tt.scan.return {{.*}} loc(#[[LI]])
// CHECK-NEXT:    }) : {{.*}} loc(#[[LI]])
// CHECK-NEXT:    arith.subi {{.*}} loc(#[[LI]])
// CHECK-NEXT:    "tt.reduce"
// CHECK-NEXT:    ^bb0(%{{.*}}: i32 loc("kernel.py":20:8), %{{.*}}: i32 loc("kernel.py":20:8)):
// CHECK-NEXT:      arith.addi {{.*}} loc(#[[LI]])
// CHECK-NEXT:      tt.reduce.return {{.*}} loc(#[[LI]])
// CHECK-NEXT:    }) : {{.*}} loc(#[[LI]])
// CHECK-NEXT:    tt.return

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f32_2d(%x: tensor<64x32xf32, #b>) -> (tensor<64x32xf32, #b>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #b}>>) {
    %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = false} : tensor<64x32xf32, #b> -> tensor<64x32xf32, #b>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #b}>> loc("kernel.py":12:34)
    tt.return %e, %t : tensor<64x32xf32, #b>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #b}>> loc("kernel.py":13:4)
  }
  tt.func @i32_1d(%x: tensor<64xi32>) -> (tensor<64xi32>, i32) {
    %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = false} : tensor<64xi32> -> tensor<64xi32>, i32 loc("kernel.py":20:8)
    tt.return %e, %t : tensor<64xi32>, i32
  }
}
