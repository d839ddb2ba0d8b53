//===- Raw.cpp - tle.dsl_region (TLE-Raw) ---------------------------------===//
//
// The verifier of the op that carries a `@tle.raw.language` function's body
// (include/TLE/Dialect/TLE/IR/TLERawOps.td, docs/raw.md).
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"

#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tle;

namespace {

/// Dialects whose every op may appear in a body.
constexpr llvm::StringLiteral kWholeDialects[] = {"arith", "math", "index"};

/// Other ops a body may hold.
const llvm::StringSet<> &allowedOps() {
  static const llvm::StringSet<> ops = {"scf.for",
                                        "scf.if",
                                        "scf.while",
                                        "scf.condition",
                                        "scf.yield",
                                        "tensor.extract",
                                        "tensor.insert",
                                        "tensor.dim",
                                        "nvvm.read.ptx.sreg.tid.x",
                                        "nvvm.read.ptx.sreg.tid.y",
                                        "nvvm.read.ptx.sreg.tid.z",
                                        "nvvm.read.ptx.sreg.ntid.x",
                                        "nvvm.read.ptx.sreg.ntid.y",
                                        "nvvm.read.ptx.sreg.ntid.z",
                                        "nvvm.read.ptx.sreg.ctaid.x",
                                        "nvvm.read.ptx.sreg.ctaid.y",
                                        "nvvm.read.ptx.sreg.ctaid.z",
                                        "nvvm.read.ptx.sreg.nctaid.x",
                                        "nvvm.read.ptx.sreg.nctaid.y",
                                        "nvvm.read.ptx.sreg.nctaid.z",
                                        "nvvm.read.ptx.sreg.laneid",
                                        "nvvm.read.ptx.sreg.warpsize",
                                        "nvvm.barrier0",
                                        "nvvm.shfl.sync"};
  return ops;
}

bool isAllowed(Operation *op) {
  StringRef name = op->getName().getStringRef();
  StringRef dialect = name.take_front(name.find('.'));
  return llvm::is_contained(kWholeDialects, dialect) ||
         allowedOps().contains(name);
}

/// Dialects whose every op may appear in a `@tle.raw.dialect` body
/// (`hardware_ids`), besides `gpu.printf`.
constexpr llvm::StringLiteral kDialectFormDialects[] = {
    "arith", "math", "index", "scf", "memref", "llvm", "nvvm"};

bool isAllowedInDialectForm(Operation *op) {
  StringRef name = op->getName().getStringRef();
  StringRef dialect = name.take_front(name.find('.'));
  return llvm::is_contained(kDialectFormDialects, dialect) ||
         name == "gpu.printf";
}

/// Whether `arg` is the block-argument type a `@tle.raw.dialect` operand
/// of type `operand` may have (a memref may spell any size of a buffer as
/// dynamic).
bool fitsDialectArgument(Type operand, Type arg) {
  if (auto memdesc = dyn_cast<ttg::MemDescType>(operand)) {
    auto memref = dyn_cast<MemRefType>(arg);
    auto space = memref ? dyn_cast_or_null<IntegerAttr>(memref.getMemorySpace())
                        : IntegerAttr();
    bool fits = memref && space && space.getInt() == 3 &&
                memref.getLayout().isIdentity() &&
                memref.getElementType() == memdesc.getElementType() &&
                memref.getRank() == (int64_t)memdesc.getShape().size();
    for (int64_t d = 0; fits && d < memref.getRank(); ++d)
      fits = memref.isDynamicDim(d) ||
             memref.getDimSize(d) == memdesc.getShape()[d];
    return fits;
  }
  if (auto ptr = dyn_cast<tt::PointerType>(operand)) {
    auto llvmPtr = dyn_cast<LLVM::LLVMPointerType>(arg);
    return llvmPtr && llvmPtr.getAddressSpace() == ptr.getAddressSpace();
  }
  return arg == operand;
}

/// What a `@tle.raw.dialect` operand's block argument must be, for errors.
void describeDialectArgument(InFlightDiagnostic &diag, Type operand) {
  if (auto memdesc = dyn_cast<ttg::MemDescType>(operand))
    diag << "a buffer of shape [" << memdesc.getShape() << "] and element type "
         << memdesc.getElementType() << " is passed as a memref of rank "
         << memdesc.getShape().size()
         << " of that element type in address space 3 with the identity "
            "layout, each size the buffer's or '?'";
  else if (auto ptr = dyn_cast<tt::PointerType>(operand))
    diag << "a pointer in address space " << ptr.getAddressSpace()
         << " is passed as !llvm.ptr<" << ptr.getAddressSpace() << ">";
  else
    diag << "a scalar is passed as its own type " << operand;
}

/// A `@tle.raw.dialect` buffer must be row-major and unswizzled: the body
/// addresses it as a memref with the identity layout.
bool isPlainRowMajor(ttg::MemDescType type) {
  auto enc =
      dyn_cast_or_null<ttg::SwizzledSharedEncodingAttr>(type.getEncoding());
  if (!enc || enc.getVec() != 1 || enc.getPerPhase() != 1 ||
      enc.getMaxPhase() != 1)
    return false;
  ArrayRef<unsigned> order = enc.getOrder();
  int64_t rank = type.getShape().size();
  if ((int64_t)order.size() != rank)
    return false;
  for (int64_t k = 0; k < rank; ++k)
    if (order[k] != rank - 1 - k)
      return false;
  return true;
}

bool isTensorAccess(Operation *op) {
  return isa<tensor::ExtractOp, tensor::InsertOp, tensor::DimOp>(op);
}

bool isScalar(Type type) { return isa<IntegerType, FloatType>(type); }

/// The region argument a tensor value of the body stands for: itself, or
/// the root of its `tensor.insert` chain. Null for anything else.
BlockArgument rootArgument(Value value, Region &body) {
  while (auto insert = value.getDefiningOp<tensor::InsertOp>())
    value = insert.getDest();
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &body.front())
    return nullptr;
  return arg;
}

} // namespace

