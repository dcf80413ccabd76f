//! The decoded form a kernel runs as: instructions with resolved operands (register slots,
//! predicate indices, instruction indices), typed opcodes chosen once at decode.

use alloc::string::String;
use alloc::vec::Vec;

/// A register's slot in its function's frame (one `u64` per lane).
pub type Slot = u32;
/// A predicate's index in its function's frame (one bit per lane).
pub type Pred = u32;
/// A warp's lanes' values of one register: lane `i` at index `i`.
pub type Lanes = [u64; 32];

/// The ALU kernels: `d[i] = f(a[i], b[i], c[i], aux)` for the lanes of the mask (bit `i`: lane
/// `i`); `aux` carries the opcode's modifiers (rounding, `.ftz`, `.sat`, a width …).
pub type AluFn = fn(d: &mut Lanes, a: &Lanes, b: &Lanes, c: &Lanes, mask: u32, aux: u32);
/// A four-source ALU kernel (`bfi`): `d[i] = f(a[i], b[i], c[i], e[i])`.
pub type Alu4Fn = fn(d: &mut Lanes, a: &Lanes, b: &Lanes, c: &Lanes, e: &Lanes, mask: u32);
/// A comparison: the mask of lanes (among all 32) whose `cmp(a[i], b[i])` holds.
pub type CmpFn = fn(a: &Lanes, b: &Lanes) -> u32;

/// An instruction's guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// No guard.
    Always,
    /// `@%p`.
    If(Pred),
    /// `@!%p`.
    IfNot(Pred),
}

/// Where an address's base comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// A register's value.
    Reg(Slot),
    /// No base: the offset is the address.
    Abs,
    /// A module `.global`/`.const` variable: index into the kernel's symbol list, resolved
    /// through [`crate::Device::symbol`] once per launch.
    Symbol(u32),
    /// A `.local`/`.param` variable of the running function's frame: the offset is relative to
    /// the lane's frame (per lane: frames are laid out lane by lane).
    Frame,
}

/// A memory access's address: base plus byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    /// The base.
    pub base: Base,
    /// The offset added.
    pub off: i64,
}

/// The memory an access reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mem {
    /// Device memory (`.global`, and `.const` variables, which the mock allocates).
    Global,
    /// The block's shared memory, by shared-window offset.
    Shared,
    /// The warp's local memory (frames), by local offset.
    Local,
    /// The kernel's parameter buffer, by offset.
    KParam,
    /// A generic address: shared or local window, else global.
    Generic,
}

/// The generic windows (`cvta`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// `.global` and `.const`: the identity.
    Global,
    /// `.shared`.
    Shared,
    /// `.local`.
    Local,
    /// `.param` (kernel parameters).
    Param,
}

/// The atomic operations (`atom`/`red`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    /// `.add` on integers (width from the access).
    AddInt,
    /// `.add.f32`.
    AddF32,
    /// `.add.f64`.
    AddF64,
    /// `.add.noftz.f16`.
    AddF16,
    /// `.add.noftz.f16x2`.
    AddF16x2,
    /// `.add.noftz.bf16`.
    AddBf16,
    /// `.add.noftz.bf16x2`.
    AddBf16x2,
    /// `.min` unsigned.
    MinU,
    /// `.min` signed.
    MinS,
    /// `.max` unsigned.
    MaxU,
    /// `.max` signed.
    MaxS,
    /// `.inc`: `old >= b ? 0 : old + 1`.
    Inc,
    /// `.dec`: `old == 0 || old > b ? b : old - 1`.
    Dec,
    /// `.and`.
    And,
    /// `.or`.
    Or,
    /// `.xor`.
    Xor,
    /// `.exch`.
    Exch,
    /// `.cas`: `old == b ? c : old`.
    Cas,
    /// `.min` on a float type (`.f32`, `.f64`, `.noftz.f16`, `.bf16` and their x2 forms): as
    /// `min` (a NaN operand gives the other, −0 below +0).
    MinF(FloatTy),
    /// `.max` on a float type: as `max`.
    MaxF(FloatTy),
}

