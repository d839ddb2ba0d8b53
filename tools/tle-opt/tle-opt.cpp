//===- tle-opt.cpp - mlir-opt-style driver for TLE ------------------------===//
#include "Modes.h"
#include "TLE/InitAll.h"
#include "TLE/Support/ParserGuard.h"
#include "TLE/Version.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  // `tle-opt --version`: TLE's version and commit, then LLVM's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "TLE (Triton Language Extensions):\n  TLE version "
       << tle::getVersion() << "\n  commit " << tle::getGitCommit() << "\n";
  });
  // LLVM IR in, LLVM IR out: the llir finish (docs/local-memory.md, 5).
  if (tle::isFinishLLIRInvocation(argc, argv))
    return tle::finishLLIRMain(argc, argv);
  // The Python driver's subprocess path: what tle._tle.run_pipeline does.
  if (tle::isRunPipelineInvocation(argc, argv))
    return tle::runPipelineMain(argc, argv);
  DialectRegistry registry;
  tle::registerAllDialects(registry);
  tle::registerAllPasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "TLE optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // Listing modes read no input: MLIR's own driver handles them.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  // As MLIR's driver does, with the input read first so that text MLIR's
  // parser would abort on is refused with an error (TLE/Support/ParserGuard.h).
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  tle::ParserHazard hazard = tle::findParserHazard(input->getBuffer());
  if (hazard) {
    llvm::SourceMgr sourceMgr;
    unsigned id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getBuffer(),
                                         input->getBufferIdentifier()),
        llvm::SMLoc());
    sourceMgr.PrintMessage(
        llvm::errs(),
        llvm::SMLoc::getFromPointer(
            sourceMgr.getMemoryBuffer(id)->getBufferStart() + hazard.at),
        llvm::SourceMgr::DK_Error, hazard.message);
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
