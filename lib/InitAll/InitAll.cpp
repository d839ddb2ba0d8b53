//===- InitAll.cpp - register everything TLE's tools load -----------------===//
#include "TLE/InitAll.h"

#include "TLE/Conversion/Passes.h"
#include "TLE/Conversion/TLEDSAToLinalg/Passes.h"
#include "TLE/Conversion/TLEToIluvatar/Passes.h"
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLE.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/TTNG.h"
#include "TLE/Pipelines.h"
#include "TLE/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Transforms/Passes.h"

void mlir::tle::registerAllDialects(DialectRegistry &registry) {
  registry.insert<TLEDialect, iluvatar_tle::IluvatarTLEDialect, tt::TTDialect,
                  ttg::TTGDialect, ttng::TTNGDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, gpu::GPUDialect, func::FuncDialect,
                  math::MathDialect, scf::SCFDialect,
                  // TLE-Raw bodies (tle.dsl_region) and their lowered form.
                  tensor::TensorDialect, index::IndexDialect, NVVM::NVVMDialect,
                  LLVM::LLVMDialect, memref::MemRefDialect,
                  // ub.poison: Triton's frontend fills a function's unreachable
                  // block after tt.return with it (Gluon "source" modules).
                  ub::UBDialect>();
}

void mlir::tle::registerAllPasses() {
  registerTLEPasses();
  registerTLEConversionPasses();
  registerTLEToIluvatarPasses();
  registerTLEDSAToLinalgPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  registerPipelines();
}
