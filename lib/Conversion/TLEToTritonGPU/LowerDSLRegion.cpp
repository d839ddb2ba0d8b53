//===- LowerDSLRegion.cpp - TLE-Raw: tle.dsl_region to Triton + LLVM ------===//
//
// Pass `triton-tle-lower-dsl-region` (include/TLE/Conversion/Passes.td,
// docs/raw.md): the body of a TLE-Raw function becomes an inlinable
// `llvm.func` on shared-memory pointers, which every thread of the kernel
// calls once between two barriers, its tensor operands staged in TLE pointer
// buffers.
//
//===----------------------------------------------------------------------===//
#include "TLE/Conversion/Passes.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERDSLREGION
#include "TLE/Conversion/Passes.h.inc"

namespace {

constexpr unsigned kSharedAddressSpace = 3;

/// The memref a tensor argument of the body becomes: the operand's buffer in
/// shared memory, laid out in `order` (fastest dimension first).
MemRefType bufferType(RankedTensorType type, ArrayRef<unsigned> order) {
  MLIRContext *ctx = type.getContext();
  int64_t rank = type.getRank();
  bool rowMajor = true;
  for (int64_t k = 0; k < rank; ++k)
    rowMajor &= order[k] == static_cast<unsigned>(rank - 1 - k);
  MemRefLayoutAttrInterface layout;
  if (!rowMajor) {
    SmallVector<int64_t> strides(rank, 1);
    int64_t stride = 1;
    for (unsigned d : order) {
      strides[d] = stride;
      stride *= type.getDimSize(d);
    }
    layout = StridedLayoutAttr::get(ctx, /*offset=*/0, strides);
  }
  return MemRefType::get(
      type.getShape(), type.getElementType(), layout,
      IntegerAttr::get(IntegerType::get(ctx, 64), kSharedAddressSpace));
}

/// Replaces the thread-id reads of `func` with the call's view of the
/// hardware: one block of `threads` threads (x fastest).
void virtualizeThreadIds(func::FuncOp func, ArrayRef<int64_t> threads) {
  SmallVector<Operation *> reads;
  func.walk([&](Operation *op) {
    if (op->getName().getStringRef().starts_with("nvvm.read.ptx.sreg."))
      reads.push_back(op);
  });
  OpBuilder b(func.getContext());
  Type i32 = b.getI32Type();
  Location loc = func.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  // Built right before each read (the reads are erased as we go).
  auto tidOf = [&](unsigned dim) -> Value {
    if (dim >= threads.size())
      return constant(0);
    Value v = NVVM::ThreadIdXOp::create(b, loc, i32);
    int64_t below = 1;
    for (unsigned d = 0; d < dim; ++d)
      below *= threads[d];
    if (below > 1)
      v = arith::DivUIOp::create(b, loc, v, constant(below));
    if (dim + 1 < threads.size())
      v = arith::RemUIOp::create(b, loc, v, constant(threads[dim]));
    return v;
  };
  for (Operation *op : reads) {
    StringRef name =
        op->getName().getStringRef().drop_front(strlen("nvvm.read.ptx.sreg."));
    auto [reg, axis] = name.split('.');
    unsigned dim = axis == "x" ? 0 : axis == "y" ? 1 : axis == "z" ? 2 : 3;
    b.setInsertionPoint(op);
    loc = op->getLoc();
    Value value;
    if (reg == "tid" && dim < 3)
      value = tidOf(dim);
    else if (reg == "ntid" && dim < 3)
      value = constant(dim < threads.size() ? threads[dim] : 1);
    else if (reg == "ctaid" && dim < 3)
      value = constant(0);
    else if (reg == "nctaid" && dim < 3)
      value = constant(1);
    else
      continue; // laneid, warpsize: the hardware's
    op->getResult(0).replaceAllUsesWith(value);
    op->erase();
  }
}

/// tensor.extract / tensor.insert / tensor.dim on the (now memref)
/// arguments become memref.load / memref.store / memref.dim.
void bufferizeAccesses(func::FuncOp func) {
  SmallVector<Operation *> accesses;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<tensor::ExtractOp, tensor::InsertOp, tensor::DimOp>(op))
      accesses.push_back(op);
  });
  // Program order: an insert's destination is rewritten to its root buffer
  // before anything uses the insert's result.
  // Operands by position: the typed accessors would cast the (now memref)
  // buffers to tensors.
  for (Operation *op : accesses) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (isa<tensor::ExtractOp>(op)) {
      Value v = memref::LoadOp::create(b, loc, op->getOperand(0),
                                       op->getOperands().drop_front(1));
      op->getResult(0).replaceAllUsesWith(v);
    } else if (isa<tensor::InsertOp>(op)) {
      memref::StoreOp::create(b, loc, op->getOperand(0), op->getOperand(1),
                              op->getOperands().drop_front(2));
      op->getResult(0).replaceAllUsesWith(op->getOperand(1));
    } else {
      Value v =
          memref::DimOp::create(b, loc, op->getOperand(0), op->getOperand(1));
      op->getResult(0).replaceAllUsesWith(v);
    }
  }
  for (Operation *op : llvm::reverse(accesses))
    op->erase();
}

