// What compute-sanitizer's racecheck sees of mbarrier-ordered shared memory
// (test_pipe_gpu.py, test_racecheck_follows_only_per_thread_mbarrier_arrives).
// Warp 1 writes buf, then arrives on an mbarrier; warp 0 waits on it, then
// reads buf.
//   mode 0: every writing thread arrives (count 32).
//   mode 1: the writers meet at bar.sync, then one thread arrives (count 1):
//           the form of a tle.pipe commit, ordered by the PTX memory model
//           (bar.sync, then a release arrive that the wait acquires).
//   mode 2: no synchronization (a real race).
// Built with: nvcc -arch=sm_90 -o racecheck_mbarrier racecheck_mbarrier.cu
#include <cstdint>
#include <cstdio>
#include <cstdlib>
__global__ void k(int *out, int mode) {
  __shared__ int buf[32];
  __shared__ uint64_t full;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t bar = (uint32_t)__cvta_generic_to_shared(&full);
  if (threadIdx.x == 0) {
    int count = mode == 0 ? 32 : 1;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  if (warp == 1) {
    buf[lane] = lane * 3 + 1;
    if (mode == 0) {
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
    } else if (mode == 1) {
      asm volatile("bar.sync 1, 32;" ::: "memory");
      if (lane == 0) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
    }
  } else {
    if (mode != 2) {
      uint32_t done = 0;
      while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(bar) : "memory");
    }
    out[lane] = buf[(lane + 1) & 31];
  }
}
int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  int *d; cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 64>>>(d, mode);
  int h[32]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int ok = 1; for (int i = 0; i < 32; ++i) ok &= h[i] == ((i + 1) & 31) * 3 + 1;
  printf("mode %d: %s\n", mode, ok ? "right" : "WRONG");
  return 0;
}