SmallVector<unsigned> DSLRegionOp::tensorOperandIndices() {
  SmallVector<unsigned> indices;
  for (auto [index, arg] : llvm::enumerate(getArgs()))
    if (isa<RankedTensorType>(arg.getType()))
      indices.push_back(index);
  return indices;
}

SmallVector<bool> DSLRegionOp::writtenArguments() {
  Region &body = getBody();
  SmallVector<bool> written(body.getNumArguments(), false);
  body.walk([&](tensor::InsertOp insert) {
    if (BlockArgument arg = rootArgument(insert.getDest(), body))
      written[arg.getArgNumber()] = true;
  });
  return written;
}

SmallVector<unsigned> DSLRegionOp::orderOf(unsigned index) {
  SmallVector<unsigned> order;
  if (std::optional<ArrayAttr> orders = getOrders()) {
    for (int64_t d : cast<DenseI64ArrayAttr>((*orders)[index]).asArrayRef())
      order.push_back(static_cast<unsigned>(d));
    return order;
  }
  auto type = cast<RankedTensorType>(getArgs()[index].getType());
  for (int64_t d = type.getRank() - 1; d >= 0; --d)
    order.push_back(static_cast<unsigned>(d));
  return order;
}

LogicalResult DSLRegionOp::verify() {
  if (getLanguage() != "mlir")
    return emitOpError() << "language '" << getLanguage()
                         << "' is not supported; TLE-Raw knows \"mlir\"";
  if (getSyncScope() != "block")
    return emitOpError() << "sync_scope '" << getSyncScope()
                         << "' is not supported; TLE-Raw knows \"block\"";
  ArrayRef<int64_t> threads = getThreads();
  if (threads.empty() || threads.size() > 3)
    return emitOpError() << "threads must have 1 to 3 dimensions, got "
                         << threads.size();
  if (llvm::any_of(threads, [](int64_t n) { return n <= 0; }))
    return emitOpError() << "threads must be positive, got [" << threads << "]";

  SmallVector<unsigned> tensors = tensorOperandIndices();
  if (getNumResults() != tensors.size())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << tensors.size()
                         << " tensor operands (one result per tensor operand)";
  for (auto [result, index] : llvm::zip(getResults(), tensors))
    if (result.getType() != getArgs()[index].getType())
      return emitOpError() << "result " << result.getResultNumber()
                           << " has type " << result.getType()
                           << " but its tensor operand " << index << " has "
                           << getArgs()[index].getType();
  if (getHardwareIds()) {
    if (getOrders())
      return emitOpError() << "orders is for tensor operands; a "
                              "'hardware_ids' (@tle.raw.dialect) op has none";
    for (auto [index, arg] : llvm::enumerate(getArgs())) {
      Type type = arg.getType();
      if (auto memdesc = dyn_cast<ttg::MemDescType>(type)) {
        if (!isa_and_nonnull<ttg::SharedMemorySpaceAttr>(
                memdesc.getMemorySpace()) ||
            !memdesc.getMutableMemory() || !isPlainRowMajor(memdesc))
          return emitOpError() << "operand " << index << " (" << type
                               << ") must be a mutable, row-major, unswizzled "
                                  "shared-memory buffer";
        continue;
      }
      if (!isa<tt::PointerType>(type) && !isScalar(type))
        return emitOpError() << "operand " << index
                             << " must be a shared-memory buffer, a pointer "
                                "or an integer or float scalar (a "
                                "'hardware_ids' op takes no tensors), got "
                             << type;
    }
  } else {
    for (auto [index, arg] : llvm::enumerate(getArgs()))
      if (!isa<RankedTensorType>(arg.getType()) && !isScalar(arg.getType()))
        return emitOpError() << "operand " << index
                             << " must be a ranked tensor or an integer or "
                                "float scalar, got "
                             << arg.getType();
  }

  if (std::optional<ArrayAttr> orders = getOrders()) {
    if (orders->size() != getArgs().size())
      return emitOpError() << "orders has " << orders->size() << " entries for "
                           << getArgs().size() << " operands";
    for (auto [index, entry] : llvm::enumerate(*orders)) {
      auto order = dyn_cast<DenseI64ArrayAttr>(entry);
      if (!order)
        return emitOpError() << "orders entry " << index
                             << " must be an array<i64: ...>, got " << entry;
      auto type = dyn_cast<RankedTensorType>(getArgs()[index].getType());
      int64_t rank = type ? type.getRank() : 0;
      SmallVector<int64_t> sorted(order.asArrayRef());
      llvm::sort(sorted);
      bool permutation = (int64_t)sorted.size() == rank;
      for (int64_t d = 0; permutation && d < rank; ++d)
        permutation = sorted[d] == d;
      if (!permutation)
        return emitOpError() << "orders entry " << index << " must be "
                             << (type ? "a permutation of the dimensions of "
                                        "its tensor operand"
                                      : "empty for a scalar operand")
                             << ", got [" << order.asArrayRef() << "]";
    }
  }
  return success();
}

