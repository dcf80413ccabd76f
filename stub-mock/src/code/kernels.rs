//! The device code the kernel executor (`stub-ptx`) runs, by what holds it ([`Owner`]): a
//! driver module's PTX, kept when the module is loaded (the caller's image may be freed after
//! `cuModuleLoadData` returns), or an nvcc fat binary's PTX entry, read from its image (which
//! lives as long as the program) at the first launch of one of its kernels. Each is parsed and
//! decoded once, at that first launch, and shared by every later launch and every thread
//! running its blocks: decoding costs nothing for modules whose kernels never run.
//!
//! Only PTX runs: a CUBIN is machine code for a GPU. A module or fat binary holding none is
//! [`Missing::NoPtx`], refused at launch with how to add PTX.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use stub_loader::sync::{Mutex, MutexGuard};
use stub_ptx::Program;

/// What holds a kernel's code: the handle of a driver module (`cuModuleLoadData`, …) or of an
/// nvcc fat binary (`__cudaRegisterFatBinary`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Owner {
    /// A driver module's handle.
    Module(usize),
    /// A fat binary's handle.
    Fatbin(usize),
}

/// Why a kernel cannot run on the executor: the launch answers "not supported" with this in the
/// debug log.
#[derive(Debug, Clone)]
pub enum Missing {
    /// The image holds no PTX (CUBIN only).
    NoPtx,
    /// Its PTX could not be read (a compression the mock cannot undo, not UTF-8).
    Unreadable(String),
    /// The executor refused the module or the kernel: the PTX line and why.
    Refused(String),
}

impl Missing {
    /// The debug log's words for it, naming the kernel.
    pub fn describe(&self, kernel: &str) -> String {
        match self {
            Missing::NoPtx => format!(
                "{kernel}: its image holds no PTX (CUBIN only), and the mock runs PTX: build with \
                 PTX for the device (nvcc -gencode arch=compute_90,code=compute_90, or NVRTC)"
            ),
            Missing::Unreadable(why) => format!("{kernel}: its PTX cannot be read: {why}"),
            Missing::Refused(why) => format!("{kernel}: the kernel executor refuses it: {why}"),
        }
    }
}

#[derive(Default)]
struct Held {
    /// A driver module's PTX text, until it is decoded.
    text: Option<String>,
    /// The decoded program, once a kernel of it was launched.
    program: Option<Result<Arc<Program>, Missing>>,
}

static CODE: Mutex<BTreeMap<Owner, Held>> = Mutex::new(BTreeMap::new());

/// PTX texts by the address of the CUBIN the driver stub made of them
/// (`cuda_stubs_mock_keep_source`).
static SOURCES: Mutex<BTreeMap<usize, String>> = Mutex::new(BTreeMap::new());

/// Keeps the PTX of `image` (NUL-terminated PTX text, or a fat binary's entry for the newest
/// architecture) as the source of the CUBIN at `cubin`.
///
/// # Safety
/// `image` is NUL-terminated PTX text or a fat binary (bare or in nvcc's wrapper).
pub unsafe fn keep_source(cubin: usize, image: *const u8) {
    use stub_loader::device_code::{Image, classify};
    // SAFETY: by the contract.
    let text = match unsafe { classify(image.cast()) } {
        Image::Fatbin(fat) => fatbin_ptx_text(fat, u32::MAX).ok(),
        Image::Ptx(text, _) => {
            let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
            core::str::from_utf8(text.get(..end).unwrap_or_default())
                .ok()
                .map(String::from)
        }
        Image::Other => None,
    };
    if let Some(text) = text {
        SOURCES.lock().insert(cubin, text);
    }
}

fn code() -> MutexGuard<'static, BTreeMap<Owner, Held>> {
    CODE.lock()
}

/// Keeps the PTX text of driver module `module`, loaded from `image` (nothing for a CUBIN).
///
/// # Safety
/// `image` is a NUL-terminated PTX text or an ELF image, as `cuModuleLoadData` takes it (and the
/// mock checked it).
pub unsafe fn keep_module_image(module: usize, image: *const u8) {
    // SAFETY: at least the first 4 bytes of either form are readable (PTX: ".ver").
    let elf = unsafe { core::slice::from_raw_parts(image, 4) } == b"\x7fELF";
    let ptx = if elf {
        // A CUBIN the driver stub made of PTX, which it told (`keep_source`).
        SOURCES.lock().get(&(image as usize)).cloned()
    } else {
        // SAFETY: NUL-terminated, by the contract.
        let text = unsafe { core::ffi::CStr::from_ptr(image.cast()) };
        Some(String::from(text.to_string_lossy()))
    };
    keep_module(module, ptx);
}

