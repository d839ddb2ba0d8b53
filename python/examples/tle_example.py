"""TLE's main example: a TLE module through the in-process compiler.

Prints the module as parsed, then after `canonicalize,cse`, then shows the
diagnostic `tle-assert-lowered` gives while a tle op is still present.
"""
import tle

SOURCE = """
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @row_offsets(%counts: tensor<8x32xi32, #blocked>) -> (tensor<8x32xi32, #blocked>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>) {
  %excl, %total = tle.exclusive_cumsum %counts {axis = 0 : i32} : tensor<8x32xi32, #blocked> -> tensor<8x32xi32, #blocked>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
  %e2, %t2 = tle.exclusive_cumsum %counts {axis = 0 : i32} : tensor<8x32xi32, #blocked> -> tensor<8x32xi32, #blocked>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
  return %excl, %t2 : tensor<8x32xi32, #blocked>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
}
"""


def stage(title, text):
    print(f"// ----- {title} " + "-" * max(0, 60 - len(title)))
    print(text.rstrip())


def main():
    stage("parsed", tle.run_pipeline(SOURCE, "", source_name="example.mlir"))
    stage("canonicalize,cse", tle.run_pipeline(SOURCE, "canonicalize,cse", source_name="example.mlir"))
    try:
        tle.run_pipeline(SOURCE, "cse,tle-assert-lowered", source_name="example.mlir")
    except tle.MLIRError as err:
        stage("tle-assert-lowered (expected failure)", str(err))


if __name__ == "__main__":
    main()
