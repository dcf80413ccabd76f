// OpenMP host threads in an nvcc-built program (as many as OMP_NUM_THREADS asks: OpenMP is on),
// then ../common/probe.cu's runtime calls.
#include <cstdio>
#include <omp.h>

int cuda_stubs_probe();

int main() {
  int threads = 0;
#pragma omp parallel reduction(+ : threads)
  threads += 1;
  std::printf("openmp threads %d\n", threads);
  return cuda_stubs_probe();
}
