"""How TLE's compiler is reached from Python: in-process, or through tle-opt.

By default TLE's passes run in-process in the nanobind module ``tle._tle``.
With ``tle.knobs.opt`` set (``TLE_OPT=/path/to/tle-opt`` in the environment) they run in that driver
instead, as a subprocess: same registry, same pipelines, same printing. That is
for machines where the extension cannot be loaded (another Python version, say
the GPU machine's Python 3.12) and for trying a freshly built ``tle-opt``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

from ._errors import MLIRError
from ._knobs import knobs

try:
    from . import _tle
except ImportError as e:  # e.g. built for another Python
    _tle = None
    _import_error = e
else:
    _import_error = None

def tle_opt() -> str | None:
    """``tle.knobs.opt`` (``TLE_OPT``): the tle-opt to run pipelines in, or None (in-process)."""
    return knobs.opt or None


def compiler_binary() -> Path:
    """The file holding the compiler in use (for cache fingerprints)."""
    opt = tle_opt()
    if opt:
        return Path(opt)
    _require_module()
    return Path(_tle.__file__)


def _require_module():
    if _tle is None:
        raise ImportError(f"TLE's extension module could not be loaded ({_import_error}); rebuild it with "
                          "`pip install --no-build-isolation -e .`, or set TLE_OPT to a tle-opt binary") from None


def run_pipeline(source: str, pipeline: str, source_name: str = "<tle>", debug_info: bool = False,
                 verify_each: bool = True) -> str:
    """Parse ``source``, run ``pipeline`` (textual pass pipeline) and print the result.

    Raises ``tle.MLIRError`` with one ``file:line:col: severity: message`` line
    per diagnostic when parsing, verification or a pass fails.
    Warnings of a run that succeeds (a pass leaving something to the user)
    are written to standard error, one such line each.

    Under Triton's ``MLIR_ENABLE_DUMP`` (``tle.knobs.mlir_enable_dump``) the
    module is printed before each pass, as Triton's pass managers do: every
    module for ``1``, only a module defining the kernel for a kernel name. The
    dumps go to standard error, or are appended to ``tle.knobs.mlir_dump_path``
    (``TLE_MLIR_DUMP_PATH``).

    It runs in process through TLE's extension module, or through the
    ``tle-opt`` binary when one is configured (``TLE_OPT``); both give the
    same output and messages.

    Args:
        source: MLIR text of a module (e.g. a kernel's ``ttir`` stage).
        pipeline: a textual pass pipeline, e.g.
            ``"builtin.module(triton-tle-raise-markers)"``; an empty string
            only parses, verifies and prints.
        source_name: the file name the diagnostics give for ``source``.
        debug_info: True to print the operations' locations in the result.
        verify_each: True (default) to verify the module after every pass.

    Returns:
        The resulting module as MLIR text.

    Example::

        k = tle.compile(kernel, signature={"X": "*fp32"}, constexprs={"N": 256}, target="sm_90")
        ttir = tle.run_pipeline(k.asm["ttir"], "builtin.module(triton-tle-raise-markers)",
                                source_name="kernel.ttir")
    """
    kernel = knobs.ir_dump_kernel()
    dump_file = (knobs.mlir_dump_path or "") if kernel is not None else ""
    opt = tle_opt()
    if opt is None:
        _require_module()
        if kernel is None:
            return _tle.run_pipeline(source, pipeline, source_name=source_name, debug_info=debug_info,
                                     verify_each=verify_each)
        sys.stderr.flush()  # the dumps follow what Python printed before
        return _tle.run_pipeline(source, pipeline, source_name=source_name, debug_info=debug_info,
                                 verify_each=verify_each, print_ir_before=True, print_ir_symbol=kernel,
                                 print_ir_file=dump_file)
    # The same code as in-process (TLE/RunPipeline.h): same output, same messages.
    cmd = [opt, "--tle-run-pipeline", f"--source-name={source_name}", f"--verify-each={'true' if verify_each else 'false'}"]
    if pipeline:
        cmd.append(f"--pass-pipeline={pipeline}")
    if debug_info:
        cmd.append("--debug-info")
    if kernel is None:
        return _run_opt(cmd, source)
    cmd.append("--mlir-print-ir-before-all")
    if kernel:
        cmd.append(f"--print-ir-symbol={kernel}")
    if dump_file:
        return _run_opt(cmd + [f"--print-ir-file={dump_file}"], source)
    # tle-opt's stderr carries its errors: its dumps go through a file, then to ours.
    fd, path = tempfile.mkstemp(prefix="tle-dump-", suffix=".mlir")
    os.close(fd)
    try:
        try:
            return _run_opt(cmd + [f"--print-ir-file={path}"], source)
        finally:
            with open(path) as f:
                sys.stderr.write(f.read())
            sys.stderr.flush()
    finally:
        os.unlink(path)


def _run_opt(cmd: list, source: str) -> str:
    proc = subprocess.run(cmd + ["-"], input=source, capture_output=True, text=True)
    if proc.returncode != 0:
        raise MLIRError(proc.stderr.rstrip("\n") or f"tle-opt exited with {proc.returncode}")
    if proc.stderr:  # warnings of a successful run, as in-process
        sys.stderr.write(proc.stderr)
        sys.stderr.flush()
    return proc.stdout


class LLIRError(RuntimeError):
    """TLE's llir finish refused Triton's LLVM IR; the message names the inline
    asm or instruction it cannot finish."""


_SHARED_SIZE = re.compile(r"^; tle\.shared_size = (\d+)\n")


def finish_llir(text: str, triton_shared: int, tle_shared: int,
                fold_wgmma_descriptors: bool = False,
                tma_gather_row_bytes: Sequence[int] = ()) -> tuple[str, int]:
    """TLE's llir finish (docs/local-memory.md, section 5).

    ``text`` is Triton's LLVM IR (``make_llir``), ``triton_shared`` Triton's
    ``metadata["shared"]``, ``tle_shared`` the module's ``tle.shared`` region.
    ``fold_wgmma_descriptors``: also compute each wgmma descriptor that LLVM
    hoisted out of its block inside the wgmma's asm (docs/warp-specialize.md,
    "wgmma descriptors"). ``tma_gather_row_bytes`` (sm_90 targets): split
    each TMA gather4 into one-row tile copies, the row width in bytes of each
    of the kernel's tensor descriptors in order (docs/warp-specialize.md,
    "Slot fills by TMA"). Returns the finished IR and the kernel's
    shared-memory size. Raises ``LLIRError`` when some inline asm or use of a
    shared pointer cannot be finished.
    """
    return _finish_llir(text, triton_shared, tle_shared, fold_wgmma_descriptors, tma_gather_row_bytes)


def _finish_llir(text: str, triton_shared: int, tle_shared: int,
                 fold_wgmma_descriptors: bool = False,
                 tma_gather_row_bytes: Sequence[int] = ()) -> tuple[str, int]:
    row_bytes = [int(b) for b in tma_gather_row_bytes]
    opt = tle_opt()
    if opt is None:
        _require_module()
        return _tle.finish_llir(text, int(triton_shared), int(tle_shared), bool(fold_wgmma_descriptors),
                                row_bytes)
    cmd = [opt, "--tle-finish-llir", f"--triton-shared={int(triton_shared)}", f"--tle-shared={int(tle_shared)}"]
    if fold_wgmma_descriptors:
        cmd.append("--fold-wgmma-descriptors")
    if row_bytes:
        cmd.append("--tma-gather-row-bytes=" + ",".join(map(str, row_bytes)))
    cmd.append("-")
    proc = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if proc.returncode != 0:
        message = proc.stderr.strip() or f"tle-opt exited with {proc.returncode}"
        raise LLIRError(message.removeprefix("error: "))
    m = _SHARED_SIZE.match(proc.stdout)
    if m is None:
        raise LLIRError(f"tle-opt --tle-finish-llir printed no shared size: {proc.stdout[:200]!r}")
    return proc.stdout[m.end():], int(m.group(1))
