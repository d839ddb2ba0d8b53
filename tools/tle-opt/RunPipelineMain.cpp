//===- RunPipelineMain.cpp - `tle-opt --tle-run-pipeline` -----------------===//
//
//   tle-opt --tle-run-pipeline [--pass-pipeline=P] [--source-name=NAME]
//           [--debug-info] [--verify-each=true|false]
//           [--mlir-print-ir-before-all] [--mlir-print-ir-after-all]
//           [--print-ir-symbol=NAME] [--print-ir-file=PATH] [in.mlir|-]
//
// What `tle._tle.run_pipeline` does in-process (TLE/RunPipeline.h), for the
// Python driver's subprocess path (TLE_OPT): the same pipeline anchoring, the
// same printing and, on failure, the same message on stderr (exit code 1).
// The IR-printing flags are TLE/RunPipeline.h's IRPrinting (the Python driver
// passes them under MLIR_ENABLE_DUMP): the module before / after each pass,
// only for modules defining symbol NAME, appended to PATH (default stderr).
//
//===----------------------------------------------------------------------===//
#include "Modes.h"

#include "TLE/RunPipeline.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static constexpr StringLiteral kMode = "tle-run-pipeline";

bool mlir::tle::isRunPipelineInvocation(int argc, char **argv) {
  return hasFlag(argc, argv, kMode);
}

static int usage(const Twine &why) {
  errs() << "error: " << why << "\n"
         << "usage: tle-opt --tle-run-pipeline [--pass-pipeline=P] "
            "[--source-name=NAME] [--debug-info] [--verify-each=true|false] "
            "[--mlir-print-ir-before-all] [--mlir-print-ir-after-all] "
            "[--print-ir-symbol=NAME] [--print-ir-file=PATH] [in.mlir|-]\n";
  return 1;
}

int mlir::tle::runPipelineMain(int argc, char **argv) {
  StringRef pipeline, sourceName, verify, input = "-";
  bool haveInput = false, haveName = false, debugInfo = false,
       verifyEach = true;
  IRPrinting printing;
  StringRef value;
  for (int i = 1; i < argc; ++i) {
    StringRef a(argv[i]);
    if (matchFlag(a, kMode))
      continue;
    if (matchFlag(a, "debug-info")) {
      debugInfo = true;
      continue;
    }
    if (matchFlag(a, "pass-pipeline", &pipeline))
      continue;
    if (matchFlag(a, "mlir-print-ir-before-all")) {
      printing.beforeEach = true;
      continue;
    }
    if (matchFlag(a, "mlir-print-ir-after-all")) {
      printing.afterEach = true;
      continue;
    }
    if (matchFlag(a, "print-ir-symbol", &value)) {
      printing.onlySymbol = value.str();
      continue;
    }
    if (matchFlag(a, "print-ir-file", &value)) {
      printing.file = value.str();
      continue;
    }
    if (matchFlag(a, "source-name", &sourceName)) {
      haveName = true;
      continue;
    }
    if (matchFlag(a, "verify-each", &verify)) {
      if (verify != "true" && verify != "false")
        return usage("invalid value for --verify-each: '" + verify + "'");
      verifyEach = verify == "true";
      continue;
    }
    if (a.starts_with("-") && a != "-")
      return usage("unknown option '" + a + "' for --" + kMode);
    if (haveInput)
      return usage("more than one input file");
    input = a;
    haveInput = true;
  }
  std::unique_ptr<MemoryBuffer> buffer = readInput(input);
  if (!buffer)
    return 1;
  if (!haveName)
    sourceName = input == "-" ? StringRef("<stdin>") : input;
  PipelineResult result = runPipeline(buffer->getBuffer(), pipeline, sourceName,
                                      debugInfo, verifyEach, printing);
  if (!result.ok) {
    errs() << result.text << "\n";
    return 1;
  }
  outs() << result.text;
  return 0;
}
