//===- tle-opt.cpp - mlir-opt-style driver for TLE ------------------------===//
#include "TLE/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tle::registerAllDialects(registry);
  mlir::tle::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "TLE optimizer driver\n", registry));
}
