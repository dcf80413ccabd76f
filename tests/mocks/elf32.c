/* A 32-bit shared object (built with -m32 when the compiler can): a candidate of the wrong ELF
 * class, which the loader must reject before dlopen. */
int cudaRuntimeGetVersion(int *version) {
  *version = 12090;
  return 0;
}
