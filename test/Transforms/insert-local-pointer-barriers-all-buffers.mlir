// RUN: tle-opt %s --triton-tle-insert-local-pointer-barriers | FileCheck %s --check-prefix=DEFAULT
// RUN: tle-opt %s --triton-tle-insert-local-pointer-barriers=all-buffers=true | FileCheck %s --check-prefix=ALL
// all-buffers=true (the Iluvatar pipeline) also synchronizes memdesc
// buffers, whose tle.copy the Iluvatar lowering turns into pointer accesses.

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// DEFAULT-LABEL: tt.func @copy_then_load(
// DEFAULT-NOT: gpu.barrier
// DEFAULT: tt.return
// ALL-LABEL: tt.func @copy_then_load(
// ALL: tle.copy %{{.*}}, %[[BUF:.*]] shape
// ALL-NEXT: gpu.barrier
// ALL-NEXT: tle.local_load %[[BUF]]
// two reads: no barrier between them
// ALL-NEXT: tle.copy %[[BUF]], %{{.*}} shape
// ALL-NEXT: tt.return
tt.func @copy_then_load(%src: tensor<512x!tt.ptr<f32>, #blocked>, %dst: tensor<512x!tt.ptr<f32>, #blocked>, %v: tensor<512xf32, #blocked>) -> tensor<512xf32, #blocked> {
  %buf = tle.alloc smem : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
  tle.copy %src, %buf shape [512] : tensor<512x!tt.ptr<f32>, #blocked> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
  %x = tle.local_load %buf : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512xf32, #blocked>
  tle.copy %buf, %dst shape [512] : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512x!tt.ptr<f32>, #blocked>
  tt.return %x : tensor<512xf32, #blocked>
}