/// The float types of atomic `min`/`max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatTy {
    /// `.f32`.
    F32,
    /// `.f64`.
    F64,
    /// `.f16`.
    F16,
    /// `.f16x2`.
    F16x2,
    /// `.bf16`.
    Bf16,
    /// `.bf16x2`.
    Bf16x2,
}

/// Special registers read at run time (the others are constants of the warp, set at frame
/// entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sreg {
    /// `%tid.{x,y,z}`.
    Tid(u8),
    /// `%ntid.{x,y,z}`.
    Ntid(u8),
    /// `%ctaid.{x,y,z}`.
    Ctaid(u8),
    /// `%nctaid.{x,y,z}`.
    Nctaid(u8),
    /// `%laneid`.
    Laneid,
    /// `%warpid`.
    Warpid,
    /// `%nwarpid`.
    Nwarpid,
    /// `%smid`.
    Smid,
    /// `%nsmid`.
    Nsmid,
    /// `%gridid`.
    Gridid,
    /// `%envreg0`–`%envreg31`: the driver's environment registers. Only `%envreg1` (high
    /// word) and `%envreg2` (low word) hold anything: the grid workspace's address of a
    /// cooperative launch ([`crate::Prepared::run_cooperative`]), 0 otherwise (cooperative
    /// groups' `grid.sync()` then traps, as on a board for a launch that is not cooperative).
    /// Source: `cooperative_groups/details/driver_abi.h` (`get_grid_workspace`).
    Envreg(u8),
    /// `%lanemask_eq`.
    LanemaskEq,
    /// `%lanemask_lt`.
    LanemaskLt,
    /// `%lanemask_le`.
    LanemaskLe,
    /// `%lanemask_gt`.
    LanemaskGt,
    /// `%lanemask_ge`.
    LanemaskGe,
    /// `%dynamic_smem_size`.
    DynamicSmem,
    /// `%total_smem_size`.
    TotalSmem,
    /// `%clock` (32 bits) — the block's instruction count.
    Clock,
    /// `%clock64`.
    Clock64,
    /// `%globaltimer` (ns).
    GlobalTimer,
    /// `%globaltimer_lo`.
    GlobalTimerLo,
    /// `%globaltimer_hi`.
    GlobalTimerHi,
    /// `%clusterid.{x,y,z}`: the block's cluster in the grid.
    ClusterId(u8),
    /// `%nclusterid.{x,y,z}`: clusters per grid.
    NclusterId(u8),
    /// `%cluster_ctaid.{x,y,z}`: the block's position in its cluster.
    ClusterCtaid(u8),
    /// `%cluster_nctaid.{x,y,z}`: blocks per cluster.
    ClusterNctaid(u8),
    /// `%cluster_ctarank`: the block's linear rank in its cluster (x fastest).
    ClusterCtarank,
    /// `%cluster_nctarank`: blocks per cluster.
    ClusterNctarank,
    /// `%is_explicit_cluster` (1 or 0): whether the launch named cluster dimensions.
    IsExplicitCluster,
}

/// A register slot's value at frame entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// An immediate operand.
    Const(u64),
    /// A special register constant for the warp (not `%clock`, `%globaltimer`).
    Sreg(Sreg),
}

/// `shfl.sync`'s modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    /// `.up`.
    Up,
    /// `.down`.
    Down,
    /// `.bfly`.
    Bfly,
    /// `.idx`.
    Idx,
}

/// `vote.sync`'s modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    /// `.all`.
    All,
    /// `.any`.
    Any,
    /// `.uni`.
    Uni,
    /// `.ballot.b32`.
    Ballot,
}

/// `redux.sync`'s operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    /// `.add`.
    Add,
    /// `.min.u32`.
    MinU,
    /// `.min.s32`.
    MinS,
    /// `.max.u32`.
    MaxU,
    /// `.max.s32`.
    MaxS,
    /// `.and`.
    And,
    /// `.or`.
    Or,
    /// `.xor`.
    Xor,
}

