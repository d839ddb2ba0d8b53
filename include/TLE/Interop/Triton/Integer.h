//===- Integer.h - Integer attributes as Triton reads them ------*- C++ -*-===//
//
// Triton reads integer attributes with IntegerAttr::getInt(), which asserts
// unless the type is signless or index and the value fits 64 bits (and an
// `i0` has no value to read). Hand-edited IR can hold any integer attribute:
// verifiers and marker readers take the value through this check instead.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_INTEGER_H
#define TLE_INTEROP_TRITON_INTEGER_H

#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace mlir::tle::interop {
/// The value of `attr` when it is an integer of a signless type (at least one
/// bit wide) or of index type whose value fits `bits` bits, sign-extended:
/// `4 : i32`, `4`, `4 : index`. std::nullopt for anything else (`4 : ui32`,
/// `0 : i0`, `2^40 : i64` with `bits` = 32, `4.0`, no attribute).
inline std::optional<int64_t> signlessInt(Attribute attr, unsigned bits = 64) {
  auto integer = dyn_cast_or_null<IntegerAttr>(attr);
  if (!integer)
    return std::nullopt;
  Type type = integer.getType();
  bool signless = type.isIndex() || (type.isSignlessInteger() &&
                                     type.getIntOrFloatBitWidth() > 0);
  if (!signless || integer.getValue().getSignificantBits() > bits)
    return std::nullopt;
  return integer.getValue().getSExtValue();
}
} // namespace mlir::tle::interop

#endif // TLE_INTEROP_TRITON_INTEGER_H
