//===- Pipelines.cpp - TLE's stage pipelines, registered by name ---------===//
//
// The pipelines TLE runs at Triton's stages, registered as named pass
// pipelines (as MLIR's `gpu-lower-to-nvvm-pipeline` is), so that tle-opt,
// the nanobind module and the Python stages hook name the same thing:
//
//   tle-ttir{num-stages=N}           after Triton's ttir stage
//   tle-ttgir{wait-limit=P}          after Triton's ttgir stage (NVIDIA)
//   tle-ttgir-iluvatar               the TTGIR pipeline for Iluvatar modules
//   tle-dsa                          TTIR with tle.dsa ops to linalg / memref
//
// Each takes `disable=pass-a,pass-b`: the pipeline without those passes
// (every occurrence), for tests and experiments; naming a pass the pipeline
// does not run is an error.
//
//===----------------------------------------------------------------------===//
#include "TLE/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>
#include <vector>

using namespace mlir;

namespace {

struct DisableOption {
  static constexpr const char *kHelp =
      "passes to leave out (their pass arguments, comma-separated)";
};

struct TTIROptions : PassPipelineOptions<TTIROptions> {
  Option<int> numStages{
      *this, "num-stages",
      llvm::cl::desc(
          "the compile's num_stages (tle.async_load's default depth)"),
      llvm::cl::init(3)};
  ListOption<std::string> disable{*this, "disable",
                                  llvm::cl::desc(DisableOption::kHelp)};
};

struct TTGIROptions : PassPipelineOptions<TTGIROptions> {
  Option<int64_t> waitLimit{
      *this, "wait-limit",
      llvm::cl::desc("bound every device wait of triton-tle-lower-distributed "
                     "to this many polls (0: unbounded; the debug mode)"),
      llvm::cl::init(0)};
  ListOption<std::string> disable{*this, "disable",
                                  llvm::cl::desc(DisableOption::kHelp)};
};

struct PlainOptions : PassPipelineOptions<PlainOptions> {
  ListOption<std::string> disable{*this, "disable",
                                  llvm::cl::desc(DisableOption::kHelp)};
};

using Elements = std::vector<std::string>;

// The TTIR stage checks every marker (building and verifying its tle op), so
// misuse is reported before Triton's TTGIR conversion; lowers tle.async_load
// to loads Triton's pipeliner takes (docs/async-load.md); turns tle.range
// pipeline groups into Triton's schedule inputs (docs/pipeline-groups.md);
// and keeps Triton's pipeliner off loads through local pointers
// (docs/local-memory.md, section 3a).
Elements ttirPasses(const TTIROptions &o) {
  return {"triton-tle-bind-pipeline-groups",
          "triton-tle-raise-markers{verify-only=true}",
          "triton-tle-raise-markers{ops=tle.async_load}",
          "triton-tle-lower-async-loads{num-stages=" +
              std::to_string(o.numStages) + "}",
          "triton-tle-raise-markers{ops=tle.pipeline_group_begin,tle.pipeline_"
          "group_end}",
          "triton-tle-lower-pipeline-groups",
          "triton-tle-unpipeline-local-pointer-loads",
          "triton-tle-number-markers"};
}

// The TTGIR stage raises the markers, runs TLE's passes and lowers
// everything back to Triton's ops.
Elements ttgirPasses(const TTGIROptions &o) {
  std::string distributed = "triton-tle-lower-distributed";
  if (o.waitLimit)
    distributed += "{wait-limit=" + std::to_string(o.waitLimit) + "}";
  return {"triton-tle-reject-dsa",
          "triton-tle-merge-marker-copies",
          "triton-tle-raise-markers",
          "triton-tle-raise-warp-specialize",
          "triton-tle-optimize-local-pointer-loads",
          "triton-tle-optimize-local-pointer-stores",
          "triton-tle-forward-pipe-mma-operands",
          "triton-tle-lower-pipes",
          "triton-tle-lower-barriers",
          "triton-tle-lower-wgmma",
          "triton-tle-lower-layouts",
          "triton-tle-lower-dsl-region",
          distributed,
          "triton-tle-lower-async-loads",
          "triton-tle-async-copy-loads",
          "triton-tle-optimize-local-pointer-loads",
          "triton-tle-optimize-local-pointer-stores",
          "triton-tle-zero-partial-buffers",
          "triton-tle-select-encodings",
          "triton-tle-insert-local-pointer-barriers",
          "triton-tle-lower-local-memory",
          "triton-tle-optimize-exclusive-cumsum-layouts",
          "triton-tle-lower-exclusive-cumsum",
          "triton-tle-lower-tiles",
          "triton-tle-lower-warp-specialize",
          "triton-tle-forward-buffer-mma-operands",
          "triton-tle-forward-buffer-loads",
          "triton-tle-merge-wgmma-waits",
          "triton-tle-drop-redundant-async-fences",
          "triton-tle-fold-scatter-converts",
          "tle-assert-lowered"};
}

// FlagTree's Iluvatar rules (docs/iluvatar.md): buffers stay ttg.local_alloc,
// local pointers and tiles become iluvatar_tle ops for the Iluvatar backend.
Elements iluvatarPasses(const PlainOptions &) {
  return {"triton-tle-reject-dsa",
          "triton-tle-raise-markers",
          "triton-tle-optimize-local-pointer-loads",
          "triton-tle-optimize-local-pointer-stores",
          "triton-tle-insert-local-pointer-barriers{all-buffers=true}",
          "triton-tle-lower-to-iluvatar",
          "tle-assert-lowered"};
}

// docs/dsa.md: on TTIR captured after the tle-ttir stage.
Elements dsaPasses(const PlainOptions &) {
  return {"triton-tle-raise-markers", "triton-tle-lower-dsa"};
}

/// The pass argument of a pipeline element: its text before any `{`.
StringRef passArgument(StringRef element) {
  return element.take_until([](char c) { return c == '{'; });
}

template <typename Options>
void registerStage(StringRef arg, StringRef description,
                   std::function<Elements(const Options &)> passes) {
  std::string name = arg.str();
  registerPassPipeline(
      arg, description,
      [passes, name](OpPassManager &pm, StringRef optionsText,
                     function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        Options options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        Elements elements = passes(options);
        llvm::StringSet<> present, disabled;
        for (const std::string &element : elements)
          present.insert(passArgument(element));
        for (const std::string &pass : options.disable) {
          if (!present.contains(pass))
            return errorHandler("pipeline " + name + ": disable= names '" +
                                pass + "', which is not one of its passes");
          disabled.insert(pass);
        }
        for (const std::string &element : elements) {
          if (disabled.contains(passArgument(element)))
            continue;
          std::string error;
          llvm::raw_string_ostream os(error);
          if (failed(parsePassPipeline(element, pm, os)))
            return errorHandler("pipeline " + name + ": cannot build '" +
                                element + "': " + error);
        }
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

} // namespace

void mlir::tle::registerPipelines() {
  registerStage<TTIROptions>(
      "tle-ttir", "TLE's passes after Triton's ttir stage", ttirPasses);
  registerStage<TTGIROptions>(
      "tle-ttgir", "TLE's passes after Triton's ttgir stage (NVIDIA targets)",
      ttgirPasses);
  registerStage<PlainOptions>(
      "tle-ttgir-iluvatar", "TLE's TTGIR pipeline for Iluvatar (CoreX) modules",
      iluvatarPasses);
  registerStage<PlainOptions>(
      "tle-dsa", "tle.dsa ops to memref / linalg / arith / bufferization",
      dsaPasses);
}
