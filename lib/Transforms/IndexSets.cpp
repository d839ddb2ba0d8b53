//===- IndexSets.cpp - element offsets of local-pointer accesses ----------===//
//
// See IndexSets.h. The index expressions are evaluated element by element:
// constants exactly (at their integer width), uniform scalars symbolically
// (only through +, -, * and << by a uniform constant, modulo 2^32).
//
//===----------------------------------------------------------------------===//
#include "IndexSets.h"

#include "TLE/Dialect/TLE/IR/TLE.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

namespace mlir::tle {
namespace {

/// `v`'s low `width` bits, sign-extended.
int64_t wrap(int64_t v, unsigned width) {
  if (width >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (u >> (width - 1))
    u |= ~mask;
  return int64_t(u);
}

uint64_t unsignedOf(int64_t v, unsigned width) {
  if (width >= 64)
    return uint64_t(v);
  return uint64_t(v) & ((uint64_t(1) << width) - 1);
}

using Terms = std::vector<std::pair<Value, uint32_t>>;

/// An integer tensor (or scalar: empty shape) as `terms + elems`. Without
/// terms, `elems` are exact values of width `width` (sign-extended); with
/// terms, only their low 32 bits mean anything.
struct Affine {
  SmallVector<int64_t> shape;
  std::vector<int64_t> elems;
  Terms terms;
  unsigned width = 32;
  bool symbolic() const { return !terms.empty(); }
  bool uniform() const {
    return std::all_of(elems.begin(), elems.end(),
                       [&](int64_t v) { return v == elems.front(); });
  }
};

Terms addTerms(const Terms &a, const Terms &b, uint32_t scaleB) {
  Terms out;
  size_t i = 0, j = 0;
  auto less = [](Value x, Value y) {
    return x.getAsOpaquePointer() < y.getAsOpaquePointer();
  };
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && less(a[i].first, b[j].first))) {
      out.push_back(a[i++]);
    } else if (i == a.size() || less(b[j].first, a[i].first)) {
      out.push_back({b[j].first, uint32_t(b[j].second * scaleB)});
      ++j;
    } else {
      out.push_back({a[i].first, uint32_t(a[i].second + b[j].second * scaleB)});
      ++i;
      ++j;
    }
    if (out.back().second == 0)
      out.pop_back();
  }
  return out;
}

class Evaluator {
public:
  Evaluator(int64_t maxElements, bool anyScalar, bool loopVariant)
      : maxElements(maxElements), anyScalar(anyScalar),
        loopVariant(loopVariant) {}

  std::optional<Affine> eval(Value value) {
    auto it = cache.find(value);
    if (it != cache.end())
      return it->second;
    std::optional<Affine> result = evalUncached(value);
    if (result && int64_t(result->elems.size()) > maxElements)
      result = std::nullopt;
    cache[value] = result;
    return result;
  }

private:
  int64_t maxElements;
  bool anyScalar, loopVariant;
  DenseMap<Value, std::optional<Affine>> cache;
  /// sameScalar's, within a CTA [0] and across a cluster's CTAs [1].
  DenseMap<Value, bool> sameCache[2];

  static unsigned widthOf(Type type) {
    Type element = getElementTypeOrSelf(type);
    if (element.isIndex())
      return 64;
    if (auto integer = dyn_cast<IntegerType>(element))
      return integer.getWidth();
    return 0;
  }

  static SmallVector<int64_t> shapeOf(Type type) {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return SmallVector<int64_t>(tensor.getShape());
    return {};
  }

  static int64_t numElements(ArrayRef<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }

  /// Defined outside every loop (and every region op other than scf.if) of
  /// its function: one value per function invocation.
  static bool loopInvariant(Value value) {
    Region *region = value.getParentRegion();
    while (region) {
      Operation *parent = region->getParentOp();
      if (!parent || isa<FunctionOpInterface>(parent))
        return true;
      if (!isa<scf::IfOp>(parent))
        return false;
      region = parent->getParentRegion();
    }
    return false;
  }

  /// Defined in scf.if, scf.for and scf.while regions only (one value per
  /// iteration of the loops around it).
  static bool structured(Value value) {
    for (Region *region = value.getParentRegion(); region;) {
      Operation *parent = region->getParentOp();
      if (!parent || isa<FunctionOpInterface>(parent))
        return true;
      if (!isa<scf::IfOp, scf::ForOp, scf::WhileOp>(parent))
        return false;
      region = parent->getParentRegion();
    }
    return false;
  }

