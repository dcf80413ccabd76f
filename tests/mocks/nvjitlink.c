/* The export shape of nvJitLink 12.0 - 12.2 (here 12.1): only its own per-version names
 * (__nvJitLinkCreate_12_0, _12_1), no plain names and no nvJitLinkVersion (both came with
 * 12.3). Each returns a code naming itself, so a test sees which entry point a call reached. */
typedef struct nvJitLink *nvJitLinkHandle;

int __nvJitLinkCreate_12_0(nvJitLinkHandle *handle, unsigned num_options, const char **options) {
  (void)handle;
  (void)num_options;
  (void)options;
  return 120;
}

int __nvJitLinkCreate_12_1(nvJitLinkHandle *handle, unsigned num_options, const char **options) {
  (void)handle;
  (void)num_options;
  (void)options;
  return 121;
}

int __nvJitLinkDestroy_12_1(nvJitLinkHandle *handle) {
  (void)handle;
  return 121;
}
