//===- RunPipelineMain.h - `tle-opt --tle-run-pipeline` -------------------===//
#ifndef TLE_TOOLS_TLE_OPT_RUNPIPELINEMAIN_H
#define TLE_TOOLS_TLE_OPT_RUNPIPELINEMAIN_H

namespace mlir::tle {
/// Whether argv asks for the driver mode (`--tle-run-pipeline`).
bool isRunPipelineInvocation(int argc, char **argv);
/// The driver mode's main.
int runPipelineMain(int argc, char **argv);
} // namespace mlir::tle

#endif
