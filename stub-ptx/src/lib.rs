//! stub-ptx: runs a CUDA kernel's PTX on the CPU, for the mock device (issue 47). It knows
//! nothing of the CUDA API: it takes PTX text ([`Program::load`]), a kernel name
//! ([`Program::kernel`]), a launch ([`Launch`]: grid, block, dynamic shared bytes, the packed
//! parameter buffer laid out by [`Kernel::param_layout`]) and a [`Device`] (device-memory
//! bounds, module variables' addresses, printf, the malloc heap), and runs the launch's blocks ([`run`],
//! [`run_block`], or [`Prepared`] to resolve the variables once and spread blocks over threads).
//!
//! # What runs
//! The PTX that NVRTC and nvcc 11.8–13.x emit (`.version` 7.0–9.x, `.target sm_XX[a]`,
//! `.address_size 64`): `.entry` and `.func` (with `.param` arguments and results, recursion),
//! `.reg` (ranges `%r<10>`), `.local`/`.shared`/`.param` variables in modules and bodies, `.extern
//! .shared` (dynamic shared memory), `.global`/`.const` module variables with initializers (their
//! storage is the device's), guards `@%p`/`@!%p`, vector operands, and: `mov`, `ld`/`ldu`/`st`
//! (every state space, generic addressing, `.v2`/`.v4`, 8–128-bit widths: a `.b128` register is two
//! slots, moved by `mov.b128`; `.nc`, cache and scope qualifiers ignored), `cvta`, `isspacep`,
//! integer `add sub mul(.lo .hi .wide) mad mul24 div rem abs neg min max sad` and the carry chain
//! (`add.cc addc sub.cc subc mad.cc madc`), `and or xor not cnot shl shr`, `popc clz brev bfind bfe
//! bfi prmt shf dp4a dp2a lop3 szext`, float `add sub mul fma mad div min max abs neg sqrt rcp
//! rsqrt sin cos ex2 lg2 tanh copysign testp` on f32 and f64 and, where PTX has them, f16, bf16 and
//! their x2 forms (numerics in [`num`]), `cvt` between every integer and float type, `setp` (every
//! comparison, `.and/.or/.xor` with a predicate, `p|q`), `set`, `selp`, predicate logic, `bra`,
//! `call` (direct, with `.param` arguments and results, recursion; indirect through a function
//! pointer, from a register or a `.global` table of them, its lanes grouped by target:
//! [`decode::FUNCTION_WINDOW`]), `ret`, `exit`, `bar.sync`/`barrier.sync` (with or without a thread
//! count), `bar.arrive`, `bar.red` (`popc`, `and`, `or`), `bar.warp.sync`, `membar`/`fence`
//! (no-ops: see below), special registers (`%tid %ntid %ctaid %nctaid %laneid %warpid %nwarpid
//! %smid %nsmid %gridid %clock %clock64 %globaltimer %lanemask_* %dynamic_smem_size
//! %total_smem_size`), `atom`/`red` on global, shared and generic addresses (`add` on integers,
//! f32, f64, f16, f16x2, bf16, bf16x2; `min max inc dec and or xor exch cas`; float `min`/`max` as
//! the `min`/`max` instructions), `cp.async` (copied at once; its groups' commits and waits are
//! no-ops), `shfl.sync` (`up down bfly idx`, clamp and segment mask), `vote.sync` (`all any uni
//! ballot`), `match.sync`, `redux.sync` (integer), `elect.sync`, `activemask`, `trap`, the built-in
//! calls `vprintf`, `__assertfail`, `cudaGraphSetConditional` ([`Device::set_conditional`]) and
//! the device heap's `malloc` and `free` ([`Device::malloc`], [`Device::free`]); the warp-level matrix instructions ([`tensor`]: `mma.sync`
//! m16n8k16 and m16n8k8 f16/bf16 into f32 or f16, tf32 m16n8k8 and m16n8k4, s8/u8 m16n8k32 and
//! m16n8k16 into s32 with `.satfinite`; `wmma.load/store/mma` f16, bf16, s8, u8 m16n16k16,
//! m32n8k16, m8n32k16, tf32 m16n16k8, f64 m8n8k4, row and column layouts, strides; `ldmatrix` and
//! `stmatrix` `.m8n8.x1/.x2/.x4{.trans}.b16`; `cvt.{rna,rn,rz}{.satfinite}.tf32.f32`), each one
//! small-matrix product over the warp's gathered fragments; `mbarrier` (`init arrive
//! arrive.expect_tx arrive_drop expect_tx complete_tx test_wait try_wait{.parity} inval`,
//! `cp.async.mbarrier.arrive`) and `cp.async.bulk` between global and shared memory (done at issue,
//! completing its mbarrier's transactions; [`mbarrier`]); texture and surface objects
//! ([`texture`]: `tex` `.1d .2d .3d .a1d .a2d .cube .acube` with f32 or s32 coordinates and
//! f32/s32/u32 results, `tex.level` at the nearest level, `tld4`, `txq`, `suld.b`/`sust.b`
//! with `.trap .clamp .zero`, `suq`; the object described by [`Device::texture`]); thread-block
//! clusters ([`cluster`]): `%clusterid %nclusterid %cluster_ctaid %cluster_nctaid
//! %cluster_ctarank %cluster_nctarank %is_explicit_cluster`, `barrier.cluster.arrive/wait`,
//! `mapa`, `getctarank`, `isspacep.shared::cluster`, `cvta.shared::cluster` and every access
//! above (`ld`, `st`, `atom`, `red`, `mbarrier`, `cp.async.bulk`) on a peer block's shared
//! memory through a `.shared::cluster` or generic address.
//!
//! # What is refused
//! Anything else is refused when the kernel is decoded, with its line: [`Reason::Unsupported`]
//! (never skipped silently): among others `brx.idx`, calls to `.extern` functions other than
//! the built-in calls above (the device runtime's `cudaLaunchDevice`: dynamic parallelism), texture references and samplers (the
//! independent mode `[tex, sampler, {x, y}]`), `tex.grad`, `sust.p`, 128-bit registers
//! anywhere but `ld`/`st`/`mov.b128` (`atom.cas.b128`, vectors of them), `wgmma`, `mma` shapes
//! without a layout here (the m8n8k4 quad-pairs, m8n8k16/k32 integers, `.sp` sparse, fp8 and
//! block-scaled kinds, `.b1`), `ldmatrix` other than `.m8n8.b16`, `cp.async.bulk.tensor` (tensor
//! maps), `.multicast`, `mbarrier.pending_count`,
//! `createpolicy`, float `redux`, vector atomics, `.relu`, 16-bit carry arithmetic. An indirect
//! call to an address that is no function of the kernel ends the launch ([`Fault::Unsupported`]).
//!
//! # Cooperative launches
//! [`Prepared::run_cooperative`] runs a launch whose blocks may wait for each other (cooperative
//! groups' `grid.sync()`, or any grid barrier spinning on device memory): every block is
//! resident at once, and the blocks take turns on the calling thread, a bounded number of warp
//! instructions each (a block whose warps all wait at `bar.sync` or have ended gives its turn at
//! once), so that a block spinning for the others lets them reach the barrier; within a turn, a
//! warp spinning on one of its block's warps lets the next warp run at the block's next turn.
//! `%envreg1:%envreg2` (high, low) is the address of the launch's grid workspace, 8 zeroed
//! bytes, `struct { unsigned wsSize, barrier; }` of `cooperative_groups/details/driver_abi.h`,
//! whose barrier word `grid.sync()` counts arrivals in (`atom.add.release.gpu`) and polls
//! (`ld.acquire.gpu`), as on a board. In a launch that is not cooperative the `%envreg`s read
//! 0: `grid.sync()` finds no workspace and traps, as on a board. The other `%envreg`s read 0.
//!
//! # Clusters
//! A launch's cluster shape is [`Launch::cluster`], or the kernel's `.reqnctapercluster`
//! (`__cluster_dims__`), which wins. [`Prepared::run_cluster`] runs one cluster's blocks
//! resident at once, taking turns on the calling thread as a cooperative launch's do, so that
//! `barrier.cluster.wait` releases (a block whose warps all wait at it gives its turn at once);
//! their shared memories stay allocated until the whole cluster has ended. Clusters are
//! independent: the mock runs them on several threads. [`Prepared::run_block`] refuses a
//! block of a launch whose clusters have several blocks ([`Fault::InvalidLaunch`]), which must
//! run with its cluster.
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
//! when the rest of their warp waits too or has ended. A warp whose `mbarrier` wait answers
//! false yields to the block's other warps (the ones that will arrive), and runs again after
//! them. Blocks are independent: the mock may run
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
pub mod cluster;
pub mod decode;
pub mod device;
pub mod error;
pub mod exec;
pub mod lex;
pub mod mbarrier;
pub mod memory;
pub mod module;
pub mod num;
pub mod ops;
pub mod parse;
pub mod program;
pub mod tensor;
pub mod texture;

pub use decode::Kernel;
pub use device::{Device, Launch};
pub use error::{Fault, PtxError, Reason};
pub use exec::{Prepared, run, run_block};
pub use program::Program;