/// A predicate combination (`and`, `or`, `xor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PLogic {
    /// `.and`.
    And,
    /// `.or`.
    Or,
    /// `.xor`.
    Xor,
}

/// Barrier kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    /// `bar.sync` / `barrier.sync` / `bar.red` (waits).
    Sync,
    /// `bar.arrive` / `barrier.arrive` (does not wait: a no-op in this scheduler).
    Arrive,
    /// `bar.warp.sync`: the warp's lanes are already in lockstep here.
    Warp,
    /// `barrier.cluster.arrive`: the lanes arrive at their cluster's barrier
    /// ([`crate::cluster`]).
    ClusterArrive,
    /// `barrier.cluster.wait`: the lanes wait until the phase they arrived in completes.
    ClusterWait,
}

/// `bar.red`'s reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarRedKind {
    /// `.popc.u32`: the threads whose predicate holds.
    Popc,
    /// `.and.pred`.
    And,
    /// `.or.pred`.
    Or,
}

/// The carry instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryKind {
    /// `add.cc` / `addc`.
    Add,
    /// `sub.cc` / `subc` (the flag is the borrow).
    Sub,
    /// `mad.lo.cc` / `madc.lo`.
    MadLo,
    /// `mad.hi.cc` / `madc.hi`.
    MadHi,
}

