//===- RunPipeline.cpp - parse, run a pipeline, print ---------------------===//
#include "TLE/RunPipeline.h"
#include "TLE/InitAll.h"
#include "TLE/Support/ParserGuard.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <vector>

using namespace mlir;

namespace {

const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
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
  case DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  case DiagnosticSeverity::Note:
    os << "note: ";
    break;
  case DiagnosticSeverity::Remark:
    os << "remark: ";
    break;
  }
  os << diag.str();
  for (Diagnostic &note : diag.getNotes())
    os << "\n" << formatDiagnostic(note);
  return text;
}

} // namespace

tle::PipelineResult tle::runPipeline(StringRef source, StringRef pipeline,
                                     StringRef sourceName, bool debugInfo,
                                     bool verifyEach,
                                     const IRPrinting &printing) {
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  // Diagnostics name the op and its location; no op dump in the message.
  context.printOpOnDiagnostic(false);
  std::vector<std::string> diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostics.push_back(formatDiagnostic(diag));
    return success();
  });
  auto fail = [&](const Twine &what) -> PipelineResult {
    std::string message = what.str();
    for (const std::string &d : diagnostics)
      message += "\n" + d;
    return {false, message};
  };

  if (ParserHazard hazard = findParserHazard(source)) {
    size_t at = hazard.at;
    StringRef before = source.take_front(at);
    size_t lineStart = before.rfind('\n') + 1; // npos + 1 == 0
    diagnostics.push_back((sourceName + ":" + Twine(before.count('\n') + 1) +
                           ":" + Twine(at - lineStart + 1) +
                           ": error: " + hazard.message)
                              .str());
    return fail("failed to parse '" + sourceName + "'");
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, sourceName), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return fail("failed to parse '" + sourceName + "'");

  if (!pipeline.trim().empty()) {
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    std::string anchored = pipeline.str();
    if (!pipeline.trim().starts_with("builtin.module("))
      anchored = "builtin.module(" + anchored + ")";
    // The FailureOr overload: the other one silently does nothing on an
    // anchored pipeline string.
    FailureOr<OpPassManager> parsed = parsePassPipeline(anchored, errorStream);
    if (failed(parsed))
      return {false, "invalid pass pipeline '" + pipeline.str() +
                         "': " + StringRef(errors).trim().str()};
    // Declared before the pass manager, which prints to it while it runs.
    std::unique_ptr<llvm::raw_fd_ostream> dumpFile;
    PassManager pm(&context, ModuleOp::getOperationName());
    pm.enableVerifier(verifyEach);
    static_cast<OpPassManager &>(pm) = std::move(*parsed);
    if (printing.enabled()) {
      llvm::raw_ostream *dumpStream = &llvm::errs();
      if (!printing.file.empty()) {
        std::error_code ec;
        dumpFile = std::make_unique<llvm::raw_fd_ostream>(
            printing.file, ec,
            llvm::sys::fs::OF_Append | llvm::sys::fs::OF_Text);
        if (ec)
          return {false, "cannot write IR dumps to '" + printing.file +
                             "': " + ec.message()};
        dumpStream = dumpFile.get();
      }
      // As Triton dumps (MLIR_ENABLE_DUMP): the whole module, with locations.
      std::string symbol = printing.onlySymbol;
      auto selected = [symbol](Pass *, Operation *op) {
        if (symbol.empty())
          return true;
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          module = op->getParentOfType<ModuleOp>();
        return module && module.lookupSymbol(symbol) != nullptr;
      };
      auto never = [](Pass *, Operation *) { return false; };
      OpPrintingFlags dumpFlags;
      dumpFlags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
      dumpFlags.printNameLocAsPrefix(true);
      using Filter = std::function<bool(Pass *, Operation *)>;
      pm.enableIRPrinting(
          printing.beforeEach ? Filter(selected) : Filter(never),
          printing.afterEach ? Filter(selected) : Filter(never),
          /*printModuleScope=*/true,
          /*printAfterOnlyOnChange=*/false,
          /*printAfterOnlyOnFailure=*/false, *dumpStream, dumpFlags);
    }
    if (failed(pm.run(*module)))
      return fail("pass pipeline '" + pipeline + "' failed on '" + sourceName +
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
  // Warnings of a successful run (a pass that left something to the user):
  // to standard error, as a compiler's warnings.
  for (const std::string &d : diagnostics)
    llvm::errs() << d << "\n";
  llvm::errs().flush();
  return {true, out};
}
