//===- RunPipeline.h - parse, run a pipeline, print -------------*- C++ -*-===//
//
// What `tle._tle.run_pipeline` and `tle-opt --tle-run-pipeline` both do, so
// the in-process and the subprocess drivers give the same output and the same
// error messages.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_RUNPIPELINE_H
#define TLE_RUNPIPELINE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tle {

struct PipelineResult {
  bool ok = false;
  /// The printed module when ok, else the error: one headline ("failed to
  /// parse 'x'", "invalid pass pipeline 'p': ...", "pass pipeline 'p' failed
  /// on 'x'") then one `file:line:col: severity: message` line per diagnostic.
  std::string text;
};

/// IR printing while the pipeline runs: what Triton's pass managers do under
/// MLIR_ENABLE_DUMP (the module, with locations, before each pass).
struct IRPrinting {
  /// `// -----// IR Dump Before <pass> ... //----- //` then the module.
  bool beforeEach = false;
  /// `// -----// IR Dump After <pass> ... //----- //` then the module.
  bool afterEach = false;
  /// Only modules that define this symbol (a kernel name, as
  /// MLIR_ENABLE_DUMP=<kernel>); empty: every module.
  std::string onlySymbol;
  /// Append the dumps to this file; empty: standard error.
  std::string file;
  bool enabled() const { return beforeEach || afterEach; }
};

/// Parses `source` (named `sourceName` in locations and messages) with TLE's
/// registry, runs the textual `pipeline` (anchored on the module unless it
/// names `builtin.module(...)` itself; empty for none) and prints the module,
/// with locations and name-location prefixes (as Triton prints) if
/// `debugInfo`. `printing` asks for the IR around each pass (IRPrinting).
PipelineResult runPipeline(llvm::StringRef source, llvm::StringRef pipeline,
                           llvm::StringRef sourceName, bool debugInfo,
                           bool verifyEach, const IRPrinting &printing = {});

} // namespace mlir::tle

#endif // TLE_RUNPIPELINE_H
