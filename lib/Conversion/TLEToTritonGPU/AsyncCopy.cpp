//===- AsyncCopy.cpp - what a cp.async can carry --------------------------===//
#include "AsyncCopy.h"

#include "TLE/Interop/Triton/TTG.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/bit.h"

#include <algorithm>

namespace mlir::tle::async_copy {
namespace {

/// Powers of two dividing every value: at most 2^kNone (the value 0).
constexpr unsigned kNone = 62;

unsigned log2Divisor(int64_t v) {
  return v == 0 ? kNone
                : std::min<unsigned>(llvm::countr_zero(uint64_t(v)), kNone);
}

/// An integer (or pointer, in bytes) tensor or scalar as
/// `c + sum_d a_d * i_d`, i_d the element's position along dimension d:
/// 2^constLog2 divides c; 2^coeffLog2[d] divides a_d, and `exact[d]` is a_d
/// when it is a known constant.
struct Terms {
  unsigned constLog2 = 0;
  SmallVector<unsigned> coeffLog2;
  SmallVector<std::optional<int64_t>> exact;

  static Terms uniform(unsigned rank, unsigned constLog2) {
    Terms t;
    t.constLog2 = constLog2;
    t.coeffLog2.assign(rank, kNone);
    t.exact.assign(rank, int64_t(0));
    return t;
  }
  bool isUniform() const {
    return llvm::all_of(exact, [](std::optional<int64_t> a) { return a == 0; });
  }
  /// Every term multiplied by `factor` (2^log2 divides it; `value` when known).
  void scale(unsigned log2, std::optional<int64_t> value) {
    constLog2 = std::min(kNone, constLog2 + log2);
    for (auto [l, e] : llvm::zip_equal(coeffLog2, exact)) {
      l = std::min(kNone, l + log2);
      int64_t product;
      if (e && value && !llvm::MulOverflow(*e, *value, product)) {
        e = product;
        continue;
      }
      if (e != 0)
        e.reset();
    }
  }
};

unsigned rankOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getRank() : 0;
}

std::optional<Terms> termsOf(Value v, unsigned depth = 0);

/// A scalar function argument's `tt.divisibility` (in elements, or bytes
/// for a pointer).
std::optional<Terms> argumentTerms(BlockArgument arg) {
  auto func =
      dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!func || arg.getOwner() != &func.getFunctionBody().front())
    return std::nullopt;
  auto hint =
      func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tt.divisibility");
  return Terms::uniform(0, hint ? log2Divisor(hint.getInt()) : 0);
}