  /// A scalar with the same value in every thread of the program (in the
  /// same iteration of the loops it is defined in): a function argument, a
  /// constant, tt.get_program_id, tt.get_num_programs, the induction
  /// variable of an scf.for with such lower bound and step, and
  /// side-effect-free arith of those. `acrossCTAs`: the same in every CTA
  /// of a cluster too (no program id).
  bool sameScalar(Value value, bool acrossCTAs) {
    if (isa<ShapedType>(value.getType()) || !widthOf(value.getType()))
      return false;
    DenseMap<Value, bool> &cache = sameCache[acrossCTAs];
    auto it = cache.find(value);
    if (it != cache.end())
      return it->second;
    cache[value] = false; // cycles: not the same
    bool same = false;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *parent = arg.getOwner()->getParentOp();
      same = isa<FunctionOpInterface>(parent) && arg.getOwner()->isEntryBlock();
      if (auto loop = dyn_cast<scf::ForOp>(parent))
        same = arg.getArgNumber() == 0 &&
               sameScalar(loop.getLowerBound(), acrossCTAs) &&
               sameScalar(loop.getStep(), acrossCTAs);
    } else {
      Operation *op = value.getDefiningOp();
      if (isa<tt::GetNumProgramsOp, arith::ConstantOp>(op) ||
          (!acrossCTAs && isa<tt::GetProgramIdOp>(op)))
        same = true;
      else if (op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
               op->getDialect() && op->getDialect()->getNamespace() == "arith")
        same = llvm::all_of(op->getOperands(), [&](Value operand) {
          return sameScalar(operand, acrossCTAs);
        });
    }
    cache[value] = same;
    return same;
  }
  bool uniformScalar(Value value) { return sameScalar(value, false); }

  std::optional<Affine> atom(Value value) {
    unsigned width = widthOf(value.getType());
    if (width < 32 || isa<ShapedType>(value.getType()))
      return std::nullopt;
    if (!anyScalar &&
        (!uniformScalar(value) ||
         !(loopInvariant(value) || (loopVariant && structured(value)))))
      return std::nullopt;
    Affine a;
    a.width = width;
    a.elems = {0};
    a.terms = {{value, 1u}};
    return a;
  }

  std::optional<Affine> evalUncached(Value value) {
    unsigned width = widthOf(value.getType());
    if (!width)
      return std::nullopt;
    Operation *op = value.getDefiningOp();
    std::optional<Affine> result;
    if (op)
      result = evalOp(op, value, width);
    if (!result)
      result = atom(value);
    return result;
  }

  std::optional<Affine> evalConstant(arith::ConstantOp constant, Value value,
                                     unsigned width) {
    Affine a;
    a.width = width;
    a.shape = shapeOf(value.getType());
    if (auto integer = dyn_cast<IntegerAttr>(constant.getValue())) {
      a.elems = {wrap(integer.getValue().getSExtValue(), width)};
      return a;
    }
    auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!dense || width > 64)
      return std::nullopt;
    int64_t n = numElements(a.shape);
    if (n > maxElements)
      return std::nullopt;
    if (dense.isSplat()) {
      a.elems.assign(n,
                     wrap(dense.getSplatValue<APInt>().getSExtValue(), width));
      return a;
    }
    for (const APInt &v : dense.getValues<APInt>())
      a.elems.push_back(wrap(v.getSExtValue(), width));
    return a;
  }

  /// Element `index` (row-major in `to`) of a tensor of shape `from`
  /// broadcast to `to`.
  static int64_t broadcastIndex(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                                int64_t index) {
    int64_t src = 0, stride = 1;
    for (int d = int(to.size()) - 1; d >= 0; --d) {
      int64_t coord = index % to[d];
      index /= to[d];
      if (from[d] != 1)
        src += coord * stride;
      stride *= from[d];
    }
    return src;
  }

  std::optional<Affine> binary(Operation *op, unsigned width) {
    std::optional<Affine> lhs = eval(op->getOperand(0));
    if (!lhs)
      return std::nullopt;
    std::optional<Affine> rhs = eval(op->getOperand(1));
    if (!rhs || lhs->elems.size() != rhs->elems.size())
      return std::nullopt;
    Affine a;
    a.width = width;
    a.shape = lhs->shape;
    size_t n = lhs->elems.size();
    a.elems.resize(n);
    bool symbolic = lhs->symbolic() || rhs->symbolic();
    if (symbolic && width < 32)
      return std::nullopt;
    // Symbolic operands: +, -, and * / << by a uniform constant, mod 2^32.
    if (symbolic) {
      if (isa<arith::AddIOp, arith::SubIOp>(op)) {
        bool sub = isa<arith::SubIOp>(op);
        a.terms = addTerms(lhs->terms, rhs->terms, sub ? uint32_t(-1) : 1u);
        for (size_t i = 0; i < n; ++i)
          a.elems[i] =
              sub ? int64_t(uint64_t(lhs->elems[i]) - uint64_t(rhs->elems[i]))
                  : int64_t(uint64_t(lhs->elems[i]) + uint64_t(rhs->elems[i]));
        return a;
      }
      if (isa<arith::MulIOp, arith::ShLIOp>(op)) {
        const Affine *sym = lhs->symbolic() ? &*lhs : &*rhs;
        const Affine *k = lhs->symbolic() ? &*rhs : &*lhs;
        if (k->symbolic() || !k->uniform() ||
            (isa<arith::ShLIOp>(op) && k != &*rhs))
          return std::nullopt;
        uint64_t factor = uint64_t(k->elems.front());
        if (isa<arith::ShLIOp>(op)) {
          if (k->elems.front() < 0 || k->elems.front() >= int64_t(width))
            return std::nullopt;
          factor = k->elems.front() >= 32 ? 0 : uint64_t(1) << k->elems.front();
        }
        a.terms = addTerms({}, sym->terms, uint32_t(factor));
        for (size_t i = 0; i < n; ++i)
          a.elems[i] = int64_t(uint64_t(sym->elems[i]) * factor);
        return a;
      }
      return std::nullopt;
    }
    for (size_t i = 0; i < n; ++i) {
      int64_t x = lhs->elems[i], y = rhs->elems[i];
      uint64_t ux = unsignedOf(x, width), uy = unsignedOf(y, width);
      int64_t r;
      if (isa<arith::AddIOp>(op))
        r = int64_t(uint64_t(x) + uint64_t(y));
      else if (isa<arith::SubIOp>(op))
        r = int64_t(uint64_t(x) - uint64_t(y));
      else if (isa<arith::MulIOp>(op))
        r = int64_t(uint64_t(x) * uint64_t(y));
      else if (isa<arith::DivSIOp, arith::RemSIOp>(op)) {
        if (y == 0 || (width == 64 && x == INT64_MIN && y == -1) ||
            (width < 64 && x == wrap(int64_t(1) << (width - 1), width) &&
             y == -1))
          return std::nullopt;
        r = isa<arith::DivSIOp>(op) ? x / y : x % y;
      } else if (isa<arith::DivUIOp, arith::RemUIOp>(op)) {
        if (uy == 0)
          return std::nullopt;
        r = int64_t(isa<arith::DivUIOp>(op) ? ux / uy : ux % uy);
      } else if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op)) {
        if (uy >= width)
          return std::nullopt;
        if (isa<arith::ShLIOp>(op))
          r = int64_t(ux << uy);
        else if (isa<arith::ShRSIOp>(op))
          r = x >> uy;
        else
          r = int64_t(ux >> uy);
      } else if (isa<arith::AndIOp>(op))
        r = x & y;
      else if (isa<arith::OrIOp>(op))
        r = x | y;
      else if (isa<arith::XOrIOp>(op))
        r = x ^ y;
      else if (isa<arith::MinSIOp>(op))
        r = std::min(x, y);
      else if (isa<arith::MaxSIOp>(op))
        r = std::max(x, y);
      else if (isa<arith::MinUIOp>(op))
        r = ux < uy ? x : y;
      else if (isa<arith::MaxUIOp>(op))
        r = ux < uy ? y : x;
      else
        return std::nullopt;
      a.elems[i] = wrap(r, width);
    }
    return a;
  }

  std::optional<Affine> evalOp(Operation *op, Value value, unsigned width) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      return evalConstant(constant, value, width);
    if (auto range = dyn_cast<tt::MakeRangeOp>(op)) {
      Affine a;
      a.shape = shapeOf(value.getType());
      int64_t start = range.getStart(), end = range.getEnd();
      if (end - start > maxElements)
        return std::nullopt;
      for (int64_t v = start; v < end; ++v)
        a.elems.push_back(v);
      return a;
    }
    if (auto splat = dyn_cast<tt::SplatOp>(op)) {
      std::optional<Affine> src = eval(splat.getSrc());
      SmallVector<int64_t> shape = shapeOf(value.getType());
      if (!src || numElements(shape) > maxElements)
        return std::nullopt;
      Affine a = *src;
      a.shape = shape;
      a.elems.assign(numElements(shape), src->elems.front());
      return a;
    }
    if (auto broadcast = dyn_cast<tt::BroadcastOp>(op)) {
      std::optional<Affine> src = eval(broadcast.getSrc());
      SmallVector<int64_t> shape = shapeOf(value.getType());
      int64_t n = numElements(shape);
      if (!src || n > maxElements || src->shape.size() != shape.size())
        return std::nullopt;
      Affine a = *src;
      a.shape = shape;
      a.elems.resize(n);
      for (int64_t i = 0; i < n; ++i)
        a.elems[i] = src->elems[broadcastIndex(src->shape, shape, i)];
      return a;
    }
    if (isa<tt::ExpandDimsOp, ttg::ConvertLayoutOp>(op) ||
        (isa<tt::ReshapeOp>(op) &&
         !cast<tt::ReshapeOp>(op).getAllowReorder())) {
      std::optional<Affine> src = eval(op->getOperand(0));
      if (!src)
        return std::nullopt;
      Affine a = *src;
      a.shape = shapeOf(value.getType());
      return a;
    }
    if (auto join = dyn_cast<tt::JoinOp>(op)) {
      std::optional<Affine> lhs = eval(join.getLhs());
      std::optional<Affine> rhs = eval(join.getRhs());
      if (!lhs || !rhs || lhs->terms != rhs->terms)
        return std::nullopt;
      Affine a = *lhs;
      a.shape = shapeOf(value.getType());
      a.elems.clear();
      for (size_t i = 0; i < lhs->elems.size(); ++i) {
        a.elems.push_back(lhs->elems[i]);
        a.elems.push_back(rhs->elems[i]);
      }
      return a;
    }
    if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(op)) {
      std::optional<Affine> src = eval(op->getOperand(0));
      if (!src)
        return std::nullopt;
      Affine a = *src;
      a.width = width;
      if (src->symbolic()) {
        // Mod 2^32 these are the identity, provided both widths are >= 32.
        if (src->width < 32 || width < 32)
          return std::nullopt;
        return a;
      }
      for (int64_t &v : a.elems)
        v = isa<arith::ExtUIOp>(op) ? int64_t(unsignedOf(v, src->width))
                                    : wrap(v, width);
      return a;
    }
    if (op->getNumOperands() == 2 && op->getNumResults() == 1 &&
        op->getDialect() && op->getDialect()->getNamespace() == "arith")
      return binary(op, width);
    return std::nullopt;
  }

