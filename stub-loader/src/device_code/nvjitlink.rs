//! The nvJitLink that reconciles device code ([`compile`]): found by the usual search for
//! nvJitLink (`stub_spec::libraries::NVJITLINK`: a copy already loaded, `CUDA_STUBS_NVJITLINK_PATH`,
//! NVIDIA's wheels, the loader's search, the toolkit), bound through its plain names (12.3 and
//! later export them; an nvJitLink that can read PTX newer than a driver is newer than that).
//!
//! Prototypes (`nvJitLink.h`, CUDA 12.3 – 13.5; `nvJitLinkResult` is a C enum, 0 success):
//! `nvJitLinkCreate(nvJitLinkHandle *, uint32_t numOptions, const char **options)`,
//! `nvJitLinkAddData(nvJitLinkHandle, nvJitLinkInputType, const void *, size_t, const char *name)`,
//! `nvJitLinkComplete(nvJitLinkHandle)`, `nvJitLinkGetLinkedCubinSize(nvJitLinkHandle, size_t *)`,
//! `nvJitLinkGetLinkedCubin(nvJitLinkHandle, void *)`, `nvJitLinkGet{Error,Info}LogSize(nvJitLinkHandle, size_t *)`,
//! `nvJitLinkGet{Error,Info}Log(nvJitLinkHandle, char *)`, `nvJitLinkDestroy(nvJitLinkHandle *)`.

use crate::fn_table::FnTable;
use crate::library::Library;
use crate::spec::LibrarySpec;
use alloc::vec::Vec;
use core::ffi::{CStr, c_char, c_uint, c_void};

type Handle = *mut c_void;
type Create = unsafe extern "C" fn(*mut Handle, u32, *const *const c_char) -> c_uint;
type AddData = unsafe extern "C" fn(Handle, c_uint, *const c_void, usize, *const c_char) -> c_uint;
type OneHandle = unsafe extern "C" fn(Handle) -> c_uint;
type GetSize = unsafe extern "C" fn(Handle, *mut usize) -> c_uint;
type GetBytes = unsafe extern "C" fn(Handle, *mut c_void) -> c_uint;
type Destroy = unsafe extern "C" fn(*mut Handle) -> c_uint;

/// `nvJitLinkInputType`'s values the reconciliation hands it (nvJitLink.h, 12.0 – 13.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Input {
    /// `NVJITLINK_INPUT_CUBIN`: a relocatable CUBIN (a driver link's `CU_JIT_INPUT_CUBIN`).
    Cubin = 1,
    /// `NVJITLINK_INPUT_PTX`.
    Ptx = 2,
    /// `NVJITLINK_INPUT_LTOIR` (a driver link's `CU_JIT_INPUT_NVVM`); needs `-lto`.
    Ltoir = 3,
    /// `NVJITLINK_INPUT_FATBIN`: nvJitLink picks the entry for `-arch` itself (and inflates a
    /// compressed one).
    Fatbin = 4,
    /// `NVJITLINK_INPUT_OBJECT`: a host object with embedded device code.
    Object = 5,
    /// `NVJITLINK_INPUT_LIBRARY`: an archive of them (`libcudadevrt.a`).
    Library = 6,
}

static NVJITLINK_SPEC: LibrarySpec = LibrarySpec {
    real: stub_spec::libraries::NVJITLINK.real,
    replacements: &[],
    proc_address: None,
    last_error: None,
};

/// No exports: the reconciliation binds its few names itself, ungated.
static NO_FUNCTIONS: FnTable = FnTable {
    names: b"",
    meta: &[],
    slots: &[],
    no_library: core::ptr::null_mut(),
    absent: core::ptr::null_mut(),
    zero: core::ptr::null_mut(),
    negated_no_library: core::ptr::null_mut(),
    negated_absent: core::ptr::null_mut(),
    custom: &[],
    traced: core::ptr::null_mut(),
};

/// The nvJitLink this stub reconciles with, searched for on first use only: a process whose
/// device code the driver takes never looks for it.
pub(crate) static NVJITLINK: Library = Library::new(&NVJITLINK_SPEC, &NO_FUNCTIONS);

/// What nvJitLink made of its inputs.
#[derive(Debug)]
pub(crate) struct Linked {
    /// The CUBIN.
    pub(crate) cubin: Vec<u8>,
    /// Its info log (may be empty), without the NUL.
    pub(crate) info_log: Vec<u8>,
}

/// Why nvJitLink made nothing.
#[derive(Debug)]
pub(crate) struct LinkFailed {
    /// The `nvJitLinkResult` of the call that failed.
    pub(crate) code: u32,
    /// The call.
    pub(crate) call: &'static str,
    /// The error log, without the NUL (may be empty).
    pub(crate) error_log: Vec<u8>,
}

/// Looks up `name` in the bound nvJitLink as prototype `F`.
///
/// # Safety
/// `F` is the function-pointer type of `name`'s prototype (the module docs).
unsafe fn entry<F: Copy>(name: &CStr) -> Option<F> {
    let p = NVJITLINK.ungated_symbol(name)?;
    // SAFETY: `F` is a function pointer of that name's prototype (caller's contract), and a
    // function pointer has a data pointer's size on every target the stubs build for.
    Some(unsafe { core::mem::transmute_copy::<*mut c_void, F>(&p) })
}

