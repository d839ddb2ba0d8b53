//===- FinishLLIRMain.cpp - `tle-opt --tle-finish-llir` -------------------===//
//
//   tle-opt --tle-finish-llir [--triton-shared=N] [--tle-shared=M]
//           [--fold-wgmma-descriptors] [--tma-gather-row-bytes=B,...]
//           [-o out.ll] [in.ll|-]
//
// Reads LLVM IR (not MLIR), runs TLE's llir finish (docs/local-memory.md,
// section 5; with --fold-wgmma-descriptors also the descriptor fold of
// TLE/Target/LLVMIR/WgmmaDescriptors.h; with --tma-gather-row-bytes the
// sm_90 split of TMA gathers, TLE/Target/LLVMIR/TmaGather.h) and prints
// `; tle.shared_size = K` followed by the finished IR.
// Errors: `error: ...` on stderr, exit code 1.
//
//===----------------------------------------------------------------------===//
#include "Modes.h"

#include "TLE/Target/LLVMIR/FinishLLIR.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

bool mlir::tle::isFinishLLIRInvocation(int argc, char **argv) {
  return hasFlag(argc, argv, "tle-finish-llir");
}

static int usage(const Twine &why) {
  errs() << "error: " << why << "\n"
         << "usage: tle-opt --tle-finish-llir [--triton-shared=N] "
            "[--tle-shared=M] [--fold-wgmma-descriptors] "
            "[--tma-gather-row-bytes=B,...] [-o out.ll] [in.ll|-]\n";
  return 1;
}

int mlir::tle::finishLLIRMain(int argc, char **argv) {
  uint64_t tritonShared = 0, tleShared = 0;
  std::string input = "-", output = "-";
  bool haveInput = false, foldDescriptors = false;
  SmallVector<uint64_t> rowBytes;
  for (int i = 1; i < argc; ++i) {
    StringRef a(argv[i]);
    if (matchFlag(a, "tle-finish-llir"))
      continue;
    if (matchFlag(a, "fold-wgmma-descriptors")) {
      foldDescriptors = true;
      continue;
    }
    StringRef list;
    if (matchFlag(a, "tma-gather-row-bytes", &list)) {
      SmallVector<StringRef> items;
      list.split(items, ',');
      for (StringRef item : items) {
        uint64_t bytes;
        if (item.trim().getAsInteger(10, bytes) || bytes == 0)
          return usage("invalid value for --tma-gather-row-bytes: '" + list +
                       "' (positive integers, comma-separated)");
        rowBytes.push_back(bytes);
      }
      continue;
    }
    auto number = [&](StringRef flag, uint64_t &into) {
      StringRef v;
      if (!matchFlag(a, flag, &v))
        return false;
      if (v.getAsInteger(10, into)) {
        usage("invalid value for --" + flag + ": '" + v + "'");
        exit(1);
      }
      return true;
    };
    if (number("triton-shared", tritonShared) ||
        number("tle-shared", tleShared))
      continue;
    if (a == "-o" && i + 1 < argc) {
      output = argv[++i];
      continue;
    }
    if (a.starts_with("-") && a != "-")
      return usage("unknown option '" + a + "' for --tle-finish-llir");
    if (haveInput)
      return usage("more than one input file");
    input = a.str();
    haveInput = true;
  }

  std::unique_ptr<MemoryBuffer> buffer = readInput(input);
  if (!buffer)
    return 1;
  Expected<FinishResult> result = finishLLIR(
      buffer->getBuffer(), tritonShared, tleShared, foldDescriptors, rowBytes);
  if (!result) {
    errs() << "error: " << toString(result.takeError()) << "\n";
    return 1;
  }
  std::error_code ec;
  raw_fd_ostream os(output, ec, sys::fs::OF_Text);
  if (ec) {
    errs() << "error: cannot write '" << output << "': " << ec.message()
           << "\n";
    return 1;
  }
  os << "; tle.shared_size = " << result->sharedSize << "\n" << result->llir;
  return 0;
}