/// Keeps a driver module's PTX text (`None`: the module is a CUBIN).
fn keep_module(module: usize, ptx: Option<String>) {
    let held = Held {
        program: ptx.is_none().then_some(Err(Missing::NoPtx)),
        text: ptx,
    };
    code().insert(Owner::Module(module), held);
}

/// Forgets what `owner` held (a module unloaded, a fat binary unregistered): `execute::unload`.
pub fn forget(owner: Owner) {
    code().remove(&owner);
}

/// The program of `owner`, decoded on first use; `sm` is the device's `major * 10 + minor` (a
/// fat binary's PTX entry is the newest not above it).
pub fn program(owner: Owner, sm: u32) -> Result<Arc<Program>, Missing> {
    if let Some(done) = code().get(&owner).and_then(|h| h.program.clone()) {
        return done;
    }
    // Decoded outside the lock: a big module takes a while, and other launches go on.
    let text = match owner {
        Owner::Module(_) => code()
            .get_mut(&owner)
            .and_then(|h| h.text.take())
            .ok_or(Missing::NoPtx),
        Owner::Fatbin(handle) => fatbin_text(handle, sm),
    };
    let program = text.and_then(|t| {
        Program::load(&t)
            .map(Arc::new)
            .map_err(|e| Missing::Refused(describe_ptx_error(&e)))
    });
    let mut held = code();
    let entry = held.entry(owner).or_default();
    // Another thread may have decoded it meanwhile: the first one stays.
    entry.program.get_or_insert(program).clone()
}

/// The PTX text of fat binary `handle` for an `sm` device, decompressed.
fn fatbin_text(handle: usize, sm: u32) -> Result<String, Missing> {
    let image = crate::code::fatbins::image_of(handle).ok_or(Missing::NoPtx)?;
    fatbin_ptx_text(image, sm)
}

/// The PTX text of the fat binary `image` for an `sm` device, decompressed.
fn fatbin_ptx_text(image: &[u8], sm: u32) -> Result<String, Missing> {
    let ptx = stub_loader::device_code::fatbin_ptx(image, sm).ok_or(Missing::NoPtx)?;
    let bytes: Vec<u8> = if ptx.compressed {
        decompress(ptx.payload)?
    } else {
        ptx.payload.to_vec()
    };
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8(bytes.get(..end).unwrap_or_default().to_vec())
        .map_err(|_| Missing::Unreadable(String::from("not UTF-8 text")))
}

/// A compressed fat-binary entry's bytes: nvcc 13 writes one zstd frame (magic `28 b5 2f fd`),
/// padded.
fn decompress(payload: &[u8]) -> Result<Vec<u8>, Missing> {
    use ruzstd::decoding::StreamingDecoder;
    use ruzstd::io::Read;
    if !payload.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        return Err(Missing::Unreadable(format!(
            "a compressed entry that is no zstd frame (first bytes {:02x?})",
            payload.get(..4).unwrap_or_default()
        )));
    }
    let mut input = payload;
    let mut decoder =
        StreamingDecoder::new(&mut input).map_err(|e| Missing::Unreadable(format!("zstd: {e}")))?;
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => return Ok(out),
            Ok(n) => out.extend_from_slice(buf.get(..n).unwrap_or_default()),
            Err(e) => return Err(Missing::Unreadable(format!("zstd: {e:?}"))),
        }
    }
}

/// A parse or decode error in words: the PTX line, its text and why.
pub fn describe_ptx_error(e: &stub_ptx::PtxError) -> String {
    let why = match &e.reason {
        stub_ptx::Reason::Syntax(s) => format!("not PTX it reads ({s})"),
        stub_ptx::Reason::Undefined(n) => format!("{n} is not defined"),
        stub_ptx::Reason::Unsupported(s) => format!("not supported by the executor ({s})"),
        stub_ptx::Reason::NoKernel => String::from("no such .entry"),
    };
    format!("PTX line {}: `{}`: {why}", e.line, e.text)
}
