//===- FinishLLIRMain.h - `tle-opt --tle-finish-llir` ---------------------===//
#ifndef TLE_TOOLS_TLE_OPT_FINISHLLIRMAIN_H
#define TLE_TOOLS_TLE_OPT_FINISHLLIRMAIN_H

namespace mlir::tle {
/// Whether argv asks for the LLVM-IR mode (`--tle-finish-llir`).
bool isFinishLLIRInvocation(int argc, char **argv);
/// The LLVM-IR mode's main.
int finishLLIRMain(int argc, char **argv);
} // namespace mlir::tle

#endif
