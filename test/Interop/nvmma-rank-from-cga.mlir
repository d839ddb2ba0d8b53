// RUN: tle-opt %s | FileCheck %s

// With a CGALayout, Triton 3.6 prints an NVMMA layout without its `rank`: the
// CGALayout bases have one entry per dimension (Triton printed this one for a
// Gluon NVMMASharedLayout(128, 8, rank=3, fp4_padded=True) with num_ctas=4).
// TLE takes the rank from the bases and prints the layout back the same way.
// (Triton 3.6's own parser assumes rank 2 here and rejects this text.)

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true, CGALayout = [[0, 1, 0], [0, 0, 1]]}>
#smem = #ttg.shared_memory

// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true, CGALayout = {{\[\[}}0, 1, 0], [0, 0, 1]]}>
// CHECK: func.func @f(%arg0: !ttg.memdesc<2x64x64xi8, #shared, #smem, mutable>)
func.func @f(%a: !ttg.memdesc<2x64x64xi8, #shared, #smem, mutable>) {
  return
}