LogicalResult DSLRegionOp::verifyRegions() {
  Region &body = getBody();
  Block &block = body.front();
  if (block.getNumArguments() != getArgs().size())
    return emitOpError() << "body has " << block.getNumArguments()
                         << " arguments for " << getArgs().size()
                         << " operands";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getArgs(), block.getArguments()))) {
    auto [operand, arg] = pair;
    if (getHardwareIds()) {
      if (fitsDialectArgument(operand.getType(), arg.getType()))
        continue;
      InFlightDiagnostic diag = emitOpError()
                                << "body argument " << index << " has type "
                                << arg.getType() << " for operand " << index
                                << " of type " << operand.getType() << ": ";
      describeDialectArgument(diag, operand.getType());
      return diag;
    }
    Type want = operand.getType();
    if (auto tensor = dyn_cast<RankedTensorType>(want))
      want = RankedTensorType::get(tensor.getShape(), tensor.getElementType());
    if (arg.getType() != want)
      return emitOpError() << "body argument " << index << " has type "
                           << arg.getType() << " but operand " << index
                           << " needs " << want;
  }

  if (getHardwareIds()) {
    WalkResult result = body.walk<WalkOrder::PreOrder>([&](Operation *op)
                                                           -> WalkResult {
      auto fail = [&](StringRef why) {
        InFlightDiagnostic diag = emitOpError() << "op '" << op->getName()
                                                << "' in the TLE-Raw function '"
                                                << getName() << "' " << why;
        diag.attachNote(op->getLoc()) << "here";
        return WalkResult::interrupt();
      };
      if (!isAllowedInDialectForm(op))
        return fail("is not supported (a @tle.raw.dialect body may use arith, "
                    "math, index, scf, memref, llvm, nvvm and gpu.printf)");
      auto isTensor = [](Type t) { return isa<TensorType>(t); };
      if (llvm::any_of(op->getOperandTypes(), isTensor) ||
          llvm::any_of(op->getResultTypes(), isTensor))
        return fail("takes or yields a tensor (a @tle.raw.dialect body works "
                    "on memrefs)");
      if (isa<SymbolOpInterface, SymbolUserOpInterface>(op))
        return fail("names a symbol, which a TLE-Raw body cannot define or "
                    "reach");
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  WalkResult result =
      body.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
        if (!isAllowed(op)) {
          InFlightDiagnostic diag =
              emitOpError() << "op '" << op->getName()
                            << "' is not supported in the TLE-Raw function '"
                            << getName() << "'";
          diag.attachNote(op->getLoc()) << "here";
          return WalkResult::interrupt();
        }
        auto isTensor = [](Type t) { return isa<TensorType>(t); };
        bool touchesTensors = llvm::any_of(op->getOperandTypes(), isTensor) ||
                              llvm::any_of(op->getResultTypes(), isTensor);
        if (touchesTensors && !isTensorAccess(op)) {
          InFlightDiagnostic diag =
              emitOpError()
              << "op '" << op->getName() << "' in the TLE-Raw "
              << "function '" << getName()
              << "' takes or yields a tensor; only tensor.extract, "
                 "tensor.insert and tensor.dim may";
          diag.attachNote(op->getLoc()) << "here";
          return WalkResult::interrupt();
        }
        for (Region &region : op->getRegions())
          for (Block &nested : region)
            if (llvm::any_of(nested.getArgumentTypes(), isTensor)) {
              InFlightDiagnostic diag = emitOpError()
                                        << "op '" << op->getName()
                                        << "' in the TLE-Raw "
                                        << "function '" << getName()
                                        << "' has a tensor block argument";
              diag.attachNote(op->getLoc()) << "here";
              return WalkResult::interrupt();
            }
        Value buffer;
        if (auto extract = dyn_cast<tensor::ExtractOp>(op))
          buffer = extract.getTensor();
        else if (auto insert = dyn_cast<tensor::InsertOp>(op))
          buffer = insert.getDest();
        else if (auto dim = dyn_cast<tensor::DimOp>(op))
          buffer = dim.getSource();
        if (buffer && !rootArgument(buffer, body)) {
          InFlightDiagnostic diag =
              emitOpError()
              << "'" << op->getName() << "' in the TLE-Raw function '"
              << getName()
              << "' must access an argument of the function (or a "
                 "tensor.insert into one)";
          diag.attachNote(op->getLoc()) << "here";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
  return failure(result.wasInterrupted());
}
