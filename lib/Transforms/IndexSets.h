//===- IndexSets.h - element offsets of local-pointer accesses -*- C++ -*-===//
//
// The set of buffer elements a tle.local_pointers tensor points at, as
// `U + C`: U a sum of uniform, loop-invariant i32 scalars times constants
// (the same for every element, every thread and, since it is defined outside
// every loop, every iteration), C the constant offset of each element, all
// modulo 2^32 like the lowering's i32 linear offset (docs/local-memory.md,
// section 4). Two footprints with the same U and disjoint C never touch the
// same element (translation by U is a bijection modulo 2^32 and the lowering
// sign-extends distinct i32 offsets to distinct addresses).
//
//===----------------------------------------------------------------------===//
#ifndef TLE_LIB_TRANSFORMS_INDEXSETS_H
#define TLE_LIB_TRANSFORMS_INDEXSETS_H

#include "mlir/IR/Value.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace mlir::tle {

/// A term of U that is `rem(base + constant, modulus)` (arith.remsi or
/// arith.remui by a power of two): congruent to `base + constant` modulo
/// `modulus`, and in (-modulus, modulus) (in [0, modulus) when unsigned).
struct Residue {
  Value value;
  uint32_t modulus;
  bool isUnsigned;
  /// The base's own terms (sorted like Footprint::terms) and constant.
  std::vector<std::pair<Value, uint32_t>> base;
  uint32_t constant;
};

struct Footprint {
  Value buffer;
  /// U: (uniform scalar, coefficient mod 2^32), sorted by the scalar.
  std::vector<std::pair<Value, uint32_t>> terms;
  /// C: the elements' constant offsets mod 2^32, sorted, without duplicates.
  std::vector<uint32_t> offsets;
  /// The terms of U that are residues (see Residue).
  std::vector<Residue> residues;
  /// Every term has the same value in every CTA of a cluster (built from
  /// constants, kernel arguments, tt.get_num_programs and the induction
  /// variables of loops with such bounds; no program id), so the footprint
  /// means the same elements to every CTA.
  bool ctaIndependent = false;
};

/// Footprints of the accesses of one function; evaluated index tensors are
/// cached across accesses (valid while the IR does not change).
class FootprintAnalysis {
public:
  /// `anyScalar`: every integer scalar of 32 bits or more is a term of U
  /// (the same for every element of one access, which is all
  /// `elementOffsets` needs), not only uniform loop-invariant ones; such an
  /// analysis does not prove accesses disjoint.
  ///
  /// `loopVariant`: U may also hold uniform scalars defined inside scf.for /
  /// scf.while loops (the induction variables of loops with uniform bounds
  /// and what is computed from them): such a footprint compares with another
  /// only within one iteration of those loops (the caller drops it across a
  /// back edge: `definedIn`).
  explicit FootprintAnalysis(int64_t maxElements = 1 << 16,
                             bool anyScalar = false, bool loopVariant = false);
  ~FootprintAnalysis();
  FootprintAnalysis(const FootprintAnalysis &) = delete;
  FootprintAnalysis &operator=(const FootprintAnalysis &) = delete;

  /// The footprint of the pointers `ptr` (a tensor or scalar of pointers
  /// into a shared-memory buffer): `ptr` must come from a
  /// `tle.local_pointers` of a `tle.alloc` with indices, through
  /// `ttg.convert_layout`, `tt.broadcast`, `tt.expand_dims`, `tt.splat`,
  /// `tt.reshape` (no reorder) only. std::nullopt when the offsets are not
  /// of the form above or any tensor on the way has more than
  /// `maxElements` elements.
  std::optional<Footprint> compute(Value ptr);

  /// C of every element of the tensor of pointers `ptr`, row-major over its
  /// shape: `ptr` is a `tle.local_pointers` of a `tle.alloc` with indices,
  /// maybe through `tle.remote_pointers` (another CTA's copy of the same
  /// offsets) and `ttg.convert_layout`. std::nullopt otherwise.
  std::optional<std::vector<int64_t>> elementOffsets(Value ptr);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Whether two footprints provably share no element: the same U and
/// disjoint C, or U differing by k * (r1 - r2) for residues r1, r2 of the
/// same base and modulus whose constants differ modulo it (so r1 != r2:
/// slot `i % 2` against slot `(i + 1) % 2`) and C + k * d disjoint from the
/// other C for every difference d those residues can have. `acrossCTAs`:
/// the two accesses may be made by different CTAs of a cluster (both
/// footprints must then be ctaIndependent).
bool disjoint(const Footprint &a, const Footprint &b, bool acrossCTAs = false);

/// Whether `value` is defined inside `loop` (so it may take another value in
/// the loop's next iteration).
bool definedIn(Value value, Operation *loop);

/// Whether a term of `fp` is defined inside `loop`.
bool definedIn(const Footprint &fp, Operation *loop);

} // namespace mlir::tle

#endif // TLE_LIB_TRANSFORMS_INDEXSETS_H
