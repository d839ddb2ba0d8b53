//===- tle-opt.cpp - mlir-opt-style driver for TLE ------------------------===//
#include "Modes.h"
#include "TLE/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  // LLVM IR in, LLVM IR out: the llir finish (docs/local-memory.md, 5).
  if (mlir::tle::isFinishLLIRInvocation(argc, argv))
    return mlir::tle::finishLLIRMain(argc, argv);
  // The Python driver's subprocess path: what tle._tle.run_pipeline does.
  if (mlir::tle::isRunPipelineInvocation(argc, argv))
    return mlir::tle::runPipelineMain(argc, argv);
  mlir::DialectRegistry registry;
  mlir::tle::registerAllDialects(registry);
  mlir::tle::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "TLE optimizer driver\n", registry));
}
