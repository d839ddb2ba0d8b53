// RUN: tle-opt %s | tle-opt | FileCheck %s

// tle.async_load round-trips with and without mask / other, in TTIR and TTGIR.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @forms
tt.func @forms(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf32>,
               %q: tensor<512x!tt.ptr<i64>, #blocked>, %n: tensor<512xi1, #blocked>) {
  // CHECK: tle.async_load %{{.*}} : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf32>
  %a = tle.async_load %p : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf32>
  // CHECK: tle.async_load %{{.*}}, %{{.*}} : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  %b = tle.async_load %p, %m : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  // CHECK: tle.async_load %{{.*}}, %{{.*}}, %{{.*}} : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  %c = tle.async_load %p, %m, %o : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  // CHECK: tle.async_load %{{.*}}, %{{.*}} : (tensor<512x!tt.ptr<i64>, #blocked>, tensor<512xi1, #blocked>) -> tensor<512xi64, #blocked>
  %d = tle.async_load %q, %n : (tensor<512x!tt.ptr<i64>, #blocked>, tensor<512xi1, #blocked>) -> tensor<512xi64, #blocked>
  tt.return
}
