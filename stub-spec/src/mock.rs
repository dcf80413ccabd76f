//! What a library's stub binds under `CUDA_STUBS_MOCK` ([`RealLibrary::mock`](crate::RealLibrary::mock)):
//! the mock device (`stub-mock`, `libcuda_stubs_mock.so`) implements the runtime, the driver and
//! NVML over one device model; the compilers need no device and stay real; every other
//! library would load a real runtime or driver beside the mock's, so it binds nothing.

/// How a library's stub treats the mock device (issue 37).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MockUse {
    /// The mock implements it: under `CUDA_STUBS_MOCK` the stub binds the mock library beside
    /// its own file, and searches nothing (the runtime, the driver, NVML).
    Implements,
    /// Needs no device: searched and bound as without the mock (NVRTC, nvJitLink, nvFatbin: a
    /// kernel really compiles).
    Real,
    /// Would bring a real runtime or driver beside the mock's: under `CUDA_STUBS_MOCK` it binds
    /// nothing and answers its "no library" code (the math and framework libraries).
    NoLibrary,
}
