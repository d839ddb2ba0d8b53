//===- LowerDSA.cpp - tle.dsa -> memref / linalg / bufferization ----------===//
//
// docs/dsa.md: DSA buffers become memrefs whose memory space is the DSA
// space, copies become memref.copy (of reinterpret_cast views of structured
// global pointers, and subviews for tails), elementwise ops become linalg
// named ops, to_tensor / to_buffer become bufferization ops.
//
//===----------------------------------------------------------------------===//
#include "TLE/Conversion/TLEDSAToLinalg/Passes.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERDSA
#include "TLE/Conversion/TLEDSAToLinalg/Passes.h.inc"

namespace {

/// `offset + sum_d index_d * strides[d]`, in elements, over `index`.
struct Affine {
  OpFoldResult offset;
  SmallVector<OpFoldResult> strides;
};

/// Why a pointer tensor is not structured: the op (or value) at fault.
struct Unstructured {
  Location loc;
  std::string reason;
};

/// Derives the structured form of Triton pointer / offset tensors, building
/// the index arithmetic it needs before the copy.
class PointerAnalysis {
public:
  PointerAnalysis(OpBuilder &builder, Location loc) : b(builder), loc(loc) {}

  /// The scalar base pointer and the affine offsets of `ptrs`.
  FailureOr<std::pair<Value, Affine>> pointer(Value ptrs);

  std::optional<Unstructured> failure;

private:
  FailureOr<Affine> offsets(Value value);
  LogicalResult fail(Value value, const Twine &reason) {
    if (!failure)
      failure = Unstructured{value.getLoc(), reason.str()};
    return mlir::failure();
  }

  OpFoldResult cst(int64_t v) { return b.getIndexAttr(v); }
  static std::optional<int64_t> constant(OpFoldResult v) {
    return getConstantIntValue(v);
  }
  Value materialize(OpFoldResult v) {
    if (auto value = dyn_cast<Value>(v))
      return value;
    return arith::ConstantIndexOp::create(b, loc, *constant(v));
  }
  OpFoldResult add(OpFoldResult x, OpFoldResult y, bool subtract = false) {
    auto cx = constant(x), cy = constant(y);
    if (cx && cy)
      return cst(subtract ? *cx - *cy : *cx + *cy);
    if (cy && *cy == 0)
      return x;
    if (!subtract && cx && *cx == 0)
      return y;
    if (subtract)
      return arith::SubIOp::create(b, loc, materialize(x), materialize(y))
          .getResult();
    return arith::AddIOp::create(b, loc, materialize(x), materialize(y))
        .getResult();
  }
  OpFoldResult mul(OpFoldResult x, OpFoldResult y) {
    auto cx = constant(x), cy = constant(y);
    if (cx && cy)
      return cst(*cx * *cy);
    if ((cx && *cx == 0) || (cy && *cy == 0))
      return cst(0);
    if (cx && *cx == 1)
      return y;
    if (cy && *cy == 1)
      return x;
    return arith::MulIOp::create(b, loc, materialize(x), materialize(y))
        .getResult();
  }
  /// A scalar integer as an index (constants folded).
  OpFoldResult scalar(Value v) {
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return cst(value.getSExtValue());
    if (v.getType().isIndex())
      return v;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult();
  }
  bool isUniform(const Affine &a) {
    return llvm::all_of(a.strides, [](OpFoldResult s) {
      auto c = constant(s);
      return c && *c == 0;
    });
  }
  SmallVector<OpFoldResult> zeros(int64_t rank) {
    return SmallVector<OpFoldResult>(rank, cst(0));
  }