public:
  /// A scalar with the same value in every CTA of a cluster (in the same
  /// iteration of the loops it is defined in; see sameScalar).
  bool ctaIndependent(Value value) { return sameScalar(value, true); }

  /// `term` as a Residue, when it is arith.remsi / arith.remui of a scalar
  /// by a power-of-two constant (2^31 at most).
  std::optional<Residue> residue(Value term) {
    Operation *op = term.getDefiningOp();
    if (!isa_and_nonnull<arith::RemSIOp, arith::RemUIOp>(op))
      return std::nullopt;
    std::optional<Affine> modulus = eval(op->getOperand(1));
    std::optional<Affine> base = eval(op->getOperand(0));
    if (!modulus || modulus->symbolic() || modulus->elems.size() != 1 ||
        !base || base->elems.size() != 1 || base->width < 32)
      return std::nullopt;
    int64_t m = modulus->elems.front();
    if (m < 2 || m > (int64_t(1) << 31) || (m & (m - 1)))
      return std::nullopt;
    return Residue{term, uint32_t(m), isa<arith::RemUIOp>(op), base->terms,
                   uint32_t(uint64_t(base->elems.front()))};
  }

  /// The i32 linear offsets of `view`'s elements, as the lowering computes
  /// them: `sum(toI32(index[d]) * stride[d])`. For an NVMMA-shared buffer
  /// (swizzled within each tile of its last two dimensions, the tiles at
  /// row-major strides), the row-major logical offsets instead: a bijection
  /// of the in-bounds indices onto the buffer's elements, which is all a
  /// disjointness proof needs (an out-of-bounds local pointer is undefined).
  std::optional<Affine> linearOffsets(LocalPointersOp view) {
    auto memdesc = cast<ttg::MemDescType>(view.getBuffer().getType());
    auto shared = dyn_cast_or_null<ttg::SwizzledSharedEncodingAttr>(
        memdesc.getEncoding());
    bool nvmma =
        isa_and_nonnull<ttg::NVMMASharedEncodingAttr>(memdesc.getEncoding());
    if ((!nvmma && (!shared || shared.getMaxPhase() != 1 ||
                    shared.getOrder().size() != memdesc.getShape().size())) ||
        view.getIndices().empty() ||
        view.getIndices().size() != memdesc.getShape().size())
      return std::nullopt;
    SmallVector<int64_t> strides(memdesc.getRank(), 1);
    int64_t stride = 1;
    SmallVector<unsigned> order;
    if (nvmma)
      for (int dim = memdesc.getRank() - 1; dim >= 0; --dim)
        order.push_back(dim);
    else
      order.assign(shared.getOrder().begin(), shared.getOrder().end());
    for (unsigned dim : order) {
      strides[dim] = stride;
      stride *= memdesc.getShape()[dim];
    }
    std::optional<Affine> sum;
    for (auto [dim, index] : llvm::enumerate(view.getIndices())) {
      std::optional<Affine> term = eval(index);
      if (!term)
        return std::nullopt;
      if (term->symbolic() && term->width < 32)
        return std::nullopt;
      // toI32: truncate wider indices, sign-extend narrower (constant) ones.
      for (int64_t &v : term->elems)
        v = term->width < 32 ? v : wrap(v, 32);
      uint32_t s = uint32_t(strides[dim]);
      term->terms = addTerms({}, term->terms, s);
      for (int64_t &v : term->elems)
        v = wrap(int64_t(uint64_t(v) * s), 32);
      term->width = 32;
      if (!sum) {
        sum = std::move(term);
        continue;
      }
      if (sum->elems.size() != term->elems.size())
        return std::nullopt;
      sum->terms = addTerms(sum->terms, term->terms, 1u);
      for (size_t i = 0; i < sum->elems.size(); ++i)
        sum->elems[i] = wrap(sum->elems[i] + term->elems[i], 32);
    }
    return sum;
  }
};

} // namespace

