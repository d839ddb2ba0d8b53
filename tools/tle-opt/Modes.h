//===- Modes.h - tle-opt's modes besides mlir-opt's -----------------------===//
//
// `--tle-finish-llir` (LLVM IR in and out, FinishLLIRMain.cpp) and
// `--tle-run-pipeline` (the Python driver's subprocess path,
// RunPipelineMain.cpp), and the little argument handling they share.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TOOLS_TLE_OPT_MODES_H
#define TLE_TOOLS_TLE_OPT_MODES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace mlir::tle {

/// Whether argv asks for the LLVM-IR mode (`--tle-finish-llir`).
bool isFinishLLIRInvocation(int argc, char **argv);
/// The LLVM-IR mode's main.
int finishLLIRMain(int argc, char **argv);

/// Whether argv asks for the driver mode (`--tle-run-pipeline`).
bool isRunPipelineInvocation(int argc, char **argv);
/// The driver mode's main.
int runPipelineMain(int argc, char **argv);

/// `arg` is `-flag` or `--flag`; with `value`, `-flag=V` or `--flag=V`
/// (V into `*value`).
inline bool matchFlag(llvm::StringRef arg, llvm::StringRef flag,
                      llvm::StringRef *value = nullptr) {
  if (!arg.consume_front("--") && !arg.consume_front("-"))
    return false;
  if (!value)
    return arg == flag;
  if (!arg.consume_front(flag) || !arg.consume_front("="))
    return false;
  *value = arg;
  return true;
}

/// Whether any argument is the flag `mode`.
inline bool hasFlag(int argc, char **argv, llvm::StringRef mode) {
  for (int i = 1; i < argc; ++i)
    if (matchFlag(argv[i], mode))
      return true;
  return false;
}

/// The file `path` ("-": standard input), or null after printing
/// `error: cannot read ...`.
inline std::unique_ptr<llvm::MemoryBuffer> readInput(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!buffer) {
    llvm::errs() << "error: cannot read '" << path
                 << "': " << buffer.getError().message() << "\n";
    return nullptr;
  }
  return std::move(*buffer);
}

} // namespace mlir::tle

#endif // TLE_TOOLS_TLE_OPT_MODES_H
