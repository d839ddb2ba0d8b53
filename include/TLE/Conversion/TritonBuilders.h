//===- TritonBuilders.h - Plain tt.load / tt.store builders ---------------===//
//
// The TLE → Triton lowerings (NVIDIA and Iluvatar) both build unmasked loads
// and stores without cache hints; one definition serves both.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_CONVERSION_TRITONBUILDERS_H
#define TLE_CONVERSION_TRITONBUILDERS_H

#include "TLE/Interop/Triton/TT.h"
#include "mlir/IR/Builders.h"

namespace mlir::tle {

/// `tt.load %ptrs` (no mask, no cache hints).
inline Value createPlainLoad(OpBuilder &b, Location loc, Value ptrs) {
  MLIRContext *ctx = b.getContext();
  return tt::LoadOp::create(
      b, loc, ptrs, Value(), Value(), b.getDenseI32ArrayAttr({}),
      tt::PaddingOptionAttr(),
      tt::CacheModifierAttr::get(ctx, tt::CacheModifier::NONE),
      tt::EvictionPolicyAttr::get(ctx, tt::EvictionPolicy::NORMAL),
      b.getBoolAttr(false));
}

/// `tt.store %ptrs, %value` (no mask, no cache hints).
inline void createPlainStore(OpBuilder &b, Location loc, Value ptrs,
                             Value value) {
  MLIRContext *ctx = b.getContext();
  tt::StoreOp::create(
      b, loc, ptrs, value, Value(), b.getDenseI32ArrayAttr({}),
      tt::CacheModifierAttr::get(ctx, tt::CacheModifier::NONE),
      tt::EvictionPolicyAttr::get(ctx, tt::EvictionPolicy::NORMAL));
}

} // namespace mlir::tle

#endif // TLE_CONVERSION_TRITONBUILDERS_H