struct FootprintAnalysis::Impl {
  Impl(int64_t maxElements, bool anyScalar, bool loopVariant)
      : evaluator(maxElements, anyScalar, loopVariant) {}
  Evaluator evaluator;
};

FootprintAnalysis::FootprintAnalysis(int64_t maxElements, bool anyScalar,
                                     bool loopVariant)
    : impl(std::make_unique<Impl>(maxElements, anyScalar, loopVariant)) {}

std::optional<std::vector<int64_t>>
FootprintAnalysis::elementOffsets(Value ptr) {
  while (Operation *op = ptr.getDefiningOp()) {
    if (isa<ttg::ConvertLayoutOp>(op))
      ptr = op->getOperand(0);
    else if (auto remote = dyn_cast<RemotePointersOp>(op))
      ptr = remote.getSrc();
    else
      break;
  }
  auto view = ptr.getDefiningOp<LocalPointersOp>();
  if (!view || !view.getBuffer().getDefiningOp<AllocOp>() ||
      !isa<RankedTensorType>(view.getType()))
    return std::nullopt;
  std::optional<Affine> offsets = impl->evaluator.linearOffsets(view);
  if (!offsets || int64_t(offsets->elems.size()) !=
                      cast<RankedTensorType>(view.getType()).getNumElements())
    return std::nullopt;
  return std::move(offsets->elems);
}
FootprintAnalysis::~FootprintAnalysis() = default;

