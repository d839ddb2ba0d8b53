// RUN: tle-opt %s -split-input-file -verify-diagnostics

tt.func @shared_pointers(%p: tensor<128x!tt.ptr<f32, 3>>) {
  // expected-error @+1 {{expects pointers into global memory (address space 1), got address space 3}}
  %a = tle.async_load %p : (tensor<128x!tt.ptr<f32, 3>>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @not_pointers(%p: tensor<128xi64>) {
  // expected-error @+1 {{expects a tensor of pointers, got 'tensor<128xi64>'}}
  %a = tle.async_load %p : (tensor<128xi64>) -> tensor<128xi64>
  tt.return
}

// -----

tt.func @wrong_result(%p: tensor<128x!tt.ptr<f32>>) {
  // expected-error @+1 {{result element type 'f16' must be 'f32'}}
  %a = tle.async_load %p : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf16>
  tt.return
}

// -----

tt.func @wrong_result_shape(%p: tensor<128x!tt.ptr<f32>>) {
  // expected-error @+1 {{result shape [64] must equal the pointer shape [128]}}
  %a = tle.async_load %p : (tensor<128x!tt.ptr<f32>>) -> tensor<64xf32>
  tt.return
}

// -----

tt.func @mask_not_i1(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi32>) {
  // expected-error @+1 {{mask element type 'i32' must be 'i1'}}
  %a = tle.async_load %p, %m : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @mask_shape(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<64xi1>) {
  // expected-error @+1 {{mask shape [64] must equal the pointer shape [128]}}
  %a = tle.async_load %p, %m : (tensor<128x!tt.ptr<f32>>, tensor<64xi1>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @other_type(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xi32>) {
  // expected-error @+1 {{other element type 'i32' must be 'f32'}}
  %a = tle.async_load %p, %m, %o : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xf32>
  tt.return
}

// -----

tt.func @other_without_mask(%p: tensor<128x!tt.ptr<f32>>, %o: tensor<128xf32>) {
  // expected-error @+1 {{'other' needs a mask}}
  %a = "tle.async_load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @mask_encoding(%p: tensor<512x!tt.ptr<f32>, #blocked>, %m: tensor<512xi1, #blocked1>) {
  // expected-error @+1 {{mask encoding #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> must equal the pointer encoding}}
  %a = tle.async_load %p, %m : (tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi1, #blocked1>) -> tensor<512xf32, #blocked>
  tt.return
}
