//===- TLEModule.cpp - the `tle._tle` nanobind extension ------------------===//
//
// Parses a module from text, runs a pass pipeline with the registry tle-opt
// uses, and returns the printed module. Failures raise tle.MLIRError carrying
// every diagnostic MLIR emitted, each as `file:line:col: severity: message`.
//
//===----------------------------------------------------------------------===//
#include "TLE/InitAll.h"
#include "TLE/Target/LLVMIR/FinishLLIR.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/pair.h>

#include <mutex>

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

DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    tle::registerAllDialects(*r);
    tle::registerAllPasses();
    return r;
  }();
  return *registry;
}

std::string formatDiagnostic(Diagnostic &diag) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
    os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
       << loc.getColumn() << ": ";
  else
    os << diag.getLocation() << ": ";
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Error:   os << "error: "; break;
  case DiagnosticSeverity::Warning: os << "warning: "; break;
  case DiagnosticSeverity::Note:    os << "note: "; break;
  case DiagnosticSeverity::Remark:  os << "remark: "; break;
  }
  os << diag.str();
  for (Diagnostic &note : diag.getNotes())
    os << "\n" << formatDiagnostic(note);
  return text;
}

std::string runPipeline(const std::string &source, const std::string &pipeline,
                        const std::string &sourceName, bool debugInfo,
                        bool verifyEach) {
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  // Diagnostics name the op and its location; no op dump in the message.
  context.printOpOnDiagnostic(false);
  std::vector<std::string> diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostics.push_back(formatDiagnostic(diag));
    return success();
  });
  auto fail = [&](const std::string &what) -> PipelineError {
    std::string message = what;
    for (const std::string &d : diagnostics)
      message += "\n" + d;
    return PipelineError{message};
  };

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, sourceName), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    throw fail("failed to parse '" + sourceName + "'");

  if (!pipeline.empty()) {
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    std::string anchored = pipeline;
    if (!llvm::StringRef(pipeline).trim().starts_with("builtin.module("))
      anchored = "builtin.module(" + pipeline + ")";
    // The FailureOr overload: the other one silently does nothing on an
    // anchored pipeline string.
    FailureOr<OpPassManager> parsed = parsePassPipeline(anchored, errorStream);
    if (failed(parsed))
      throw PipelineError{"invalid pass pipeline '" + pipeline + "': " + errors};
    PassManager pm(&context, ModuleOp::getOperationName());
    pm.enableVerifier(verifyEach);
    static_cast<OpPassManager &>(pm) = std::move(*parsed);
    if (failed(pm.run(*module)))
      throw fail("pass pipeline '" + pipeline + "' failed on '" + sourceName +
                 "'");
  }

  std::string out;
  llvm::raw_string_ostream os(out);
  OpPrintingFlags flags;
  if (debugInfo) {
    // As Triton prints: locations, and SSA names taken from name locations.
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
    flags.printNameLocAsPrefix(true);
  }
  module->print(os, flags);
  return out;
}

std::pair<std::string, uint64_t> finishLLIR(const std::string &text,
                                            uint64_t tritonShared,
                                            uint64_t tleShared) {
  llvm::Expected<tle::FinishResult> result =
      tle::finishLLIR(text, tritonShared, tleShared);
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
        nb::arg("verify_each") = true,
        "Parse `source`, run the textual pass `pipeline` (e.g. "
        "\"canonicalize,cse\"; empty for none) and return the printed module. "
        "Raises tle.MLIRError with MLIR's diagnostics on failure.");
  m.def("finish_llir", &finishLLIR, nb::arg("text"), nb::arg("triton_shared"),
        nb::arg("tle_shared"),
        "TLE's llir finish (docs/local-memory.md, section 5) on Triton's LLVM "
        "IR: returns (finished IR, kernel shared-memory size). Raises "
        "tle._driver.LLIRError naming what it cannot finish.");
}