std::optional<Footprint> FootprintAnalysis::compute(Value ptr) {
  // Ops that only rearrange or replicate pointers keep the set of elements
  // (tle.remote_pointers: the same elements of another CTA's buffer).
  while (Operation *op = ptr.getDefiningOp()) {
    if (isa<ttg::ConvertLayoutOp, tt::BroadcastOp, tt::ExpandDimsOp,
            tt::SplatOp, RemotePointersOp>(op) ||
        (isa<tt::ReshapeOp>(op) && !cast<tt::ReshapeOp>(op).getAllowReorder()))
      ptr = op->getOperand(0);
    else
      break;
  }
  auto view = ptr.getDefiningOp<LocalPointersOp>();
  // The buffer itself (a buffer value carried by a loop or picked by a
  // select may be another buffer each time).
  if (!view || !view.getBuffer().getDefiningOp<AllocOp>())
    return std::nullopt;
  std::optional<Affine> offsets = impl->evaluator.linearOffsets(view);
  if (!offsets)
    return std::nullopt;
  Footprint fp;
  fp.buffer = view.getBuffer();
  fp.terms = std::move(offsets->terms);
  fp.ctaIndependent = true;
  for (auto [term, coefficient] : fp.terms) {
    fp.ctaIndependent &= impl->evaluator.ctaIndependent(term);
    if (std::optional<Residue> r = impl->evaluator.residue(term))
      fp.residues.push_back(std::move(*r));
  }
  fp.offsets.reserve(offsets->elems.size());
  for (int64_t v : offsets->elems)
    fp.offsets.push_back(uint32_t(uint64_t(v)));
  std::sort(fp.offsets.begin(), fp.offsets.end());
  fp.offsets.erase(std::unique(fp.offsets.begin(), fp.offsets.end()),
                   fp.offsets.end());
  return fp;
}