/// The bound nvJitLink's `(CUDA version, path)`, `None` when none was found.
pub(crate) fn bound() -> Option<(i32, &'static CStr)> {
    let loaded = NVJITLINK.loaded();
    loaded
        .is_bound()
        .then(|| (loaded.version, loaded.path().unwrap_or(c"")))
}

/// Links `inputs` (each its kind and bytes, added in order) into one CUBIN with `options`
/// (`-arch=sm_90`, …). `Err` with nvJitLink's own code and logs when it fails, or with code
/// `u32::MAX` when the bound nvJitLink lacks one of the names.
pub(crate) fn compile(inputs: &[(Input, &[u8])], options: &[&CStr]) -> Result<Linked, LinkFailed> {
    let missing = |call| LinkFailed {
        code: u32::MAX,
        call,
        error_log: Vec::new(),
    };
    // SAFETY: each type is the prototype of its name in nvJitLink.h.
    let (create, add, complete, size, cubin, err_size, err, info_size, info, destroy) = unsafe {
        (
            entry::<Create>(c"nvJitLinkCreate").ok_or_else(|| missing("nvJitLinkCreate"))?,
            entry::<AddData>(c"nvJitLinkAddData").ok_or_else(|| missing("nvJitLinkAddData"))?,
            entry::<OneHandle>(c"nvJitLinkComplete").ok_or_else(|| missing("nvJitLinkComplete"))?,
            entry::<GetSize>(c"nvJitLinkGetLinkedCubinSize")
                .ok_or_else(|| missing("nvJitLinkGetLinkedCubinSize"))?,
            entry::<GetBytes>(c"nvJitLinkGetLinkedCubin")
                .ok_or_else(|| missing("nvJitLinkGetLinkedCubin"))?,
            entry::<GetSize>(c"nvJitLinkGetErrorLogSize")
                .ok_or_else(|| missing("nvJitLinkGetErrorLogSize"))?,
            entry::<GetBytes>(c"nvJitLinkGetErrorLog")
                .ok_or_else(|| missing("nvJitLinkGetErrorLog"))?,
            entry::<GetSize>(c"nvJitLinkGetInfoLogSize")
                .ok_or_else(|| missing("nvJitLinkGetInfoLogSize"))?,
            entry::<GetBytes>(c"nvJitLinkGetInfoLog")
                .ok_or_else(|| missing("nvJitLinkGetInfoLog"))?,
            entry::<Destroy>(c"nvJitLinkDestroy").ok_or_else(|| missing("nvJitLinkDestroy"))?,
        )
    };
    let argv: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
    let mut handle: Handle = core::ptr::null_mut();
    let count = u32::try_from(argv.len()).unwrap_or(u32::MAX);
    // SAFETY: the prototypes above; `argv` holds `count` NUL-terminated options.
    let code = unsafe { create(&mut handle, count, argv.as_ptr()) };
    if code != 0 || handle.is_null() {
        return Err(LinkFailed {
            code,
            call: "nvJitLinkCreate",
            error_log: Vec::new(),
        });
    }
    // SAFETY: `handle` is live until destroyed below; each input is readable for its length.
    let result = unsafe {
        let log = |get_size: GetSize, get: GetBytes| -> Vec<u8> {
            let mut n = 0usize;
            if get_size(handle, &mut n) != 0 || n == 0 {
                return Vec::new();
            }
            let mut bytes = alloc::vec![0u8; n];
            if get(handle, bytes.as_mut_ptr().cast()) != 0 {
                return Vec::new();
            }
            // The size counts the NUL.
            while bytes.last() == Some(&0) {
                bytes.pop();
            }
            bytes
        };
        let failed = |code, call| LinkFailed {
            code,
            call,
            error_log: log(err_size, err),
        };
        let added = inputs.iter().try_for_each(|(input, data)| {
            match add(
                handle,
                *input as c_uint,
                data.as_ptr().cast(),
                data.len(),
                c"cuda-stubs".as_ptr(),
            ) {
                0 => Ok(()),
                code => Err(code),
            }
        });
        if let Err(code) = added {
            Err(failed(code, "nvJitLinkAddData"))
        } else if let code @ 1.. = complete(handle) {
            Err(failed(code, "nvJitLinkComplete"))
        } else {
            let mut n = 0usize;
            let code = size(handle, &mut n);
            let mut bytes = alloc::vec![0u8; n];
            if code != 0 {
                Err(failed(code, "nvJitLinkGetLinkedCubinSize"))
            } else if let code @ 1.. = cubin(handle, bytes.as_mut_ptr().cast()) {
                Err(failed(code, "nvJitLinkGetLinkedCubin"))
            } else {
                Ok(Linked {
                    cubin: bytes,
                    info_log: log(info_size, info),
                })
            }
        }
    };
    // SAFETY: the handle nvJitLinkCreate gave.
    unsafe { destroy(&mut handle) };
    result
}
