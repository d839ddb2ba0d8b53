// TLE's stage pipelines, registered by name (lib/InitAll/Pipelines.cpp): what
// each expands to, its options, and the errors of a bad one.
// RUN: tle-opt %s --pass-pipeline='builtin.module(tle-ttir{num-stages=5})' --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=TTIR
// RUN: tle-opt %s --pass-pipeline='builtin.module(tle-ttgir)' --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=TTGIR
// RUN: tle-opt %s --pass-pipeline='builtin.module(tle-ttgir{wait-limit=7 disable=triton-tle-merge-wgmma-waits,triton-tle-optimize-local-pointer-loads})' --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=OPTS
// RUN: not tle-opt %s --pass-pipeline='builtin.module(tle-ttgir-iluvatar)' --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=ILUVATAR
// RUN: tle-opt %s --pass-pipeline='builtin.module(tle-dsa)' --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=DSA
// RUN: not tle-opt %s --pass-pipeline='builtin.module(tle-ttgir{disable=triton-tle-lower-dsa})' 2>&1 | FileCheck %s --check-prefix=NOTIN
// RUN: not tle-opt %s --pass-pipeline='builtin.module(tle-ttir{num-stages=x})' 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: tle-opt %s --pass-pipeline='builtin.module(tle-ttgir)' | FileCheck %s --check-prefix=PLAIN

// TTIR:      Pass Manager with 8 passes:
// TTIR-NEXT: builtin.module(
// TTIR-NEXT:   triton-tle-bind-pipeline-groups,
// TTIR-NEXT:   triton-tle-raise-markers{ verify-only=true},
// TTIR-NEXT:   triton-tle-raise-markers{ops={tle.async_load} verify-only=false},
// TTIR-NEXT:   triton-tle-lower-async-loads{num-stages=5},
// TTIR-NEXT:   triton-tle-raise-markers{ops={tle.pipeline_group_begin,tle.pipeline_group_end} verify-only=false},
// TTIR-NEXT:   triton-tle-lower-pipeline-groups,
// TTIR-NEXT:   triton-tle-unpipeline-local-pointer-loads,
// TTIR-NEXT:   triton-tle-number-markers
// TTIR-NEXT: )

// TTGIR:      Pass Manager with 31 passes:
// TTGIR-NEXT: builtin.module(
// TTGIR-NEXT:   triton-tle-reject-dsa,
// TTGIR-NEXT:   triton-tle-merge-marker-copies,
// TTGIR-NEXT:   triton-tle-raise-markers{ verify-only=false},
// TTGIR:        triton-tle-lower-pipes,
// TTGIR-NEXT:   triton-tle-lower-barriers,
// TTGIR-NEXT:   triton-tle-lower-wgmma,
// TTGIR-NEXT:   triton-tle-lower-layouts,
// TTGIR:        triton-tle-lower-distributed{wait-limit=0},
// TTGIR:        triton-tle-optimize-local-pointer-stores{in-value-encoding=true},
// TTGIR-NEXT:   triton-tle-zero-partial-buffers,
// TTGIR-NEXT:   triton-tle-select-encodings,
// TTGIR:        triton-tle-merge-wgmma-waits,
// TTGIR:        tle-assert-lowered
// TTGIR-NEXT: )

// OPTS:     Pass Manager with 28 passes:
// OPTS-NOT: triton-tle-optimize-local-pointer-loads
// OPTS:     triton-tle-lower-distributed{wait-limit=7}
// OPTS-NOT: triton-tle-optimize-local-pointer-loads
// OPTS-NOT: triton-tle-merge-wgmma-waits
// OPTS:     tle-assert-lowered

// ILUVATAR:      Pass Manager with 7 passes:
// ILUVATAR:        triton-tle-insert-local-pointer-barriers{all-buffers=true},
// ILUVATAR-NEXT:   triton-tle-lower-to-iluvatar,
// ILUVATAR-NEXT:   tle-assert-lowered
// ILUVATAR:        error: triton-tle-lower-to-iluvatar lowers TLE for Iluvatar targets only

// DSA:      Pass Manager with 2 passes:
// DSA-NEXT: builtin.module(
// DSA-NEXT:   triton-tle-raise-markers{ verify-only=false},
// DSA-NEXT:   triton-tle-lower-dsa
// DSA-NEXT: )

// NOTIN: error: pipeline tle-ttgir: disable= names 'triton-tle-lower-dsa', which is not one of its passes

// BADOPT: 'x' value invalid for integer argument

// PLAIN-LABEL: tt.func @plain
tt.func @plain(%p: !tt.ptr<f32>) {
  tt.return
}
