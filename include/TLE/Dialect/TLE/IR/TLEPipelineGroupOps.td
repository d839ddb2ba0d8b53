//===- TLEPipelineGroupOps.td - tle.range pipeline groups -----------------===//
//
// `with tle.pipeline_group(i):` inside a `tle.range(...)` loop (docs/pipeline-groups.md).
// The two ops bracket the ops of one group in the loop body; they exist only
// between the tle-ttir stage's raise-markers and triton-tle-lower-pipeline-groups,
// which turns them into Triton's schedule attributes and erases them.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEPIPELINEGROUPOPS_TD
#define TLE_DIALECT_TLEPIPELINEGROUPOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

def TLE_PipelineGroupBeginOp : TLE_Op<"pipeline_group_begin"> {
  let summary = "Start of pipeline group `group` in a tle.range loop body";
  let description = [{
    Opens group `group` of the enclosing loop's `num_groups` groups. The ops
    up to the matching `tle.pipeline_group_end` belong to the group, which
    runs in software-pipeline stage `stage` (of the loop's `num_stages`) and
    is ordered within its stage by `order` (`pipe_stages[group]` and
    `pipe_orders[group]` of `tle.range`).

    ```mlir
    tle.pipeline_group_begin 0 stage 0 order 0 groups 3 stages 2
    ```

    Rules: `0 <= group < num_groups`, `0 <= stage < num_stages`,
    `order >= 0`, and the op sits directly in the body of an `scf.for`
    (not inside an `scf.if` or a nested region of the loop).
  }];
  let arguments = (ins I32Attr:$group, I32Attr:$stage, I32Attr:$order,
                       I32Attr:$num_groups, I32Attr:$num_stages);
  let assemblyFormat = [{
    $group `stage` $stage `order` $order `groups` $num_groups `stages` $num_stages attr-dict
  }];
  let hasVerifier = 1;
}

def TLE_PipelineGroupEndOp : TLE_Op<"pipeline_group_end"> {
  let summary = "End of pipeline group `group` in a tle.range loop body";
  let description = [{
    Closes the group opened by the nearest preceding
    `tle.pipeline_group_begin` of the same loop body, which must name the same
    `group` (checked by `triton-tle-lower-pipeline-groups`).

    ```mlir
    tle.pipeline_group_end 0
    ```

    Rules: `group >= 0`, and the op sits directly in the body of an `scf.for`.
  }];
  let arguments = (ins I32Attr:$group);
  let assemblyFormat = "$group attr-dict";
  let hasVerifier = 1;
}

#endif // TLE_DIALECT_TLEPIPELINEGROUPOPS_TD