namespace {
/// Whether no element of `a` shifted by `shift` (mod 2^32) is in `b`.
bool shiftedDisjoint(const std::vector<uint32_t> &a,
                     const std::vector<uint32_t> &b, uint32_t shift) {
  if (shift == 0) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
      if (a[i] == b[j])
        return false;
      if (a[i] < b[j])
        ++i;
      else
        ++j;
    }
    return true;
  }
  return llvm::none_of(a, [&](uint32_t x) {
    return std::binary_search(b.begin(), b.end(), uint32_t(x + shift));
  });
}

const Residue *findResidue(const Footprint &fp, Value term) {
  for (const Residue &r : fp.residues)
    if (r.value == term)
      return &r;
  return nullptr;
}
} // namespace

bool disjoint(const Footprint &a, const Footprint &b, bool acrossCTAs) {
  if (a.buffer != b.buffer)
    return false;
  if (acrossCTAs && !(a.ctaIndependent && b.ctaIndependent))
    return false;
  if (a.terms == b.terms)
    return shiftedDisjoint(a.offsets, b.offsets, 0);
  // U_a - U_b must be k * r1 - k * r2: r1 a residue of a's only, r2 of b's.
  Terms d = addTerms(a.terms, b.terms, uint32_t(-1));
  if (d.size() != 2)
    return false;
  for (int first : {0, 1}) {
    auto [t1, k] = d[first];
    auto [t2, minusK] = d[1 - first];
    const Residue *r1 = findResidue(a, t1), *r2 = findResidue(b, t2);
    if (!r1 || !r2 || uint32_t(k + minusK) != 0 || r1->modulus != r2->modulus ||
        r1->base != r2->base)
      continue;
    uint32_t m = r1->modulus;
    // r1 - r2 = d with d = r1.constant - r2.constant (mod m), d != 0, and
    // |d| < 2m (< m when both are unsigned).
    int64_t dm = int64_t((r1->constant - r2->constant) & (m - 1));
    if (dm == 0)
      return false;
    SmallVector<int64_t, 4> deltas = {dm - int64_t(m), dm};
    if (!(r1->isUnsigned && r2->isUnsigned))
      deltas.append({dm - 2 * int64_t(m), dm + int64_t(m)});
    // Elements meet where U_a + c_a = U_b + c_b, i.e. c_a + k * d = c_b.
    return llvm::all_of(deltas, [&](int64_t delta) {
      return shiftedDisjoint(a.offsets, b.offsets,
                             uint32_t(uint64_t(k) * uint64_t(delta)));
    });
  }
  return false;
}

bool definedIn(Value value, Operation *loop) {
  Region *region = value.getParentRegion();
  Operation *owner = region ? region->getParentOp() : nullptr;
  return owner && loop->isAncestor(owner);
}

bool definedIn(const Footprint &fp, Operation *loop) {
  return llvm::any_of(
      fp.terms, [&](const auto &term) { return definedIn(term.first, loop); });
}

} // namespace mlir::tle