  OpBuilder &b;
  Location loc;
};

int64_t rankOf(Value v) {
  if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
    return tensor.getRank();
  return 0;
}

FailureOr<Affine> PointerAnalysis::offsets(Value value) {
  int64_t rank = rankOf(value);
  if (!isa<RankedTensorType>(value.getType()))
    return Affine{scalar(value), {}};
  Operation *def = value.getDefiningOp();
  if (!def)
    return fail(value, "an offset is a block argument (offsets must be "
                       "computed in the kernel from tt.make_range, splats "
                       "and arithmetic)");
  DenseElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense))) {
    if (!dense.isSplat() || !isa<IntegerType>(dense.getElementType()))
      return fail(value, "a non-splat constant offset tensor is not affine");
    return Affine{cst(dense.getSplatValue<APInt>().getSExtValue()),
                  zeros(rank)};
  }
  if (auto range = dyn_cast<tt::MakeRangeOp>(def))
    return Affine{cst(range.getStart()), {cst(1)}};
  if (auto splat = dyn_cast<tt::SplatOp>(def))
    return Affine{scalar(splat.getSrc()), zeros(rank)};
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(def)) {
    FailureOr<Affine> src = offsets(expand.getSrc());
    if (mlir::failed(src))
      return mlir::failure();
    src->strides.insert(src->strides.begin() + expand.getAxis(), cst(0));
    return src;
  }
  if (auto broadcast = dyn_cast<tt::BroadcastOp>(def))
    return offsets(broadcast.getSrc());
  if (isa<arith::ExtSIOp, arith::ExtUIOp>(def))
    return offsets(def->getOperand(0));
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    bool subtract = isa<arith::SubIOp>(def);
    FailureOr<Affine> lhs = offsets(def->getOperand(0));
    if (mlir::failed(lhs))
      return mlir::failure();
    FailureOr<Affine> rhs = offsets(def->getOperand(1));
    if (mlir::failed(rhs))
      return mlir::failure();
    Affine sum{add(lhs->offset, rhs->offset, subtract), {}};
    for (auto [l, r] : llvm::zip(lhs->strides, rhs->strides))
      sum.strides.push_back(add(l, r, subtract));
    return sum;
  }
  if (auto mulOp = dyn_cast<arith::MulIOp>(def)) {
    FailureOr<Affine> lhs = offsets(mulOp.getLhs());
    if (mlir::failed(lhs))
      return mlir::failure();
    FailureOr<Affine> rhs = offsets(mulOp.getRhs());
    if (mlir::failed(rhs))
      return mlir::failure();
    if (!isUniform(*lhs) && !isUniform(*rhs))
      return fail(value, "a product of two offsets that both vary with the "
                         "element index is not affine");
    if (!isUniform(*lhs))
      std::swap(*lhs, *rhs);
    OpFoldResult factor = lhs->offset;
    Affine product{mul(rhs->offset, factor), {}};
    for (OpFoldResult s : rhs->strides)
      product.strides.push_back(mul(s, factor));
    return product;
  }
  return fail(value, Twine("an offset computed by '") +
                         def->getName().getStringRef() +
                         "' is not affine in the element indices");
}

FailureOr<std::pair<Value, Affine>> PointerAnalysis::pointer(Value ptrs) {
  int64_t rank = rankOf(ptrs);
  if (isa<tt::PointerType>(ptrs.getType()))
    return std::make_pair(ptrs, Affine{cst(0), {}});
  Operation *def = ptrs.getDefiningOp();
  if (!def) {
    (void)fail(ptrs, "the pointer tensor is a block argument");
    return mlir::failure();
  }
  if (auto splat = dyn_cast<tt::SplatOp>(def))
    return std::make_pair(splat.getSrc(), Affine{cst(0), zeros(rank)});
  if (auto broadcast = dyn_cast<tt::BroadcastOp>(def))
    return pointer(broadcast.getSrc());
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(def)) {
    auto src = pointer(expand.getSrc());
    if (mlir::failed(src))
      return mlir::failure();
    src->second.strides.insert(src->second.strides.begin() + expand.getAxis(),
                               cst(0));
    return src;
  }
  if (auto addptr = dyn_cast<tt::AddPtrOp>(def)) {
    auto base = pointer(addptr.getPtr());
    if (mlir::failed(base))
      return mlir::failure();
    FailureOr<Affine> off = offsets(addptr.getOffset());
    if (mlir::failed(off))
      return mlir::failure();
    Affine sum{add(base->second.offset, off->offset), {}};
    for (auto [l, r] : llvm::zip(base->second.strides, off->strides))
      sum.strides.push_back(add(l, r));
    return std::make_pair(base->first, sum);
  }
  (void)fail(ptrs, Twine("pointers computed by '") +
                       def->getName().getStringRef() +
                       "' are not a base pointer plus affine offsets");
  return mlir::failure();
}

MemRefType memrefFor(DSABufferType type) {
  return MemRefType::get(
      type.getShape(), type.getElementType(), MemRefLayoutAttrInterface(),
      DSAAddressSpaceAttr::get(type.getContext(), type.getSpace()));
}

