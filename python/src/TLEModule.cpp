//===- TLEModule.cpp - the `tle._tle` nanobind extension ------------------===//
//
// Parses a module from text, runs a pass pipeline with the registry tle-opt
// uses, and returns the printed module (TLE/RunPipeline.h, shared with
// `tle-opt --tle-run-pipeline`). Failures raise tle.MLIRError carrying
// every diagnostic MLIR emitted, each as `file:line:col: severity: message`.
//
//===----------------------------------------------------------------------===//
#include "TLE/RunPipeline.h"
#include "TLE/Target/LLVMIR/FinishLLIR.h"
#include "TLE/Version.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace mlir;

namespace {

/// Raised with the diagnostics text; the Python side wraps it in MLIRError.
struct PipelineError {
  std::string message;
};

/// Raised by finish_llir; the Python side gets tle._driver.LLIRError.
struct FinishError {
  std::string message;
};

std::string runPipeline(const std::string &source, const std::string &pipeline,
                        const std::string &sourceName, bool debugInfo,
                        bool verifyEach, bool printIRBefore, bool printIRAfter,
                        const std::string &printIRSymbol,
                        const std::string &printIRFile) {
  tle::IRPrinting printing;
  printing.beforeEach = printIRBefore;
  printing.afterEach = printIRAfter;
  printing.onlySymbol = printIRSymbol;
  printing.file = printIRFile;
  tle::PipelineResult result = tle::runPipeline(
      source, pipeline, sourceName, debugInfo, verifyEach, printing);
  if (!result.ok)
    throw PipelineError{std::move(result.text)};
  return std::move(result.text);
}

std::pair<std::string, uint64_t>
finishLLIR(const std::string &text, uint64_t tritonShared, uint64_t tleShared,
           bool foldWgmmaDescriptors,
           const std::vector<uint64_t> &tmaGatherRowBytes) {
  llvm::Expected<tle::FinishResult> result = tle::finishLLIR(
      text, tritonShared, tleShared, foldWgmmaDescriptors, tmaGatherRowBytes);
  if (!result)
    throw FinishError{llvm::toString(result.takeError())};
  return {std::move(result->llir), result->sharedSize};
}

} // namespace

NB_MODULE(_tle, m) {
  m.doc() = "TLE's MLIR compiler, in-process";
  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const PipelineError &e) {
      nb::object mod = nb::module_::import_("tle._errors");
      PyErr_SetObject(mod.attr("MLIRError").ptr(),
                      nb::str(e.message.c_str()).ptr());
    } catch (const FinishError &e) {
      nb::object mod = nb::module_::import_("tle._driver");
      PyErr_SetObject(mod.attr("LLIRError").ptr(),
                      nb::str(e.message.c_str()).ptr());
    }
  });
  m.def("run_pipeline", &runPipeline, nb::arg("source"), nb::arg("pipeline"),
        nb::arg("source_name") = "<tle>", nb::arg("debug_info") = false,
        nb::arg("verify_each") = true, nb::arg("print_ir_before") = false,
        nb::arg("print_ir_after") = false, nb::arg("print_ir_symbol") = "",
        nb::arg("print_ir_file") = "",
        "Parse `source`, run the textual pass `pipeline` (e.g. "
        "\"canonicalize,cse\"; empty for none) and return the printed module. "
        "print_ir_before / print_ir_after: print the module before / after "
        "each pass (as MLIR_ENABLE_DUMP does in Triton), only for modules "
        "defining print_ir_symbol if not empty, appended to print_ir_file "
        "(empty: standard error). "
        "Raises tle.MLIRError with MLIR's diagnostics on failure.");
  m.def(
      "version",
      [] {
        return std::make_pair(std::string(tle::getVersion()),
                              std::string(tle::getGitCommit()));
      },
      "(version, commit) this extension was built from: pyproject.toml's "
      "version and the git commit's short hash, or 'unknown'.");
  m.def("finish_llir", &finishLLIR, nb::arg("text"), nb::arg("triton_shared"),
        nb::arg("tle_shared"), nb::arg("fold_wgmma_descriptors") = false,
        nb::arg("tma_gather_row_bytes") = std::vector<uint64_t>(),
        "TLE's llir finish (docs/local-memory.md, section 5) on Triton's LLVM "
        "IR: returns (finished IR, kernel shared-memory size). "
        "fold_wgmma_descriptors: also compute hoisted wgmma descriptors in "
        "the wgmma's asm (docs/warp-specialize.md). tma_gather_row_bytes "
        "(sm_90): split TMA gather4s into one-row copies, the row widths of "
        "the kernel's tensor descriptors in order. Raises "
        "tle._driver.LLIRError naming what it cannot finish.");
}
