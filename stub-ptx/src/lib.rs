//! stub-ptx: runs a CUDA kernel's PTX on the CPU, for the mock device (issue 47). It knows
//! nothing of the CUDA API: it takes PTX text ([`Program::load`]), a kernel name
//! ([`Program::kernel`]), a launch ([`Launch`]: grid, block, dynamic shared bytes, the packed
//! parameter buffer laid out by [`Kernel::param_layout`]) and a [`Device`] (device-memory
//! bounds, module variables' addresses, printf), and runs the launch's blocks ([`run`],
//! [`run_block`], or [`Prepared`] to resolve the variables once and spread blocks over threads).
//!
//! # What runs
//! The PTX that NVRTC and nvcc 11.8–13.x emit (`.version` 7.0–9.x, `.target sm_XX[a]`,
//! `.address_size 64`): `.entry` and `.func` (with `.param` arguments and results, recursion),
//! `.reg` (ranges `%r<10>`), `.local`/`.shared`/`.param` variables in modules and bodies,
//! `.extern .shared` (dynamic shared memory), `.global`/`.const` module variables with
//! initializers (their storage is the device's), guards `@%p`/`@!%p`, vector operands, and:
//! `mov`, `ld`/`ldu`/`st` (every state space, generic addressing, `.v2`/`.v4`, 8–64-bit
//! widths, `.nc`, cache and scope qualifiers ignored), `cvta`, `isspacep`, integer `add sub
//! mul(.lo .hi .wide) mad mul24 div rem abs neg min max sad` and the carry chain (`add.cc addc
//! sub.cc subc mad.cc madc`), `and or xor not cnot shl shr`, `popc clz brev bfind bfe bfi prmt
//! shf dp4a dp2a lop3 szext`, float `add sub mul fma mad div min max abs neg sqrt rcp rsqrt sin
//! cos ex2 lg2 tanh copysign testp` on f32 and f64 and, where PTX has them, f16, bf16 and their
//! x2 forms (numerics in [`num`]), `cvt` between every integer and float type, `setp` (every
//! comparison, `.and/.or/.xor` with a predicate, `p|q`), `set`, `selp`, predicate logic,
//! `bra`, `call` (direct, with `.param` arguments and results, recursion), `ret`, `exit`,
//! `bar.sync`/`barrier.sync` (with or without a thread count), `bar.arrive`, `bar.red`
//! (`popc`, `and`, `or`), `bar.warp.sync`, `membar`/`fence` (no-ops: see below), special
//! registers (`%tid %ntid %ctaid %nctaid %laneid %warpid %nwarpid %smid %nsmid %gridid %clock
//! %clock64 %globaltimer %lanemask_* %dynamic_smem_size %total_smem_size`), `atom`/`red` on
//! global, shared and generic addresses (`add` on integers, f32, f64, f16, f16x2, bf16, bf16x2;
//! `min max inc dec and or xor exch cas`), `cp.async` (copied at once; its groups' commits and
//! waits are no-ops), `shfl.sync` (`up down bfly idx`, clamp and segment mask), `vote.sync`
//! (`all any uni ballot`), `match.sync`, `redux.sync` (integer), `elect.sync`, `activemask`,
//! `trap`, and the built-in calls `vprintf` and `__assertfail`.
//!
//! # What is refused
//! Anything else is refused when the kernel is decoded, with its line: [`Reason::Unsupported`]
//! (never skipped silently): among others `brx.idx`, indirect calls, calls to `.extern`
//! functions other than `vprintf` and `__assertfail` (device `malloc`), textures and surfaces,
//! `ld`/`st` of `.b128`, `mma`/`wgmma`/`ldmatrix`/`stmatrix`, `cp.async.bulk`, `mbarrier`,
//! clusters (`mapa`, `getctarank`), `createpolicy`, float `redux`, float atomic `min`/`max`,
//! `.relu`, 16-bit carry arithmetic.
//!
//! # Execution model
//! Each kernel is decoded once into a compact form ([`ops`]): per function, a flat register
//! file of `u64` slots (immediates and the warp's constant special registers are slots set
//! when a frame is entered, so every operand is a slot) and one bit mask per predicate;
//! instructions are typed operations whose ALU kernels ([`alu`]) loop over all 32 lanes of a
//! warp at once (registers are stored lane-contiguous per slot), branch targets are
//! instruction indices.
//!
//! A block is its warps (32 lanes, the last one partial). A warp runs in lockstep with an
//! active mask; divergence is handled by per-lane program counters: while the warp's lanes
//! agree it keeps one pc; once a branch splits them, each step runs the instruction at the
//! smallest pc among the lanes that can run, for the lanes at that pc, which reconverges
//! structured code at its join points (the lanes ahead wait there), and the warp returns to one
//! pc as soon as all its lanes agree. A `call` runs the callee for the lanes that call it, the
//! other lanes of the caller waiting until every calling lane has returned or exited (calls
//! are reconvergence points). Warps are scheduled cooperatively on one thread: a warp runs
//! until all its lanes wait at a barrier (`bar.sync`) or have exited, then the next; when every
//! warp waits or has ended, the barrier releases all (named barriers and thread counts are not
//! told apart: producer/consumer code, whose producers `bar.arrive` before they wait or end,
//! releases the same way). Lanes that wait at a barrier inside divergent code are released
//! when the rest of their warp waits too or has ended. Blocks are independent: the mock may run
//! them on several threads ([`Prepared::run_block`]).
//!
//! Memory: the parameter buffer; the block's shared memory (static variables, then the
//! dynamic part aligned); each warp's local memory (the frames of its calls, laid out lane by
//! lane); device memory through raw pointers once [`Device::global_ok`] accepts the range
//! (cached per warp), with the host's atomics (relaxed loads and stores, sequentially
//! consistent read-modify-writes), so that blocks on several threads race as the hardware's
//! would. Generic addresses put shared, local and parameter memory in windows above every
//! host address ([`memory`]). `membar`/`fence` are no-ops: a block's warps run one after
//! another on one thread and device memory is accessed through the host's atomics, so there
//! is nothing left for a fence to order. Faults end the launch: an access outside every
//! allocation ([`Fault::IllegalAddress`]), misaligned ([`Fault::MisalignedAddress`]),
//! `trap`, a failed `assert`, the launch's instruction budget or stop callback
//! ([`Fault::Timeout`]).
#![no_std]

extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod alu;
pub mod decode;
pub mod device;
pub mod error;
pub mod exec;
pub mod lex;
pub mod memory;
pub mod module;
pub mod num;
pub mod ops;
pub mod parse;
pub mod program;

pub use decode::Kernel;
pub use device::{Device, Launch};
pub use error::{Fault, PtxError, Reason};
pub use exec::{Prepared, run, run_block};
pub use program::Program;