class Lowering {
public:
  explicit Lowering(ModuleOp module) : module(module) {}
  LogicalResult run();

private:
  LogicalResult lower(Operation *op);
  FailureOr<Value> buffer(Operation *user, Value value);
  FailureOr<Value> globalView(DSACopyOp copy, Value ptrs, bool isDest);

  ModuleOp module;
  DenseMap<Value, Value> memrefs;
  SmallVector<Value> deadCandidates;
};

FailureOr<Value> Lowering::buffer(Operation *user, Value value) {
  auto it = memrefs.find(value);
  if (it != memrefs.end())
    return it->second;
  InFlightDiagnostic diag = user->emitError(
      "DSA buffer operand is not the result of tle.dsa.alloc or "
      "tle.dsa.to_buffer (buffers cannot cross block arguments in the DSA "
      "lowering)");
  diag.attachNote(value.getLoc()) << "buffer defined here";
  return failure();
}

FailureOr<Value> Lowering::globalView(DSACopyOp copy, Value ptrs, bool isDest) {
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  PointerAnalysis analysis(b, loc);
  auto structured = analysis.pointer(ptrs);
  if (failed(structured)) {
    InFlightDiagnostic diag = copy.emitError()
                              << "tle.dsa.copy needs structured global "
                                 "pointers (a scalar base pointer plus "
                                 "offsets affine in the element indices): "
                              << analysis.failure->reason;
    diag.attachNote(analysis.failure->loc) << "see here";
    return failure();
  }
  auto [base, affine] = *structured;
  auto tensorType = cast<RankedTensorType>(ptrs.getType());
  Type elementType =
      cast<tt::PointerType>(tensorType.getElementType()).getPointeeType();
  if (isDest) {
    for (auto [dim, stride] : llvm::enumerate(affine.strides)) {
      std::optional<int64_t> c = getConstantIntValue(stride);
      if (c && *c == 0 && tensorType.getDimSize(dim) > 1)
        return copy.emitError()
               << "tle.dsa.copy to global memory through pointers with "
                  "stride 0 in dimension "
               << dim << " writes several elements to one address";
    }
  }
  if (std::optional<int64_t> c = getConstantIntValue(affine.offset);
      c && *c < 0)
    return copy.emitError()
           << "tle.dsa.copy: the pointers start " << -*c
           << " elements before their base pointer; a memref view cannot "
              "(advance the base pointer instead)";
  auto toStatic = [](OpFoldResult v) {
    return getConstantIntValue(v).value_or(ShapedType::kDynamic);
  };
  SmallVector<int64_t> staticStrides;
  for (OpFoldResult s : affine.strides)
    staticStrides.push_back(toStatic(s));
  auto layout = StridedLayoutAttr::get(b.getContext(), toStatic(affine.offset),
                                       staticStrides);
  auto viewType = MemRefType::get(tensorType.getShape(), elementType, layout);
  auto unranked = UnrankedMemRefType::get(elementType, Attribute());
  Value memref =
      UnrealizedConversionCastOp::create(b, loc, unranked, base).getResult(0);
  SmallVector<OpFoldResult> sizes;
  for (int64_t d : tensorType.getShape())
    sizes.push_back(b.getIndexAttr(d));
  deadCandidates.push_back(ptrs);
  return memref::ReinterpretCastOp::create(b, loc, viewType, memref,
                                           affine.offset, sizes, affine.strides)
      .getResult();
}

