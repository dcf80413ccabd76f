// No CUDA code: the switch must add nothing to this executable.
#include <cstdio>
int main() {
  std::printf("no cuda\n");
  return 0;
}