/// A `call`: the callee, the arguments copied into its frame, the results copied back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// The callee's index among the kernel's functions.
    pub func: u32,
    /// (offset in the caller's frame, offset in the callee's frame, bytes) per argument.
    pub args: Vec<(u32, u32, u32)>,
    /// (offset in the callee's frame, offset in the caller's frame, bytes) per result.
    pub rets: Vec<(u32, u32, u32)>,
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub enum Op {
    /// A warp-level matrix instruction (`mma`, `wmma`, `ldmatrix`, `stmatrix`), boxed: rare and
    /// large.
    Tensor(alloc::boxed::Box<crate::tensor::TensorOp>),
    /// Two slots copied at once (`mov.b128`: pack, unpack, copy): `d[i] = s[i]`, the sources
    /// read before either destination is written.
    Mov2 {
        /// Destinations (low, high).
        d: [Slot; 2],
        /// Sources (low, high).
        s: [Slot; 2],
    },
    /// A texture or surface instruction (`tex`, `tld4`, `txq`, `suld`, `sust`, `suq`;
    /// [`crate::texture`]), boxed: rare and large.
    Tex(alloc::boxed::Box<crate::texture::TexOp>),
    /// An `mbarrier` operation ([`crate::mbarrier`]).
    Mbar(alloc::boxed::Box<crate::mbarrier::MbarOp>),
    /// A `cp.async.bulk` copy, done at issue ([`crate::mbarrier`]).
    Bulk(alloc::boxed::Box<crate::mbarrier::BulkCopy>),
    /// An ALU operation (`add`, `mul`, `cvt`, `fma`, `mov` …).
    Alu {
        /// The kernel.
        f: AluFn,
        /// Destination.
        d: Slot,
        /// Sources.
        a: Slot,
        /// Second source.
        b: Slot,
        /// Third source.
        c: Slot,
        /// Modifiers.
        aux: u32,
    },
    /// `bfi`.
    Alu4 {
        /// The kernel.
        f: Alu4Fn,
        /// Destination and sources.
        r: [Slot; 5],
    },
    /// `setp`: `d = cmp(a, b) LOGIC q`, `nd = !cmp(a, b) LOGIC q`.
    Setp {
        /// The comparison.
        f: CmpFn,
        /// Sources.
        a: Slot,
        /// Sources.
        b: Slot,
        /// Destination predicate.
        d: Pred,
        /// Complement destination (`|%q`), if any.
        nd: Option<Pred>,
        /// Combining predicate and its logic, negation.
        comb: Option<(PLogic, Pred, bool)>,
    },
    /// `set`: `d = cmp ? all ones (or 1.0f) : 0`.
    Set {
        /// The comparison.
        f: CmpFn,
        /// Destination.
        d: Slot,
        /// Sources.
        a: Slot,
        /// Sources.
        b: Slot,
        /// The "true" value.
        one: u64,
    },
    /// Predicate logic `d = (a ^ na) OP (b ^ nb)`; `b` none: `d = a ^ na` (mov/not).
    PLog {
        /// The operation (ignored without `b`).
        op: PLogic,
        /// Destination.
        d: Pred,
        /// Source and negation.
        a: (Pred, bool),
        /// Second source and negation.
        b: Option<(Pred, bool)>,
    },
    /// A predicate from a register's low bit pattern being nonzero (`setp.ne.b32 p, r, 0`
    /// shortcut is not used; this is `mov.pred p, imm`).
    PConst {
        /// Destination.
        d: Pred,
        /// Value.
        v: bool,
    },
    /// `selp`: `d = p ? a : b`.
    Selp {
        /// Destination.
        d: Slot,
        /// Sources.
        a: Slot,
        /// Sources.
        b: Slot,
        /// The predicate.
        p: Pred,
    },
    /// A predicate into a register (`selp`-like, for `mov`/`cvt` of a predicate): `d = p ? 1 : 0`.
    PredToReg {
        /// Destination.
        d: Slot,
        /// The predicate.
        p: Pred,
    },
    /// A load.
    Ld {
        /// The memory.
        mem: Mem,
        /// Bytes per element (1, 2, 4, 8).
        width: u8,
        /// Elements (1, 2, 4).
        n: u8,
        /// Sign-extend to the destination register.
        sext: bool,
        /// The destination registers' width mask.
        dmask: u64,
        /// Destinations.
        d: [Slot; 4],
        /// The address.
        addr: Addr,
    },
    /// A store.
    St {
        /// The memory.
        mem: Mem,
        /// Bytes per element.
        width: u8,
        /// Elements.
        n: u8,
        /// Sources.
        s: [Slot; 4],
        /// The address.
        addr: Addr,
    },
    /// `atom` / `red`.
    Atom {
        /// The memory (Global, Shared or Generic).
        mem: Mem,
        /// The operation.
        op: AtomOp,
        /// Bytes (2, 4, 8).
        width: u8,
        /// Destination (`None` for `red`).
        d: Option<Slot>,
        /// The address.
        addr: Addr,
        /// Operand.
        b: Slot,
        /// `cas`'s new value.
        c: Slot,
    },
    /// A variable's address (`mov.u64 %rd, name`): per lane for frame variables.
    AddrOf {
        /// Destination.
        d: Slot,
        /// The address.
        addr: Addr,
        /// The window whose addressing the result uses (`Local`: a local offset, its frame's).
        window: Window,
        /// The generic address (window base added), else the window's offset.
        generic: bool,
    },
    /// `cvta`: `to` true: generic to the window's offset; false: the window's offset to generic.
    Cvta {
        /// Destination.
        d: Slot,
        /// Source.
        a: Slot,
        /// The window.
        window: Window,
        /// Direction.
        to: bool,
        /// The destination's width mask (`.u32` results).
        mask: u64,
    },
    /// A special register read at run time.
    Sreg {
        /// Destination.
        d: Slot,
        /// Which.
        which: Sreg,
    },
    /// Branch to an instruction index.
    Bra {
        /// The target.
        t: u32,
    },
    /// A call: index into the function's call sites.
    Call {
        /// The call site.
        site: u32,
    },
    /// An indirect call (`call (r), %rd, (a), prototype;`): the target register and the
    /// kernel's functions it may hold, as (address, call site) pairs
    /// ([`crate::decode::function_address`]).
    CallInd {
        /// The register holding the function's address.
        a: Slot,
        /// The candidate targets: the address-taken functions of the prototype's signature.
        targets: Vec<(u64, u32)>,
    },
    /// `ret`.
    Ret,
    /// `exit`.
    Exit,
    /// `trap`, `brkpt`.
    Trap,
    /// A barrier.
    Bar {
        /// Which.
        kind: BarKind,
    },
    /// `mapa`: the shared::cluster address (`generic`: the generic address) of the variable at
    /// `a` in the shared memory of the cluster's block of rank `b` ([`crate::cluster`]).
    Mapa {
        /// Destination.
        d: Slot,
        /// The address (shared::cta, shared::cluster or generic).
        a: Slot,
        /// The target block's rank.
        b: Slot,
        /// Generic addresses (`mapa.u64`) rather than shared::cluster ones.
        generic: bool,
        /// The destination's width mask (`.u32` results).
        mask: u64,
    },
    /// `getctarank`: the rank of the cluster's block whose shared memory holds address `a`.
    GetCtaRank {
        /// Destination.
        d: Slot,
        /// The address (shared::cluster or generic).
        a: Slot,
        /// Generic addresses rather than shared::cluster ones.
        generic: bool,
    },
    /// `membar`, `fence`, `nanosleep`, `prefetch`, `pmevent`, `cp.async.commit_group`,
    /// `cp.async.wait_group`: no effect here.
    Nop,
    /// `bar.red` (`__syncthreads_count/and/or`): a barrier whose result reaches `d` (popc) or
    /// `dp` (and, or) when it releases.
    BarRed {
        /// The reduction.
        kind: BarRedKind,
        /// Destination register (popc).
        d: Slot,
        /// Destination predicate (and, or).
        dp: Pred,
        /// The predicate reduced, and its negation.
        a: (Pred, bool),
    },
    /// Extended-precision arithmetic with the carry flag (`add.cc`, `addc`, `sub.cc`, `subc`,
    /// `mad.cc`, `madc`), the flag a hidden register of the frame.
    Carry {
        /// Which.
        kind: CarryKind,
        /// 64-bit (else 32-bit) operands.
        wide: bool,
        /// Reads the carry in (`addc`, `subc`, `madc`).
        cin: bool,
        /// Writes the carry out (`.cc`).
        cout: bool,
        /// Destination.
        d: Slot,
        /// Sources.
        a: Slot,
        /// Sources.
        b: Slot,
        /// Addend (`mad`).
        c: Slot,
        /// The carry flag's slot.
        cc: Slot,
    },
    /// `cp.async.{ca,cg}.shared.global [dst], [src], size{, src_size}`: copied at once (the
    /// copy's completion before `cp.async.wait_*` is one of its allowed orders).
    CpAsync {
        /// The shared destination.
        dst: Addr,
        /// The global (or generic) source.
        src: Addr,
        /// Bytes (4, 8, 16).
        size: u8,
        /// Bytes read from the source (the rest zero-filled), if given.
        src_size: Option<Slot>,
    },
    /// `elect.sync d|p, membermask`: the lowest active member lane.
    Elect {
        /// The elected lane's id, to every lane.
        d: Slot,
        /// True for the elected lane.
        p: Option<Pred>,
        /// Member mask.
        m: Slot,
    },
    /// `shfl.sync`.
    Shfl {
        /// Mode.
        mode: ShflMode,
        /// Destination.
        d: Slot,
        /// Destination predicate (lane in range), if any.
        p: Option<Pred>,
        /// Value.
        a: Slot,
        /// Lane or delta.
        b: Slot,
        /// Clamp and segment mask.
        c: Slot,
        /// Member mask.
        m: Slot,
    },
    /// `vote.sync` (`d` for ballot, `dp` for the predicate forms).
    Vote {
        /// Mode.
        mode: VoteMode,
        /// Destination register (ballot).
        d: Slot,
        /// Destination predicate (all/any/uni).
        dp: Pred,
        /// Source predicate and negation.
        a: (Pred, bool),
        /// Member mask.
        m: Slot,
    },
    /// `activemask.b32`.
    Activemask {
        /// Destination.
        d: Slot,
    },
    /// `redux.sync`.
    Redux {
        /// Operation.
        op: ReduxOp,
        /// Destination.
        d: Slot,
        /// Source.
        a: Slot,
        /// Member mask.
        m: Slot,
    },
    /// `match.any.sync` / `match.all.sync`.
    Match {
        /// `.all` (else `.any`).
        all: bool,
        /// 64-bit values.
        wide: bool,
        /// Destination mask.
        d: Slot,
        /// `.all`'s predicate.
        p: Option<Pred>,
        /// Value.
        a: Slot,
        /// Member mask.
        m: Slot,
    },
    /// `mov.b64 d, {a, b}` and the like: `n` pieces of `bits` each, first lowest.
    Pack {
        /// Destination.
        d: Slot,
        /// Sources.
        s: [Slot; 4],
        /// Pieces.
        n: u8,
        /// Bits per piece.
        bits: u8,
    },
    /// `mov.b64 {a, b}, d` and the like.
    Unpack {
        /// Destinations.
        d: [Slot; 4],
        /// Pieces.
        n: u8,
        /// Bits per piece.
        bits: u8,
        /// Source.
        a: Slot,
    },
    /// `call __assertfail, (message, file, line, function, charSize)`: the argument registers'
    /// frame offsets.
    AssertFail {
        /// Frame offsets of the five `.param` arguments.
        args: [u32; 5],
    },
    /// `call cudaGraphSetConditional, (handle, value)` (cuda_device_runtime_api.h, CUDA 12.3+):
    /// frame offsets of the two arguments, the handle's `.b64` and the value's `.b32`.
    SetConditional {
        /// The handle argument's frame offset.
        handle: u32,
        /// The value argument's frame offset.
        value: u32,
    },
    /// `call (ret), malloc, (size)`: the device heap's `malloc` (the CUDA C++ Programming
    /// Guide's "Dynamic Global Memory Allocation"; C++ `new` calls it too), an `.extern .func`
    /// the driver's JIT resolves: frame offsets of the `.b64` result and the `.b64` size.
    Malloc {
        /// The result's frame offset.
        ret: u32,
        /// The size argument's frame offset.
        size: u32,
    },
    /// `call free, (ptr)`: the device heap's `free` (C++ `delete`): the `.b64` argument's frame
    /// offset.
    Free {
        /// The pointer argument's frame offset.
        ptr: u32,
    },
    /// `call (ret), vprintf, (format, args)`: frame offsets of the result and the two arguments.
    Vprintf {
        /// The result's frame offset (or `u32::MAX`).
        ret: u32,
        /// The format pointer argument's frame offset.
        fmt: u32,
        /// The argument buffer pointer's frame offset.
        args: u32,
    },
}

/// One decoded instruction with its guard and source line.
#[derive(Clone, Debug)]
pub struct Inst {
    /// The operation.
    pub op: Op,
    /// The guard.
    pub guard: Guard,
    /// The PTX line.
    pub line: u32,
}

/// A decoded function (the kernel's entry is function 0).
#[derive(Clone, Debug)]
pub struct Func {
    /// Its name.
    pub name: String,
    /// The instructions.
    pub code: Vec<Inst>,
    /// Register slots per lane.
    pub slots: u32,
    /// Predicates.
    pub preds: u32,
    /// Slots set at frame entry (immediates, warp constants).
    pub init: Vec<(Slot, Init)>,
    /// Local bytes per lane of its frame (`.local` variables, its parameters, its calls'
    /// `.param` variables), a multiple of 16.
    pub frame: u32,
    /// Its `.param` parameters' offsets in the frame (a `.func`'s; empty for the kernel).
    pub params: Vec<u32>,
    /// Its return parameters' offsets in the frame.
    pub rets: Vec<u32>,
    /// Its call sites.
    pub calls: Vec<CallSite>,
}
