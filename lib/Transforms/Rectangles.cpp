//===- Rectangles.cpp - rectangular index sets of local pointers ----------===//
#include "Rectangles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir::tle {
namespace {

/// An integer tensor (or scalar) as `constant + sum_d coeffs[d] * i_d`,
/// i_d the element's position along dimension d.
struct Affine {
  int64_t constant = 0;
  SmallVector<int64_t> coeffs;
};

/// Values far from overflowing i32 index arithmetic (and int64_t here).
bool small(int64_t v) {
  return v > -(int64_t(1) << 40) && v < (int64_t(1) << 40);
}

/// A constant of at most 40 significant bits, as int64_t.
std::optional<int64_t> smallConstant(const APInt &value) {
  if (value.getSignificantBits() > 40)
    return std::nullopt;
  return value.getSExtValue();
}

std::optional<Affine> affine(Value value, unsigned depth = 0) {
  if (depth > 32)
    return std::nullopt;
  auto rank = [&](Value v) -> unsigned {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type ? type.getRank() : 0;
  };
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    Affine a;
    a.coeffs.assign(rank(value), 0);
    std::optional<int64_t> constant;
    if (auto scalar = dyn_cast<IntegerAttr>(cst.getValue()))
      constant = smallConstant(scalar.getValue());
    else if (auto dense = dyn_cast<DenseIntElementsAttr>(cst.getValue());
             dense && dense.isSplat())
      constant = smallConstant(dense.getSplatValue<APInt>());
    if (!constant)
      return std::nullopt;
    a.constant = *constant;
    return a;
  }
  if (auto range = dyn_cast<tt::MakeRangeOp>(op))
    return Affine{range.getStart(), {1}};
  if (auto splat = dyn_cast<tt::SplatOp>(op)) {
    std::optional<Affine> src = affine(splat.getSrc(), depth + 1);
    if (!src || !src->coeffs.empty())
      return std::nullopt;
    src->coeffs.assign(rank(value), 0);
    return src;
  }
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    std::optional<Affine> src = affine(expand.getSrc(), depth + 1);
    if (!src || expand.getAxis() > src->coeffs.size())
      return std::nullopt;
    src->coeffs.insert(src->coeffs.begin() + expand.getAxis(), 0);
    return src;
  }
  if (auto broadcast = dyn_cast<tt::BroadcastOp>(op)) {
    std::optional<Affine> src = affine(broadcast.getSrc(), depth + 1);
    auto from = cast<RankedTensorType>(broadcast.getSrc().getType());
    if (!src)
      return std::nullopt;
    // A dimension of size 1 does not vary however it is broadcast.
    for (auto [d, size] : llvm::enumerate(from.getShape()))
      if (size == 1)
        src->coeffs[d] = 0;
    return src;
  }
  if (auto convert = dyn_cast<ttg::ConvertLayoutOp>(op))
    return affine(convert.getSrc(), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op)) {
    std::optional<Affine> lhs = affine(op->getOperand(0), depth + 1);
    std::optional<Affine> rhs = affine(op->getOperand(1), depth + 1);
    if (!lhs || !rhs || lhs->coeffs.size() != rhs->coeffs.size())
      return std::nullopt;
    Affine out;
    out.coeffs.assign(lhs->coeffs.size(), 0);
    if (isa<arith::MulIOp>(op)) {
      // One side must be a constant (no dimension varies).
      bool lhsConst =
          llvm::all_of(lhs->coeffs, [](int64_t c) { return c == 0; });
      bool rhsConst =
          llvm::all_of(rhs->coeffs, [](int64_t c) { return c == 0; });
      if (!lhsConst && !rhsConst)
        return std::nullopt;
      const Affine &var = lhsConst ? *rhs : *lhs;
      int64_t k = lhsConst ? lhs->constant : rhs->constant;
      // Every term is small (< 2^40), but a product of two may not be.
      std::optional<int64_t> scaled = llvm::checkedMul(var.constant, k);
      if (!scaled)
        return std::nullopt;
      out.constant = *scaled;
      for (auto [o, c] : llvm::zip_equal(out.coeffs, var.coeffs)) {
        std::optional<int64_t> term = llvm::checkedMul(c, k);
        if (!term)
          return std::nullopt;
        o = *term;
      }
    } else {
      bool sub = isa<arith::SubIOp>(op);
      out.constant =
          sub ? lhs->constant - rhs->constant : lhs->constant + rhs->constant;
      for (auto [o, l, r] :
           llvm::zip_equal(out.coeffs, lhs->coeffs, rhs->coeffs))
        o = sub ? l - r : l + r;
    }
    if (!small(out.constant) || !llvm::all_of(out.coeffs, small))
      return std::nullopt;
    return out;
  }
  return std::nullopt;
}

} // namespace

std::optional<SmallVector<int32_t>> rectangleOf(LocalPointersOp ptrs) {
  auto type = dyn_cast<RankedTensorType>(ptrs.getResult().getType());
  ttg::MemDescType buffer = ptrs.getBuffer().getType();
  if (!type || ptrs.getIndices().empty() ||
      type.getRank() != static_cast<int64_t>(buffer.getRank()) ||
      ptrs.getIndices().size() != buffer.getRank())
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int32_t> offsets;
  for (auto [d, index] : llvm::enumerate(ptrs.getIndices())) {
    std::optional<Affine> a = affine(index);
    if (!a || a->coeffs.size() != shape.size())
      return std::nullopt;
    for (auto [e, coeff] : llvm::enumerate(a->coeffs))
      if (shape[e] > 1 && coeff != (e == d ? 1 : 0))
        return std::nullopt;
    if (a->constant < 0 || a->constant + shape[d] > buffer.getShape()[d])
      return std::nullopt;
    offsets.push_back(static_cast<int32_t>(a->constant));
  }
  bool whole = shape == buffer.getShape() &&
               llvm::all_of(offsets, [](int32_t o) { return o == 0; });
  if (!whole && ttg::subsliceProblem(buffer, shape, offsets))
    return std::nullopt;
  return offsets;
}

Value buildRectangleView(OpBuilder &builder, Location loc, Value buffer,
                         ArrayRef<int64_t> shape, ArrayRef<int32_t> offsets) {
  auto type = cast<ttg::MemDescType>(buffer.getType());
  if (type.getShape() == shape &&
      llvm::all_of(offsets, [](int32_t o) { return o == 0; }))
    return buffer;
  auto view = ttg::MemDescType::get(
      shape, type.getElementType(), type.getEncoding(), type.getMemorySpace(),
      type.getMutableMemory(), type.getAllocShape());
  return ttg::MemDescSubsliceOp::create(builder, loc, view, buffer,
                                        builder.getDenseI32ArrayAttr(offsets));
}

} // namespace mlir::tle