std::optional<Terms> termsOf(Value v, unsigned depth) {
  if (depth > 32)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(v))
    return rankOf(v) == 0 ? argumentTerms(arg) : std::nullopt;
  Operation *op = v.getDefiningOp();
  unsigned rank = rankOf(v);
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant))) {
    if (constant.getSignificantBits() > 63)
      return std::nullopt;
    return Terms::uniform(rank, log2Divisor(constant.getSExtValue()));
  }
  if (auto range = dyn_cast<tt::MakeRangeOp>(op)) {
    Terms t = Terms::uniform(1, log2Divisor(range.getStart()));
    t.coeffLog2[0] = 0;
    t.exact[0] = 1;
    return t;
  }
  if (isa<ttg::ConvertLayoutOp, arith::ExtSIOp, arith::ExtUIOp>(op))
    return termsOf(op->getOperand(0), depth + 1);
  if (auto splat = dyn_cast<tt::SplatOp>(op)) {
    std::optional<Terms> s = termsOf(splat.getSrc(), depth + 1);
    if (!s || rankOf(splat.getSrc()) != 0)
      return std::nullopt;
    return Terms::uniform(rank, s->constLog2);
  }
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    std::optional<Terms> s = termsOf(expand.getSrc(), depth + 1);
    if (!s || expand.getAxis() > s->exact.size())
      return std::nullopt;
    s->coeffLog2.insert(s->coeffLog2.begin() + expand.getAxis(), kNone);
    s->exact.insert(s->exact.begin() + expand.getAxis(), int64_t(0));
    return s;
  }
  if (auto broadcast = dyn_cast<tt::BroadcastOp>(op)) {
    std::optional<Terms> s = termsOf(broadcast.getSrc(), depth + 1);
    if (!s)
      return std::nullopt;
    auto from = cast<RankedTensorType>(broadcast.getSrc().getType());
    for (auto [d, size] : llvm::enumerate(from.getShape()))
      if (size == 1) { // a broadcast dimension does not vary
        s->coeffLog2[d] = kNone;
        s->exact[d] = 0;
      }
    return s;
  }
  bool pointer = isa<tt::AddPtrOp>(op);
  if (pointer || isa<arith::AddIOp, arith::SubIOp>(op)) {
    std::optional<Terms> l = termsOf(op->getOperand(0), depth + 1);
    std::optional<Terms> r = termsOf(op->getOperand(1), depth + 1);
    if (!l || !r || l->exact.size() != r->exact.size())
      return std::nullopt;
    if (pointer) { // the offset counts elements of the pointee
      Type pointee = cast<tt::PointerType>(getElementTypeOrSelf(v.getType()))
                         .getPointeeType();
      if (!pointee.isIntOrFloat() || pointee.getIntOrFloatBitWidth() % 8)
        return std::nullopt;
      int64_t bytes = pointee.getIntOrFloatBitWidth() / 8;
      r->scale(log2Divisor(bytes), bytes);
    }
    bool sub = isa<arith::SubIOp>(op);
    l->constLog2 = std::min(l->constLog2, r->constLog2);
    for (size_t d = 0; d < l->exact.size(); ++d) {
      std::optional<int64_t> sum;
      if (l->exact[d] && r->exact[d])
        sum = sub ? *l->exact[d] - *r->exact[d] : *l->exact[d] + *r->exact[d];
      l->coeffLog2[d] =
          sum ? log2Divisor(*sum) : std::min(l->coeffLog2[d], r->coeffLog2[d]);
      l->exact[d] = sum;
    }
    return l;
  }
  if (isa<arith::MulIOp, arith::ShLIOp>(op)) {
    std::optional<Terms> l = termsOf(op->getOperand(0), depth + 1);
    std::optional<Terms> r = termsOf(op->getOperand(1), depth + 1);
    if (!l || !r)
      return std::nullopt;
    if (isa<arith::ShLIOp>(op)) { // by a constant amount only
      APInt amount;
      if (!matchPattern(op->getOperand(1), m_ConstantInt(&amount)) ||
          amount.getZExtValue() >= 62)
        return std::nullopt;
      l->scale(amount.getZExtValue(), int64_t(1) << amount.getZExtValue());
      return l;
    }
    // One factor uniform (the same for every element): it scales the other.
    Value other = op->getOperand(1);
    if (!r->isUniform()) {
      std::swap(l, r);
      other = op->getOperand(0);
    }
    if (!r->isUniform())
      return std::nullopt;
    APInt factor;
    std::optional<int64_t> value;
    if (matchPattern(other, m_ConstantInt(&factor)) &&
        factor.getSignificantBits() <= 32)
      value = factor.getSExtValue();
    l->scale(r->constLog2, value);
    return l;
  }
  return std::nullopt;
}

} // namespace

bool alignedRuns(tt::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  auto blocked =
      type ? dyn_cast<ttg::BlockedEncodingAttr>(type.getEncoding()) : nullptr;
  if (!blocked || !type.getElementType().isIntOrFloat())
    return false;
  unsigned fast = blocked.getOrder().front();
  int64_t run = blocked.getSizePerThread()[fast];
  int64_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  if (bytes == 0 || type.getShape()[fast] % run)
    return false;
  std::optional<Terms> ptr = termsOf(load.getPtr());
  if (!ptr || ptr->exact.size() != static_cast<size_t>(type.getRank()))
    return false;
  // Consecutive along the fast dimension; every other term a multiple of
  // the run's bytes (a run starts at a multiple of `run` along it).
  unsigned need = log2Divisor(run * bytes);
  if (ptr->exact[fast] != bytes || ptr->constLog2 < need)
    return false;
  for (size_t d = 0; d < ptr->exact.size(); ++d)
    if (d != fast && type.getShape()[d] > 1 && ptr->coeffLog2[d] < need)
      return false;
  return true;
}

} // namespace mlir::tle::async_copy