LogicalResult Lowering::lower(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  if (auto alloc = dyn_cast<DSAAllocOp>(op)) {
    memrefs[alloc.getResult()] =
        memref::AllocOp::create(b, loc, memrefFor(alloc.getResult().getType()));
    return success();
  }
  if (auto toBuffer = dyn_cast<DSAToBufferOp>(op)) {
    if (cast<RankedTensorType>(toBuffer.getSrc().getType()).getEncoding())
      return op->emitError("the DSA lowering runs on TTIR; the tensor has an "
                           "encoding");
    Value m = memref::AllocOp::create(
        b, loc, memrefFor(toBuffer.getResult().getType()));
    bufferization::MaterializeInDestinationOp::create(
        b, loc, TypeRange{}, toBuffer.getSrc(), m, /*restrict=*/false,
        /*writable=*/true);
    memrefs[toBuffer.getResult()] = m;
    return success();
  }
  if (auto toTensor = dyn_cast<DSAToTensorOp>(op)) {
    RankedTensorType type = toTensor.getResult().getType();
    if (type.getEncoding())
      return op->emitError("the DSA lowering runs on TTIR; the result tensor "
                           "has an encoding");
    FailureOr<Value> m = buffer(op, toTensor.getBuffer());
    if (failed(m))
      return failure();
    // restrict: no other to_tensor of this buffer aliases the result.
    bool only =
        llvm::count_if(toTensor.getBuffer().getUsers(),
                       [](Operation *u) { return isa<DSAToTensorOp>(u); }) == 1;
    Value t = bufferization::ToTensorOp::create(b, loc, type, *m, only,
                                                toTensor.getWritable());
    toTensor.getResult().replaceAllUsesWith(t);
    return success();
  }
  if (auto copy = dyn_cast<DSACopyOp>(op)) {
    Value src, dst;
    if (isa<DSABufferType>(copy.getSrc().getType())) {
      FailureOr<Value> m = buffer(op, copy.getSrc());
      if (failed(m))
        return failure();
      src = *m;
    } else {
      FailureOr<Value> v = globalView(copy, copy.getSrc(), /*isDest=*/false);
      if (failed(v))
        return failure();
      src = *v;
    }
    if (isa<DSABufferType>(copy.getDst().getType())) {
      FailureOr<Value> m = buffer(op, copy.getDst());
      if (failed(m))
        return failure();
      dst = *m;
    } else {
      FailureOr<Value> v = globalView(copy, copy.getDst(), /*isDest=*/true);
      if (failed(v))
        return failure();
      dst = *v;
    }
    if (!copy.getSizes().empty()) {
      int64_t rank = copy.getSizes().size();
      SmallVector<OpFoldResult> zeros(rank, b.getIndexAttr(0)),
          ones(rank, b.getIndexAttr(1)), sizes;
      for (Value size : copy.getSizes()) {
        APInt value;
        if (matchPattern(size, m_ConstantInt(&value)))
          sizes.push_back(b.getIndexAttr(value.getSExtValue()));
        else
          sizes.push_back(
              arith::IndexCastOp::create(b, loc, b.getIndexType(), size)
                  .getResult());
      }
      src = memref::SubViewOp::create(b, loc, src, zeros, sizes, ones);
      dst = memref::SubViewOp::create(b, loc, dst, zeros, sizes, ones);
    }
    memref::CopyOp::create(b, loc, src, dst);
    return success();
  }
  auto binary = [&](auto tag) -> LogicalResult {
    using LinalgOp = decltype(tag);
    FailureOr<Value> lhs = buffer(op, op->getOperand(0));
    if (failed(lhs))
      return failure();
    FailureOr<Value> rhs = buffer(op, op->getOperand(1));
    if (failed(rhs))
      return failure();
    FailureOr<Value> out = buffer(op, op->getOperand(2));
    if (failed(out))
      return failure();
    LinalgOp::create(b, loc, ValueRange{*lhs, *rhs}, ValueRange{*out});
    return success();
  };
  if (isa<DSAAddOp>(op))
    return binary(linalg::AddOp());
  if (isa<DSASubOp>(op))
    return binary(linalg::SubOp());
  if (isa<DSAMulOp>(op))
    return binary(linalg::MulOp());
  if (isa<DSADivOp>(op))
    return binary(linalg::DivOp());
  if (isa<DSAMaxOp>(op))
    return binary(linalg::MaxOp());
  if (isa<DSAMinOp>(op))
    return binary(linalg::MinOp());
  return op->emitError("no DSA lowering for '") << op->getName() << "'";
}

LogicalResult Lowering::run() {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (op->getName().getStringRef().starts_with("tle.dsa."))
      ops.push_back(op);
  });
  bool failedAny = false;
  for (Operation *op : ops)
    if (failed(lower(op)))
      failedAny = true;
  if (failedAny)
    return failure();
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  // The pointer tensors only copies used are dead now.
  SmallVector<Operation *> work;
  for (Value v : deadCandidates)
    if (Operation *def = v.getDefiningOp())
      work.push_back(def);
  llvm::SmallPtrSet<Operation *, 16> erased;
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (erased.contains(op) || !isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        work.push_back(def);
    erased.insert(op);
    op->erase();
  }
  return success();
}

struct LowerDSAPass : public impl::TLELowerDSABase<LowerDSAPass> {
  void runOnOperation() override {
    if (failed(Lowering(getOperation()).run()))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tle
