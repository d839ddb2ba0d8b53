//===- Pipes.h - triton-tle-lower-pipes, shared by its phases ---*- C++ -*-===//
//
// One pipe's lowering (PipeLowering), shared by the files of
// triton-tle-lower-pipes: LowerPipes.cpp (endpoints, rings, the counters
// threaded through each partition, commit / release / slot views, the pass)
// and LowerPipeFills.cpp (the slot fills: cp.async and TMA).
//
//===----------------------------------------------------------------------===//
#ifndef TLE_LIB_CONVERSION_TLETOTRITONGPU_PIPES_H
#define TLE_LIB_CONVERSION_TLETOTRITONGPU_PIPES_H

#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTNG.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>

namespace mlir::tle::pipes {

/// The unit attribute frontend tle.gpu.copy(is_async=True) puts on its load.
inline constexpr llvm::StringLiteral kAsyncCopyAttr = "tle.async_copy";
/// The unit attribute tle.gpu.copy from a tensor descriptor puts on its
/// tle.local_store of Triton's gather into the slot.
inline constexpr llvm::StringLiteral kTmaFillAttr = "tle.tma_fill";

/// A TMA row gather into a writer's slot (tle.gpu.copy from a tensor
/// descriptor): the tle.local_store into the slot view and Triton's
/// expansion of the tt.descriptor_gather it stores, which TritonGPU's TMA
/// lowering made a gather into a scratch buffer on a barrier of its own,
/// waited for and loaded (docs/warp-specialize.md, "Slot fills by TMA").
struct TmaFill {
  LocalStoreOp store;
  PipeSlotOp view;
  ttng::AsyncTMAGatherOp gather;
  /// The scratch buffer, its barrier, every op on them but the gather and
  /// the layout conversions of the loaded value.
  SmallVector<Operation *> expansion;
};

/// `region` of a place in the kernel body before `ws` (a one-shot writer).
constexpr int kBeforeRegion = -2;

/// Where an endpoint op runs: a tle.warp_specialize and its region (-1: the
/// default region, i: worker partition i, kBeforeRegion: before the op).
struct Place {
  WarpSpecializeOp ws;
  int region = 0;
  bool operator==(const Place &o) const {
    return ws == o.ws && region == o.region;
  }
};

/// The ops of one endpoint (the writer when `reader` is empty).
struct Endpoint {
  std::string reader;
  SmallVector<Operation *> ops;
  std::optional<Place> place;
  /// Its slot-taking ops carry positions (`at [%stage, %phase]`, cursors):
  /// no counter is threaded.
  bool positioned = false;
  bool isWriter() const { return reader.empty(); }
  std::string name() const {
    return isWriter() ? std::string("the writer") : "reader '" + reader + "'";
  }
  /// Ops that take a slot (and advance the counter).
  bool counts(Operation *op) const {
    return isa<PipeWriterAcquireOp, PipeWriterCloseOp, PipeReaderWaitOp>(op);
  }
};

struct PipeLowering {
  PipeCreateOp create;
  PipeType type;
  ModuleOp module;
  SmallVector<Endpoint> endpoints; // [0] = writer, then the readers
  bool closes = false;
  Value ready, empty, flags; // the rings and the closed flags
  std::optional<Place> place;
  /// tle.gpu.copy(is_async=True) into the writer's slots: the store
  /// (tle.local_store or ttg.local_store) into the slot view and the tagged
  /// load it stores (docs/warp-specialize.md,
  /// "Asynchronous slot fills").
  SmallVector<std::pair<Operation *, tt::LoadOp>> asyncFills;
  SmallVector<TmaFill> tmaFills;
  /// The bytes the TMA fills of each commit's slot bring (its expect_tx).
  llvm::DenseMap<Operation *, int64_t> commitBytes;
  /// Fields some slot view of which tle.local_pointers takes (FlagTree's
  /// `local_ptr(slot.field, ...)`): pointer buffers in TLE's region, their
  /// views tle.buffer_slots (docs/warp-specialize.md, "Local pointers into
  /// slots").
  llvm::SmallDenseSet<unsigned, 4> pointerFields;

  InFlightDiagnostic error(Operation *op) {
    return op->emitOpError() << "(pipe '" << create.getName() << "'): ";
  }

  Endpoint &endpointOf(StringRef reader) {
    for (Endpoint &e : endpoints)
      if (e.reader == reader)
        return e;
    llvm_unreachable("reader checked by the op verifier");
  }

  /// The pipe's users in program order (diagnostics name the first misuse).
  SmallVector<Operation *> usersInOrder() {
    llvm::SmallPtrSet<Operation *, 16> users;
    for (Operation *user : create.getPipe().getUsers())
      users.insert(user);
    SmallVector<Operation *> ordered;
    create->getParentOp()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (users.contains(op))
        ordered.push_back(op);
    });
    return ordered;
  }
  LogicalResult collect();
  LogicalResult checkSlots();
  void collectPointerFields();
  bool isPointerView(PipeSlotOp view) {
    return pointerFields.contains(*type.getFieldIndex(view.getField()));
  }
  LogicalResult collectAsyncFills();
  LogicalResult collectTmaFill(LocalStoreOp store, PipeSlotOp view);
  void lowerAsyncFills();
  void lowerTmaFills();
  void buildRings();
  Value index(OpBuilder &b, Location loc, Value ring, Value slot);
  LogicalResult thread(Endpoint &e);
  FailureOr<Value>
  threadBlock(Endpoint &e, Block &block, Value count,
              const llvm::SmallPtrSetImpl<Operation *> &holders);
  void lowerCounting(Endpoint &e, Operation *op, Value count);
  void lowerTaking(Operation *op, Value slot, Value phase);
  void lowerPositioned(Endpoint &e);
  /// The commits that may publish the slot `view` fills: those of its slot
  /// value, and for a positioned acquire those of its stage.
  SmallVector<PipeWriterCommitOp> commitsOf(PipeSlotOp view);
  void lowerRest();
  void barrierIfWide(OpBuilder &b, Location loc, Operation *at);
  void publishSlot(OpBuilder &b, Location loc, Operation *at, Value slot,
                   bool fence);
  void setFlag(OpBuilder &b, Location loc, Value slot, int64_t value);
  Value readFlag(OpBuilder &b, Location loc, Value slot);
};

} // namespace mlir::tle::pipes

#endif // TLE_LIB_CONVERSION_TLETOTRITONGPU_PIPES_H
