//===- Rematerializer.h - recompute index and mask tensors in an encoding -===//
//
// Integer and i1 tensors that only index or mask an access (offsets, masks)
// are cheap to compute again in another register encoding from their leaves,
// where a ttg.convert_layout of them would cost a shared-memory round trip.
// triton-tle-select-encodings moves pointer views to a value's encoding with
// it; triton-tle-optimize-local-pointer-stores moves masked stores.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TRANSFORMS_REMATERIALIZER_H
#define TLE_TRANSFORMS_REMATERIALIZER_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tle {

/// Whether `encoding` is one index chains are recomputed in for local
/// pointers: a blocked layout, or a linear one (then without tt.expand_dims
/// on the way). Masks are recomputed in NVIDIA MMA layouts too
/// (isMaskRematTarget).
bool isRematTarget(Attribute encoding);
bool isMaskRematTarget(Attribute encoding);

/// Recomputes an integer (or i1) tensor in another encoding from its leaves
/// -- constants, `tt.splat`, `tt.make_range` -- through elementwise arith
/// ops, `tt.broadcast`, `tt.expand_dims` and converts (looked through), at
/// most `kBudget` new ops. With `convertLeaves`, a 1-D leaf it cannot
/// recompute (a loaded index vector, say) of at most kMaxConvertedLeaf
/// elements is converted to the encoding instead (a ttg.convert_layout of a
/// few hundred bytes, where the caller saves the convert of a whole tile),
/// right after the leaf's definition: `leafConverts`, when given, keeps
/// them for other Rematerializers to reuse.
/// Probe with possible() first: nothing is created unless the whole chain
/// can be.
class Rematerializer {
public:
  static constexpr unsigned kBudget = 64;
  static constexpr int64_t kMaxConvertedLeaf = 1024;
  using Cache = DenseMap<std::pair<Value, Attribute>, Value>;
  explicit Rematerializer(OpBuilder &builder, bool convertLeaves = false,
                          Cache *leafConverts = nullptr)
      : builder(builder), convertLeaves(convertLeaves),
        leafConverts(leafConverts) {}

  bool possible(Value value, Attribute encoding) {
    unsigned budget = kBudget;
    return walk(value, encoding, budget, /*build=*/false) != nullptr;
  }
  Value build(Value value, Attribute encoding) {
    unsigned budget = kBudget;
    return walk(value, encoding, budget, /*build=*/true);
  }

private:
  OpBuilder &builder;
  bool convertLeaves;
  Cache *leafConverts;
  Cache built;

  Value walk(Value value, Attribute encoding, unsigned &budget, bool build);
  Value convertLeaf(Value value, Attribute encoding, bool build);
};

} // namespace mlir::tle

#endif // TLE_TRANSFORMS_REMATERIALIZER_H