/// `gpu.printf` (`tle.raw.mlir.vprintf`) becomes a call of CUDA's
/// `vprintf(format, args)`: the format a constant global in `holder`, the
/// arguments promoted as C varargs (floats to f64, integers narrower than
/// 32 bits to i32, index to i64) and packed in a stack struct.
void lowerPrintfs(func::FuncOp func, ModuleOp holder, StringRef symbol) {
  SmallVector<gpu::PrintfOp> prints;
  func.walk([&](gpu::PrintfOp op) { prints.push_back(op); });
  if (prints.empty())
    return;
  MLIRContext *ctx = func.getContext();
  OpBuilder b(ctx);
  Location loc = func.getLoc();
  auto ptrTy = LLVM::LLVMPointerType::get(ctx);
  Type i8 = b.getI8Type(), i32 = b.getI32Type(), i64 = b.getI64Type();
  b.setInsertionPointToStart(holder.getBody());
  auto vprintf = LLVM::LLVMFuncOp::create(
      b, loc, "vprintf", LLVM::LLVMFunctionType::get(i32, {ptrTy, ptrTy}));
  for (auto [k, print] : llvm::enumerate(prints)) {
    loc = print.getLoc();
    std::string format = print.getFormat().str();
    format.push_back('\0');
    b.setInsertionPointAfter(vprintf);
    auto global = LLVM::GlobalOp::create(
        b, loc, LLVM::LLVMArrayType::get(i8, format.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal,
        (symbol + "_format_" + Twine(k)).str(), b.getStringAttr(format));
    b.setInsertionPoint(print);
    Value formatPtr = LLVM::AddressOfOp::create(b, loc, global);
    SmallVector<Value> args;
    for (Value arg : print.getArgs()) {
      Type type = arg.getType();
      if (auto f = dyn_cast<FloatType>(type); f && f.getWidth() < 64)
        arg = arith::ExtFOp::create(b, loc, b.getF64Type(), arg);
      else if (auto n = dyn_cast<IntegerType>(type); n && n.getWidth() < 32)
        arg = n.getWidth() == 1
                  ? (Value)arith::ExtUIOp::create(b, loc, i32, arg)
                  : (Value)arith::ExtSIOp::create(b, loc, i32, arg);
      else if (isa<IndexType>(type))
        arg = arith::IndexCastOp::create(b, loc, i64, arg);
      args.push_back(arg);
    }
    Value packed;
    if (args.empty()) {
      packed = LLVM::ZeroOp::create(b, loc, ptrTy);
    } else {
      SmallVector<Type> types;
      for (Value arg : args)
        types.push_back(arg.getType());
      auto structTy = LLVM::LLVMStructType::getLiteral(ctx, types);
      // On entry, so that a print in a loop reuses one slot.
      OpBuilder entry = OpBuilder::atBlockBegin(&func.front());
      Value one =
          LLVM::ConstantOp::create(entry, loc, i64, entry.getI64IntegerAttr(1));
      packed = LLVM::AllocaOp::create(entry, loc, ptrTy, structTy, one, 8);
      for (auto [i, arg] : llvm::enumerate(args)) {
        Value field = LLVM::GEPOp::create(
            b, loc, ptrTy, structTy, packed,
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
        LLVM::StoreOp::create(b, loc, arg, field);
      }
    }
    LLVM::CallOp::create(b, loc, vprintf, ValueRange{formatPtr, packed});
    print.erase();
  }
}

/// NVPTX has no libm: `llvm.exp` & co. of a body would abort LLVM ("no
/// libcall available"). f32 (and f16/bf16, through f32) math functions are
/// expanded into arithmetic first (MLIR's expansions and polynomial
/// approximations); what is left of these is an error naming the op.
void expandMath(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  math::populateExpansionPatterns(patterns);
  populateMathPolynomialApproximationPatterns(patterns);
  (void)applyPatternsGreedily(func, std::move(patterns));
}

/// An LLVM intrinsic NVPTX cannot select (it would need a libm call).
bool needsLibm(Operation *op) {
  static const llvm::StringSet<> always = {
      "llvm.intr.exp",   "llvm.intr.exp10", "llvm.intr.log",  "llvm.intr.log10",
      "llvm.intr.pow",   "llvm.intr.powi",  "llvm.intr.sin",  "llvm.intr.cos",
      "llvm.intr.tan",   "llvm.intr.asin",  "llvm.intr.acos", "llvm.intr.atan",
      "llvm.intr.atan2", "llvm.intr.sinh",  "llvm.intr.cosh", "llvm.intr.tanh"};
  StringRef name = op->getName().getStringRef();
  if (always.contains(name))
    return true;
  if (name != "llvm.intr.exp2" && name != "llvm.intr.log2")
    return false;
  Type type = getElementTypeOrSelf(op->getResult(0).getType());
  return !type.isF32() && !type.isF16();
}

/// A buffer argument of a `@tle.raw.dialect` body may spell its sizes as
/// dynamic (`memref<?xf32, 3>`); the function takes the buffer's static type
/// (a bare pointer) and casts it to the spelled one on entry.
void castBufferArguments(func::FuncOp func, ArrayRef<Type> spelled) {
  Block &entry = func.front();
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&entry);
  for (auto [arg, type] : llvm::zip(entry.getArguments(), spelled)) {
    if (arg.getType() == type)
      continue;
    auto cast = memref::CastOp::create(b, arg.getLoc(), type, arg);
    arg.replaceAllUsesExcept(cast, cast);
  }
}

struct LowerDSLRegionPass
    : public impl::TLELowerDSLRegionBase<LowerDSLRegionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<DSLRegionOp> regions;
    module.walk([&](DSLRegionOp op) { regions.push_back(op); });
    for (DSLRegionOp op : regions)
      if (failed(lower(op)))
        return signalPassFailure();
  }

  /// The `llvm.func` for `op`'s body; null after reporting.
  LLVM::LLVMFuncOp buildFunction(DSLRegionOp op, StringRef symbol) {
    ModuleOp module = getOperation();
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    // A scratch module under ours, so the conversions run as a nested
    // pipeline of this pass.
    auto holder = ModuleOp::create(b, loc);
    b.setInsertionPointToStart(holder.getBody());

    SmallVector<Type> inputs, spelled;
    for (auto [index, operand] : llvm::enumerate(op.getArgs())) {
      Type argType = op.getBody().getArgument(index).getType();
      spelled.push_back(argType);
      if (auto tensor = dyn_cast<RankedTensorType>(operand.getType()))
        inputs.push_back(bufferType(tensor, op.orderOf(index)));
      else if (auto memdesc = dyn_cast<ttg::MemDescType>(operand.getType()))
        inputs.push_back(MemRefType::get(
            memdesc.getShape(), memdesc.getElementType(),
            MemRefLayoutAttrInterface(),
            IntegerAttr::get(IntegerType::get(ctx, 64), kSharedAddressSpace)));
      else
        inputs.push_back(argType); // a scalar, or !llvm.ptr for a pointer
    }
    auto func = func::FuncOp::create(
        b, loc, symbol, b.getFunctionType(inputs, {b.getI32Type()}));
    IRMapping mapping;
    op.getBody().cloneInto(&func.getBody(), mapping);
    Block &entry = func.front();
    for (auto [arg, type] : llvm::zip(entry.getArguments(), inputs))
      arg.setType(type);
    b.setInsertionPointToEnd(&entry);
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    func::ReturnOp::create(b, loc, zero);
    if (op.getHardwareIds())
      castBufferArguments(func, spelled);
    else
      virtualizeThreadIds(func, op.getThreads());
    bufferizeAccesses(func);
    lowerPrintfs(func, holder, symbol);
    expandMath(func);

    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createSCFToControlFlowPass());
    pm.addPass(createConvertMathToLLVMPass());
    pm.addPass(createArithToLLVMConversionPass());
    pm.addPass(createConvertIndexToLLVMPass());
    pm.addPass(createFinalizeMemRefToLLVMConversionPass());
    pm.addPass(createConvertControlFlowToLLVMPass());
    ConvertFuncToLLVMPassOptions funcOptions;
    funcOptions.useBarePtrCallConv = true;
    pm.addPass(createConvertFuncToLLVMPass(funcOptions));
    pm.addPass(createReconcileUnrealizedCastsPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    if (failed(runPipeline(pm, holder))) {
      holder->erase();
      op.emitError() << "cannot lower the TLE-Raw function '" << op.getName()
                     << "' to LLVM (see the errors above)";
      return nullptr;
    }
    auto llvmFunc = holder.lookupSymbol<LLVM::LLVMFuncOp>(symbol);
    if (!llvmFunc) {
      holder->erase();
      op.emitError() << "lowering the TLE-Raw function '" << op.getName()
                     << "' left no llvm.func";
      return nullptr;
    }
    // Besides the function: vprintf's declaration and format strings; any
    // other symbol is a call the body cannot make (memref.alloc's malloc).
    for (Operation &other : *holder.getBody()) {
      if (&other == llvmFunc.getOperation() || isa<LLVM::GlobalOp>(other))
        continue;
      auto decl = dyn_cast<LLVM::LLVMFuncOp>(other);
      if (decl && decl.isExternal() && decl.getName() == "vprintf")
        continue;
      InFlightDiagnostic diag = op.emitError();
      diag << "lowering the TLE-Raw function '" << op.getName() << "' needs ";
      if (auto symbolOp = dyn_cast<SymbolOpInterface>(other))
        diag << "the external symbol '" << symbolOp.getName()
             << "', which a TLE-Raw body cannot reach";
      else
        diag << "'" << other.getName() << "' beside the function";
      holder->erase();
      return nullptr;
    }
    // The conversions are partial: an op none of them knows is still here.
    Operation *unlowered = nullptr;
    llvmFunc.walk([&](Operation *inner) {
      StringRef dialect = inner->getName().getDialectNamespace();
      if (!unlowered &&
          ((dialect != "llvm" && dialect != "nvvm") || needsLibm(inner)))
        unlowered = inner;
    });
    if (unlowered) {
      InFlightDiagnostic diag = op.emitError()
                                << "op '" << unlowered->getName()
                                << "' in the TLE-Raw function '" << op.getName()
                                << "' has no lowering to LLVM";
      if (needsLibm(unlowered))
        diag << " for NVPTX (it needs a libm function; only f32, f16 and bf16 "
                "math functions are expanded into arithmetic)";
      diag.attachNote(unlowered->getLoc()) << "here";
      holder->erase();
      return nullptr;
    }
    for (Operation &other : llvm::make_early_inc_range(*holder.getBody())) {
      auto decl = dyn_cast<LLVM::LLVMFuncOp>(other);
      if (decl && decl.isExternal() && module.lookupSymbol(decl.getName()))
        continue; // the kernel already declares vprintf
      other.moveBefore(holder);
    }
    holder->erase();
    llvmFunc.setLinkage(LLVM::Linkage::Internal);
    llvmFunc.setAlwaysInline(true);
    return llvmFunc;
  }

  LogicalResult lower(DSLRegionOp op) {
    ModuleOp module = getOperation();
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();

    for (auto [index, operand] : llvm::enumerate(op.getArgs())) {
      auto tensor = dyn_cast<RankedTensorType>(operand.getType());
      if (tensor && !tensor.getEncoding())
        return op.emitError() << "tle.dsl_region lowers on TTGIR, but operand "
                              << index << " has no encoding";
      // Tensor operands are staged in shared-memory buffers (memdescs).
      if (tensor && llvm::any_of(tensor.getShape(),
                                 [](int64_t size) { return size <= 0; }))
        return op.emitError()
               << "cannot stage operand " << index << " of type " << tensor
               << " in shared memory: its dimensions must be "
                  "static and positive";
    }
    std::optional<int64_t> warps =
        interop::lookupIntAttr(module, interop::kNumWarpsAttr);
    if (!warps)
      return op.emitError()
             << "tle.dsl_region lowers on TTGIR, but the module has no "
             << interop::kNumWarpsAttr;
    int64_t perWarp = interop::lookupThreadsPerWarp(module).value_or(
        interop::kDefaultThreadsPerWarp);
    int64_t have = *warps * perWarp;
    int64_t want = 1;
    for (int64_t n : op.getThreads())
      want *= n;
    if (want != have)
      return op.emitError()
             << "the TLE-Raw function '" << op.getName()
             << "' runs on every thread of the program: hardware threads ["
             << op.getThreads() << "] (" << want
             << " threads) must equal num_warps x threads per warp = " << *warps
             << " x " << perWarp << " = " << have;

    // A fresh symbol per call site.
    std::string base = ("__tle_raw_" + op.getName()).str();
    std::string symbol = base;
    for (unsigned k = 1; SymbolTable::lookupSymbolIn(module, symbol); ++k)
      symbol = base + "_" + std::to_string(k);
    LLVM::LLVMFuncOp func = buildFunction(op, symbol);
    if (!func)
      return failure();

    OpBuilder b(op);
    Type i32 = b.getI32Type();
    SmallVector<bool> written = op.writtenArguments();
    SmallVector<Value> callArgs;
    DenseMap<unsigned, Value> buffers;
    for (auto [index, operand] : llvm::enumerate(op.getArgs())) {
      if (auto memdesc = dyn_cast<ttg::MemDescType>(operand.getType())) {
        // A @tle.raw.dialect buffer: the body gets its base.
        Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
        SmallVector<Value> indices(memdesc.getShape().size(), zero);
        callArgs.push_back(LocalPointersOp::create(
            b, loc,
            tt::PointerType::get(memdesc.getElementType(), kSharedAddressSpace),
            operand, indices));
        continue;
      }
      auto tensor = dyn_cast<RankedTensorType>(operand.getType());
      if (!tensor) {
        callArgs.push_back(operand);
        continue;
      }
      auto shared =
          ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, op.orderOf(index));
      auto memdesc = ttg::MemDescType::get(
          tensor.getShape(), tensor.getElementType(), shared,
          ttg::SharedMemorySpaceAttr::get(ctx), /*mutableMemory=*/true);
      Value buffer = AllocOp::create(
          b, loc, memdesc, MemorySpaceAttr::get(ctx, MemorySpace::smem),
          Value());
      LocalStoreOp::create(b, loc, operand, buffer);
      Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
      SmallVector<Value> indices(tensor.getRank(), zero);
      Value baseptr = LocalPointersOp::create(
          b, loc,
          tt::PointerType::get(tensor.getElementType(), kSharedAddressSpace),
          buffer, indices);
      callArgs.push_back(baseptr);
      buffers[index] = buffer;
    }
    gpu::BarrierOp::create(b, loc);
    tt::ExternElementwiseOp::create(
        b, loc, i32, callArgs, b.getStringAttr(""), b.getStringAttr(""),
        b.getStringAttr(symbol), b.getBoolAttr(false));
    gpu::BarrierOp::create(b, loc);
    for (auto [result, index] :
         llvm::zip(op.getResults(), op.tensorOperandIndices())) {
      Value value = op.getArgs()[index];
      if (written[index] && !result.use_empty())
        value = LocalLoadOp::create(b, loc, result.getType(), buffers[index]);
      result.replaceAllUsesWith(value);
    }
    op.erase();
    return success();
  }
};

} // namespace
} // namespace mlir::tle
