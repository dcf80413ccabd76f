//! A parsed kernel into its decoded form ([`Kernel`]): every name resolved once (registers to
//! slots, predicates to indices, labels to instruction indices, variables to offsets or
//! symbols), every opcode to a typed operation. An instruction the executor lacks is refused
//! here with its line ([`Reason::Unsupported`]), never skipped.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

mod b128;
mod mbarrier;
mod tensor;
mod texture;

use crate::alu;
use crate::error::{PtxError, Reason};
use crate::module::{Function, Instruction, Module, Operand, Space, Statement};
use crate::ops::{
    Addr, AtomOp, BarKind, BarRedKind, Base, CallSite, CarryKind, FloatTy, Func, Guard, Init, Inst,
    Mem, Op, PLogic, Pred, ReduxOp, ShflMode, Slot, Sreg, VoteMode, Window,
};
use crate::parse::type_size;

/// A kernel ready to run: its functions (the entry first), parameter layout, shared memory
/// layout and the module variables it names.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The `.entry` name.
    pub name: String,
    /// The entry (index 0) and the `.func`s it calls.
    pub funcs: Vec<Func>,
    /// (offset, size) in bytes of each parameter in the packed parameter buffer.
    pub params: Vec<(u32, u32)>,
    /// The parameter buffer's size in bytes.
    pub param_size: u32,
    /// The module `.global`/`.const` variables the kernel names, in symbol-index order.
    pub symbols: Vec<String>,
    /// Static shared memory bytes (module and function `.shared` variables).
    pub shared_static: u32,
    /// Where dynamic shared memory (`.extern .shared`) begins: `shared_static` aligned up.
    pub shared_dynamic_base: u32,
    /// The blocks per cluster the kernel requires (`.reqnctapercluster`, `__cluster_dims__`):
    /// a launch runs in clusters of this shape whatever it asks ([`crate::cluster`]).
    pub cluster: Option<[u32; 3]>,
}

impl Kernel {
    /// (offset, size) in bytes of each kernel parameter, in declaration order, as the kernel
    /// reads them from the parameter buffer (each at its `.align`, the first at 0): the mock
    /// packs `void** kernelParams` into one buffer of [`Kernel::param_size`] bytes this way.
    pub fn param_layout(&self) -> &[(u32, u32)] {
        &self.params
    }
    /// The parameter buffer's size in bytes.
    pub fn param_size(&self) -> u32 {
        self.param_size
    }
}

/// How a name resolves inside a function.
#[derive(Clone, Debug)]
enum Name {
    Reg {
        slot: Slot,
        bits: u32,
    },
    Pred(Pred),
    /// A `.local` variable, a `.func` parameter or a call's `.param`: an offset in the frame.
    Frame(u32),
    /// A shared variable: its offset in the block's shared memory.
    Shared(u32),
}

/// Where function addresses live: a function's name as a value (`mov.u64 %rd1, f;`, a
/// `.global` table of function pointers) is this plus 16 × its index among the module's
/// functions, above every host address and the memory windows ([`crate::memory`]), so never
/// device memory; an indirect call maps it back to the function.
pub const FUNCTION_WINDOW: u64 = 0x0500_0000_0000_0000;

/// The address standing for the module's function `index` ([`FUNCTION_WINDOW`]).
pub fn function_address(index: usize) -> u64 {
    FUNCTION_WINDOW.wrapping_add((index as u64).wrapping_mul(16))
}

/// The module's functions (with bodies) whose address is taken: named in a variable's
/// initializer or as an operand of an instruction other than a direct call's target.
fn address_taken(module: &Module) -> Vec<usize> {
    let mut names: Vec<&str> = module
        .variables
        .iter()
        .flat_map(|v| v.init_symbols.iter().map(|(_, n)| n.as_str()))
        .collect();
    for f in &module.functions {
        for st in f.body.iter().flatten() {
            let Statement::Inst(inst) = st else { continue };
            if inst.opcode.starts_with("call") {
                continue;
            }
            for op in &inst.operands {
                if let Operand::Name(n) | Operand::NameOffset(n, _) = op {
                    names.push(n.as_str());
                }
            }
        }
    }
    (0..module.functions.len())
        .filter(|&i| {
            module
                .functions
                .get(i)
                .is_some_and(|f| f.body.is_some() && !f.entry && names.contains(&f.name.as_str()))
        })
        .collect()
}

fn align_up(v: u64, a: u64) -> u64 {
    let a = a.max(1);
    v.div_ceil(a).saturating_mul(a)
}

fn err(module: &Module, line: u32, reason: Reason) -> PtxError {
    PtxError {
        line,
        text: module.line_text(line),
        reason,
    }
}

/// Decodes kernel `name` of `module`.
///
/// # Errors
/// [`Reason::NoKernel`] without such an `.entry`; otherwise the first instruction or directive
/// refused, with its line.
pub fn decode_kernel(module: &Module, name: &str) -> Result<Kernel, PtxError> {
    let entry = module
        .functions
        .iter()
        .position(|f| f.entry && f.name == name && f.body.is_some())
        .ok_or_else(|| PtxError {
            line: 0,
            text: name.to_string(),
            reason: Reason::NoKernel,
        })?;
    // The functions reachable from the entry, the entry first.
    let mut order: Vec<usize> = vec![entry];
    let mut i = 0;
    while let Some(&fi) = order.get(i) {
        i += 1;
        let Some(f) = module.functions.get(fi) else {
            continue;
        };
        for st in f.body.iter().flatten() {
            let Statement::Inst(inst) = st else { continue };
            if !inst.opcode.starts_with("call") {
                continue;
            }
            // The callee: the first name (after the results' list); a register there is an
            // indirect call, which may reach every address-taken function.
            let callee = inst.operands.iter().find_map(|op| match op {
                Operand::Name(n) => Some(n),
                _ => None,
            });
            if let Some(n) = callee {
                let direct = module
                    .functions
                    .iter()
                    .rposition(|g| &g.name == n && g.body.is_some());
                let targets = match direct {
                    Some(c) => vec![c],
                    None if n.starts_with('%') => address_taken(module),
                    None => Vec::new(),
                };
                for c in targets {
                    if !order.contains(&c) {
                        order.push(c);
                    }
                }
            }
        }
    }
    // Shared memory: module variables, then the reachable functions' own.
    let mut shared: BTreeMap<String, u32> = BTreeMap::new();
    let mut fn_shared: Vec<BTreeMap<String, u32>> = vec![BTreeMap::new(); order.len()];
    let mut top = 0u64;
    let mut dyn_align = 16u64;
    let place = |v: &crate::module::Variable, top: &mut u64| -> u32 {
        *top = align_up(*top, u64::from(v.align));
        let off = *top as u32;
        *top = top.saturating_add(v.size());
        off
    };
    let mut externs = Vec::new();
    for v in &module.variables {
        if v.space == Space::Shared {
            if v.external {
                dyn_align = dyn_align.max(u64::from(v.align));
                externs.push(v.name.clone());
            } else {
                let off = place(v, &mut top);
                shared.insert(v.name.clone(), off);
            }
        }
    }
    let mut fn_externs: Vec<(usize, String)> = Vec::new();
    for (k, &fi) in order.iter().enumerate() {
        for st in module
            .functions
            .get(fi)
            .and_then(|f| f.body.as_ref())
            .into_iter()
            .flatten()
        {
            if let Statement::Var(v) = st {
                if v.space == Space::Shared {
                    if v.external || v.count == 0 {
                        dyn_align = dyn_align.max(u64::from(v.align));
                        fn_externs.push((k, v.name.clone()));
                    } else if let Some(m) = fn_shared.get_mut(k) {
                        let off = place(v, &mut top);
                        m.insert(v.name.clone(), off);
                    }
                }
            }
        }
    }
    if top > u64::from(u32::MAX) {
        return Err(err(
            module,
            0,
            Reason::Unsupported("shared memory over 4 GiB"),
        ));
    }
    let dyn_base = align_up(top, dyn_align) as u32;
    for n in externs {
        shared.insert(n, dyn_base);
    }
    for (k, n) in fn_externs {
        if let Some(m) = fn_shared.get_mut(k) {
            m.insert(n, dyn_base);
        }
    }
    // Kernel parameters: packed at their alignments.
    let ef = module
        .functions
        .get(entry)
        .ok_or_else(|| err(module, 0, Reason::NoKernel))?;
    let mut params = Vec::new();
    let mut kparams = BTreeMap::new();
    let mut off = 0u64;
    for p in &ef.params {
        off = align_up(off, u64::from(p.align));
        params.push((off as u32, p.size));
        kparams.insert(p.name.clone(), off as u32);
        off += u64::from(p.size);
    }
    let mut ctx = KernelCtx {
        module,
        order: order.clone(),
        shared,
        kparams,
        symbols: Vec::new(),
    };
    let mut funcs = Vec::new();
    for (k, &fi) in order.iter().enumerate() {
        let f = module
            .functions
            .get(fi)
            .ok_or_else(|| err(module, 0, Reason::NoKernel))?;
        let own_shared = fn_shared.get(k).cloned().unwrap_or_default();
        funcs.push(FnDecoder::new(&mut ctx, f, own_shared, k == 0).run()?);
    }
    Ok(Kernel {
        name: name.to_string(),
        funcs,
        params,
        param_size: off as u32,
        symbols: ctx.symbols,
        shared_static: top as u32,
        shared_dynamic_base: dyn_base,
        cluster: ef.cluster,
    })
}

struct KernelCtx<'m> {
    module: &'m Module,
    /// Module function indices of the kernel's functions.
    order: Vec<usize>,
    shared: BTreeMap<String, u32>,
    kparams: BTreeMap<String, u32>,
    symbols: Vec<String>,
}

impl KernelCtx<'_> {
    fn symbol(&mut self, name: &str) -> u32 {
        if let Some(i) = self.symbols.iter().position(|s| s == name) {
            return i as u32;
        }
        self.symbols.push(name.to_string());
        (self.symbols.len() - 1) as u32
    }
    fn global_var(&self, name: &str) -> bool {
        self.module
            .variables
            .iter()
            .any(|v| v.name == name && matches!(v.space, Space::Global | Space::Const))
    }
    /// The frame offsets of a `.func`'s parameters and return values (the frame begins with
    /// them, each at its alignment), and the bytes they take.
    fn signature(f: &Function) -> (Vec<u32>, Vec<u32>, u64) {
        let mut off = 0u64;
        let mut ps = Vec::new();
        let mut rs = Vec::new();
        for p in &f.params {
            off = align_up(off, u64::from(p.align));
            ps.push(off as u32);
            off += u64::from(p.size);
        }
        for p in &f.returns {
            off = align_up(off, u64::from(p.align));
            rs.push(off as u32);
            off += u64::from(p.size);
        }
        (ps, rs, off)
    }
}

struct FnDecoder<'c, 'm> {
    ctx: &'c mut KernelCtx<'m>,
    f: &'m Function,
    entry: bool,
    scopes: Vec<BTreeMap<String, Name>>,
    own_shared: BTreeMap<String, u32>,
    labels: BTreeMap<String, u32>,
    slots: u32,
    preds: u32,
    consts: BTreeMap<u64, Slot>,
    sregs: Vec<(Sreg, Slot)>,
    init: Vec<(Slot, Init)>,
    frame: u64,
    params: Vec<u32>,
    rets: Vec<u32>,
    calls: Vec<CallSite>,
    scratch: Option<Slot>,
    cc: Option<Slot>,
    line: u32,
}

type R<T> = Result<T, Reason>;

fn unsupported<T>(what: &'static str) -> R<T> {
    Err(Reason::Unsupported(what))
}

/// Splits an opcode into its base and modifiers (`ld.global.u32` → `ld`, [`.global`, `.u32`]).
fn split(opcode: &str) -> (&str, Vec<&str>) {
    let mut idx = Vec::new();
    for (i, c) in opcode.char_indices() {
        if c == '.' {
            idx.push(i);
        }
    }
    let base = opcode
        .get(..idx.first().copied().unwrap_or(opcode.len()))
        .unwrap_or("");
    let mut mods = Vec::new();
    for (k, &s) in idx.iter().enumerate() {
        let e = idx.get(k + 1).copied().unwrap_or(opcode.len());
        if let Some(m) = opcode.get(s..e) {
            mods.push(m);
        }
    }
    (base, mods)
}

fn sreg_of(name: &str) -> Option<Sreg> {
    let comp = |s: &str| match s {
        "x" => Some(0u8),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some((head, c)) = name.split_once('.') {
        let c = comp(c)?;
        return Some(match head {
            "%tid" => Sreg::Tid(c),
            "%ntid" => Sreg::Ntid(c),
            "%ctaid" => Sreg::Ctaid(c),
            "%nctaid" => Sreg::Nctaid(c),
            "%clusterid" => Sreg::ClusterId(c),
            "%nclusterid" => Sreg::NclusterId(c),
            "%cluster_ctaid" => Sreg::ClusterCtaid(c),
            "%cluster_nctaid" => Sreg::ClusterNctaid(c),
            _ => return None,
        });
    }
    Some(match name {
        "%laneid" => Sreg::Laneid,
        "%warpid" => Sreg::Warpid,
        "%nwarpid" => Sreg::Nwarpid,
        "%smid" => Sreg::Smid,
        "%nsmid" => Sreg::Nsmid,
        "%gridid" => Sreg::Gridid,
        "%cluster_ctarank" => Sreg::ClusterCtarank,
        "%cluster_nctarank" => Sreg::ClusterNctarank,
        "%is_explicit_cluster" => Sreg::IsExplicitCluster,
        _ if name.starts_with("%envreg") => {
            let n: u8 = name.get(7..)?.parse().ok()?;
            if n > 31 {
                return None;
            }
            Sreg::Envreg(n)
        }
        "%lanemask_eq" => Sreg::LanemaskEq,
        "%lanemask_lt" => Sreg::LanemaskLt,
        "%lanemask_le" => Sreg::LanemaskLe,
        "%lanemask_gt" => Sreg::LanemaskGt,
        "%lanemask_ge" => Sreg::LanemaskGe,
        "%dynamic_smem_size" => Sreg::DynamicSmem,
        "%total_smem_size" => Sreg::TotalSmem,
        "%clock" => Sreg::Clock,
        "%clock64" => Sreg::Clock64,
        "%globaltimer" => Sreg::GlobalTimer,
        "%globaltimer_lo" => Sreg::GlobalTimerLo,
        "%globaltimer_hi" => Sreg::GlobalTimerHi,
        _ => return None,
    })
}

fn dynamic_sreg(s: Sreg) -> bool {
    matches!(
        s,
        Sreg::Clock | Sreg::Clock64 | Sreg::GlobalTimer | Sreg::GlobalTimerLo | Sreg::GlobalTimerHi
    )
}

fn mask_of(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The first type modifier of `mods` (`.u32`), with its size.
fn first_type<'a>(mods: &[&'a str]) -> Option<(&'a str, u32)> {
    mods.iter().find_map(|m| type_size(m).map(|s| (*m, s)))
}

impl<'c, 'm> FnDecoder<'c, 'm> {
    fn new(
        ctx: &'c mut KernelCtx<'m>,
        f: &'m Function,
        own_shared: BTreeMap<String, u32>,
        entry: bool,
    ) -> Self {
        let (params, rets, frame) = if entry {
            (Vec::new(), Vec::new(), 0)
        } else {
            KernelCtx::signature(f)
        };
        let mut top = BTreeMap::new();
        if !entry {
            for (p, off) in f.params.iter().zip(&params) {
                top.insert(p.name.clone(), Name::Frame(*off));
            }
            for (p, off) in f.returns.iter().zip(&rets) {
                top.insert(p.name.clone(), Name::Frame(*off));
            }
        }
        FnDecoder {
            ctx,
            f,
            entry,
            scopes: vec![top],
            own_shared,
            labels: BTreeMap::new(),
            slots: 0,
            preds: 0,
            consts: BTreeMap::new(),
            sregs: Vec::new(),
            init: Vec::new(),
            frame,
            params,
            rets,
            calls: Vec::new(),
            scratch: None,
            cc: None,
            line: f.line,
        }
    }

    fn run(mut self) -> Result<Func, PtxError> {
        let body = self.f.body.as_deref().unwrap_or(&[]);
        // Labels first: each PTX instruction decodes to exactly one instruction.
        let mut n = 0u32;
        for st in body {
            match st {
                Statement::Inst(_) => n += 1,
                Statement::Label(l) => {
                    self.labels.insert(l.clone(), n);
                }
                _ => {}
            }
        }
        let mut code = Vec::with_capacity(n as usize);
        for st in body {
            match st {
                Statement::Open => self.scopes.push(BTreeMap::new()),
                Statement::Close => {
                    self.scopes.pop();
                }
                Statement::Reg { bits, names } => {
                    for name in names {
                        let nm = if *bits == 0 {
                            self.preds += 1;
                            Name::Pred(self.preds - 1)
                        } else {
                            // A 128-bit register takes two slots (`decode/b128.rs`).
                            let n = if *bits == 128 { 2 } else { 1 };
                            self.slots += n;
                            Name::Reg {
                                slot: self.slots - n,
                                bits: *bits,
                            }
                        };
                        self.declare(name, nm);
                    }
                }
                Statement::Var(v) => match v.space {
                    Space::Local | Space::Param => {
                        self.frame = align_up(self.frame, u64::from(v.align.max(1)));
                        let off = self.frame as u32;
                        self.frame = self.frame.saturating_add(v.size().max(1));
                        if self.frame > 1 << 24 {
                            return Err(err(
                                self.ctx.module,
                                v.line,
                                Reason::Unsupported("a frame over 16 MiB"),
                            ));
                        }
                        self.declare(&v.name, Name::Frame(off));
                    }
                    Space::Shared => {
                        let off = self.own_shared.get(&v.name).copied().unwrap_or(0);
                        self.declare(&v.name, Name::Shared(off));
                    }
                    _ => {
                        return Err(err(
                            self.ctx.module,
                            v.line,
                            Reason::Unsupported("a .global or .const variable inside a function"),
                        ));
                    }
                },
                Statement::Label(_) => {}
                Statement::Inst(inst) => {
                    self.line = inst.line;
                    let decoded = self
                        .inst(inst)
                        .map_err(|r| err(self.ctx.module, inst.line, r))?;
                    code.push(decoded);
                }
            }
        }
        // A body that falls off its end returns (a `.func`) or exits (the kernel).
        code.push(Inst {
            op: if self.entry { Op::Exit } else { Op::Ret },
            guard: Guard::Always,
            line: self.line,
        });
        Ok(Func {
            name: self.f.name.clone(),
            code,
            slots: self.slots,
            preds: self.preds,
            init: self.init,
            frame: align_up(self.frame, 16) as u32,
            params: self.params,
            rets: self.rets,
            calls: self.calls,
        })
    }

    fn declare(&mut self, name: &str, n: Name) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), n);
        }
    }

    fn lookup(&self, name: &str) -> Option<&Name> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn constant(&mut self, v: u64) -> Slot {
        if let Some(&s) = self.consts.get(&v) {
            return s;
        }
        let s = self.slots;
        self.slots += 1;
        self.consts.insert(v, s);
        self.init.push((s, Init::Const(v)));
        s
    }

    fn scratch(&mut self) -> Slot {
        if let Some(s) = self.scratch {
            return s;
        }
        let s = self.slots;
        self.slots += 1;
        self.scratch = Some(s);
        s
    }

    /// The frame's hidden carry flag register.
    fn carry(&mut self) -> Slot {
        if let Some(s) = self.cc {
            return s;
        }
        let s = self.slots;
        self.slots += 1;
        self.cc = Some(s);
        s
    }

    fn sreg_slot(&mut self, s: Sreg) -> R<Slot> {
        if dynamic_sreg(s) {
            return unsupported("%clock/%globaltimer outside mov");
        }
        if let Some(&(_, slot)) = self.sregs.iter().find(|(k, _)| *k == s) {
            return Ok(slot);
        }
        let slot = self.slots;
        self.slots += 1;
        self.sregs.push((s, slot));
        self.init.push((slot, Init::Sreg(s)));
        Ok(slot)
    }

    /// A source operand as a slot; `float`: the instruction's float width (32/64) for float
    /// literals, 16 for half types, 0 for integer types.
    fn src(&mut self, op: &Operand, float: u32) -> R<Slot> {
        match op {
            Operand::Name(n) => match self.lookup(n) {
                Some(Name::Reg { bits: 128, .. }) => {
                    unsupported("a 128-bit register outside ld, st and mov")
                }
                Some(Name::Reg { slot, .. }) => Ok(*slot),
                Some(_) => unsupported("a variable or predicate where a register is expected"),
                None => match sreg_of(n) {
                    Some(s) => self.sreg_slot(s),
                    // PTX's one predefined constant (PTX ISA "Predefined Identifiers"): the
                    // warp's width in lanes; nvcc writes it for `warpSize`.
                    None if n == "WARP_SZ" => Ok(self.constant(32)),
                    None => Err(Reason::Undefined(n.clone())),
                },
            },
            Operand::Int(v) => {
                let v = match float {
                    // An integer literal for a float operand is its value as that float.
                    32 => u64::from((*v as i64 as f32).to_bits()),
                    64 => (*v as i64 as f64).to_bits(),
                    _ => *v,
                };
                Ok(self.constant(v))
            }
            Operand::Float { bits, single } => {
                let f = if *single {
                    f64::from(f32::from_bits(*bits as u32))
                } else {
                    f64::from_bits(*bits)
                };
                let v = match float {
                    32 => {
                        if *single {
                            *bits & 0xffff_ffff
                        } else {
                            u64::from((f as f32).to_bits())
                        }
                    }
                    64 => f.to_bits(),
                    16 => u64::from(half::f16::from_f64(f).to_bits()),
                    _ => *bits,
                };
                Ok(self.constant(v))
            }
            _ => unsupported("operand form"),
        }
    }

    fn dst(&mut self, op: &Operand) -> R<Slot> {
        match op {
            Operand::Sink => Ok(self.scratch()),
            Operand::Name(n) => match self.lookup(n) {
                Some(Name::Reg { bits: 128, .. }) => {
                    unsupported("a 128-bit register outside ld, st and mov")
                }
                Some(Name::Reg { slot, .. }) => Ok(*slot),
                Some(_) => unsupported("a destination that is no register"),
                None => Err(Reason::Undefined(n.clone())),
            },
            _ => unsupported("destination operand form"),
        }
    }

    fn reg_bits(&self, op: &Operand) -> u32 {
        match op {
            Operand::Name(n) => match self.lookup(n) {
                Some(Name::Reg { bits, .. }) => *bits,
                _ => 64,
            },
            _ => 64,
        }
    }

    fn pred(&mut self, op: &Operand) -> R<(Pred, bool)> {
        match op {
            Operand::Name(n) | Operand::Not(n) => match self.lookup(n) {
                Some(Name::Pred(p)) => Ok((*p, matches!(op, Operand::Not(_)))),
                Some(_) => unsupported("a register where a predicate is expected"),
                None => Err(Reason::Undefined(n.clone())),
            },
            Operand::Sink => {
                self.preds += 1;
                Ok((self.preds - 1, false))
            }
            _ => unsupported("predicate operand form"),
        }
    }

    fn is_pred(&self, op: &Operand) -> bool {
        matches!(op, Operand::Name(n) | Operand::Not(n) if matches!(self.lookup(n), Some(Name::Pred(_))))
    }

    /// An address operand: the address and, where the name fixes it, the memory it lies in.
    fn addr(&mut self, op: &Operand) -> R<(Addr, Option<Mem>)> {
        let (base, off) = match op {
            Operand::Address { base, offset } => (base.as_deref(), *offset),
            Operand::Name(n) => (Some(n.as_str()), 0),
            Operand::NameOffset(n, o) => (Some(n.as_str()), *o),
            _ => return unsupported("address operand form"),
        };
        let Some(name) = base else {
            return Ok((
                Addr {
                    base: Base::Abs,
                    off,
                },
                None,
            ));
        };
        match self.lookup(name) {
            Some(Name::Reg { slot, .. }) => {
                return Ok((
                    Addr {
                        base: Base::Reg(*slot),
                        off,
                    },
                    None,
                ));
            }
            Some(Name::Frame(o)) => {
                return Ok((
                    Addr {
                        base: Base::Frame,
                        off: i64::from(*o).wrapping_add(off),
                    },
                    Some(Mem::Local),
                ));
            }
            Some(Name::Shared(o)) => {
                return Ok((
                    Addr {
                        base: Base::Abs,
                        off: i64::from(*o).wrapping_add(off),
                    },
                    Some(Mem::Shared),
                ));
            }
            Some(Name::Pred(_)) => return unsupported("a predicate as an address"),
            None => {}
        }
        if let Some(&o) = self.ctx.shared.get(name) {
            return Ok((
                Addr {
                    base: Base::Abs,
                    off: i64::from(o).wrapping_add(off),
                },
                Some(Mem::Shared),
            ));
        }
        if self.entry {
            if let Some(&o) = self.ctx.kparams.get(name) {
                return Ok((
                    Addr {
                        base: Base::Abs,
                        off: i64::from(o).wrapping_add(off),
                    },
                    Some(Mem::KParam),
                ));
            }
        }
        if self.ctx.global_var(name) {
            let i = self.ctx.symbol(name);
            return Ok((
                Addr {
                    base: Base::Symbol(i),
                    off,
                },
                Some(Mem::Global),
            ));
        }
        Err(Reason::Undefined(name.to_string()))
    }

    fn frame_var(&self, op: &Operand) -> R<u32> {
        match op {
            Operand::Name(n) => match self.lookup(n) {
                Some(Name::Frame(o)) => Ok(*o),
                _ => unsupported("a call argument that is no .param variable"),
            },
            _ => unsupported("a call argument that is no .param variable"),
        }
    }

    fn label(&self, op: Option<&Operand>) -> R<u32> {
        match op {
            Some(Operand::Name(n)) => self
                .labels
                .get(n)
                .copied()
                .ok_or_else(|| Reason::Undefined(n.clone())),
            _ => unsupported("branch target form"),
        }
    }

    fn guard(&mut self, inst: &Instruction) -> R<Guard> {
        Ok(match &inst.guard {
            None => Guard::Always,
            Some((p, neg)) => {
                let (p, _) = self.pred(&Operand::Name(p.clone()))?;
                if *neg { Guard::IfNot(p) } else { Guard::If(p) }
            }
        })
    }

    fn inst(&mut self, inst: &Instruction) -> R<Inst> {
        if let Some(why) = inst.unread {
            return Err(Reason::Unsupported(why));
        }
        let guard = self.guard(inst)?;
        let op = self.op(inst)?;
        Ok(Inst {
            op,
            guard,
            line: inst.line,
        })
    }

    fn operand(inst: &Instruction, i: usize) -> R<&Operand> {
        inst.operands
            .get(i)
            .ok_or(Reason::Syntax("missing operand"))
    }

    fn mem_of(mods: &[&str]) -> (Mem, Option<Space>) {
        for m in mods {
            match *m {
                ".global" => return (Mem::Global, Some(Space::Global)),
                // A shared::cluster address reaches the cluster's blocks' shared memories
                // through the same accesses ([`crate::cluster`]).
                ".shared" | ".shared::cta" | ".shared::cluster" => {
                    return (Mem::Shared, Some(Space::Shared));
                }
                ".local" => return (Mem::Local, Some(Space::Local)),
                ".const" => return (Mem::Global, Some(Space::Const)),
                ".param" | ".param::entry" | ".param::func" => {
                    return (Mem::KParam, Some(Space::Param));
                }
                _ => {}
            }
        }
        (Mem::Generic, None)
    }

    fn vec_n(mods: &[&str]) -> u8 {
        if mods.contains(&".v4") {
            4
        } else if mods.contains(&".v2") {
            2
        } else {
            1
        }
    }

    fn op(&mut self, inst: &Instruction) -> R<Op> {
        let (base, mods) = split(&inst.opcode);
        let o = |i| Self::operand(inst, i);
        match base {
            "mov" => self.mov(inst, &mods),
            "ld" | "ldu" => {
                let (mut mem, space) = Self::mem_of(&mods);
                let (ty, width) = first_type(&mods).ok_or(Reason::Syntax("a type"))?;
                let n = Self::vec_n(&mods);
                if width == 0 || (width == 16 && n != 1) {
                    return unsupported("ld of a vector of .b128");
                }
                let (addr, fixed) = self.addr(o(1)?)?;
                if let Some(f) = fixed {
                    // A named variable fixes the memory; `.param` in a .func is its frame.
                    if !(mem == Mem::Global && f == Mem::Global) {
                        mem = f;
                    }
                } else if space == Some(Space::Param) && !self.entry {
                    mem = Mem::Local;
                }
                if width == 16 {
                    return self.ld_b128(inst, mem, addr);
                }
                let mut d = [0; 4];
                let dst_ops: Vec<&Operand> = match o(0)? {
                    Operand::Vector(v) => v.iter().collect(),
                    other => vec![other],
                };
                if dst_ops.len() != n as usize {
                    return Err(Reason::Syntax("vector size"));
                }
                let mut bits = 64;
                for (k, op) in dst_ops.iter().enumerate() {
                    if let Some(s) = d.get_mut(k) {
                        *s = self.dst(op)?;
                    }
                    bits = bits.min(self.reg_bits(op));
                }
                let sext = ty.starts_with(".s");
                Ok(Op::Ld {
                    mem,
                    width: width as u8,
                    n,
                    sext,
                    dmask: mask_of(bits.max(width * 8)),
                    d,
                    addr,
                })
            }
            "st" => {
                let (mut mem, space) = Self::mem_of(&mods);
                let (ty, width) = first_type(&mods).ok_or(Reason::Syntax("a type"))?;
                let n = Self::vec_n(&mods);
                if width == 0 || (width == 16 && n != 1) {
                    return unsupported("st of a vector of .b128");
                }
                let (addr, fixed) = self.addr(o(0)?)?;
                if let Some(f) = fixed {
                    if !(mem == Mem::Global && f == Mem::Global) {
                        mem = f;
                    }
                } else if space == Some(Space::Param) {
                    mem = Mem::Local;
                }
                if mem == Mem::KParam {
                    return unsupported("st to a kernel parameter");
                }
                if width == 16 {
                    return self.st_b128(inst, mem, addr);
                }
                let src_ops: Vec<&Operand> = match o(1)? {
                    Operand::Vector(v) => v.iter().collect(),
                    other => vec![other],
                };
                if src_ops.len() != n as usize {
                    return Err(Reason::Syntax("vector size"));
                }
                let fw = if ty.starts_with(".f") { width * 8 } else { 0 };
                let mut s = [0; 4];
                for (k, op) in src_ops.iter().enumerate() {
                    if let Some(x) = s.get_mut(k) {
                        *x = self.src(op, fw)?;
                    }
                }
                Ok(Op::St {
                    mem,
                    width: width as u8,
                    n,
                    s,
                    addr,
                })
            }
            "atom" | "red" => self.atom(inst, base == "red", &mods),
            "mma" | "wmma" | "ldmatrix" | "stmatrix" => self.tensor(inst, base, &mods),
            "mbarrier" => self.mbarrier(inst, &mods),
            "tex" | "tld4" | "txq" | "suld" | "sust" | "suq" => self.texture(inst, base, &mods),
            "cp" if mods.first() == Some(&".async") && mods.get(1) == Some(&".bulk") => {
                self.bulk(inst, &mods)
            }
            "cp" if mods.first() == Some(&".async") && mods.get(1) == Some(&".mbarrier") => {
                self.mbarrier(inst, &mods)
            }
            "cvta" => {
                let to = mods.contains(&".to");
                let window = if mods
                    .iter()
                    .any(|m| matches!(*m, ".shared" | ".shared::cta" | ".shared::cluster"))
                {
                    Window::Shared
                } else if mods.contains(&".local") {
                    Window::Local
                } else if mods.contains(&".param") {
                    Window::Param
                } else {
                    Window::Global
                };
                let bits = if mods.contains(&".u32") { 32 } else { 64 };
                let d = self.dst(o(0)?)?;
                // `cvta.shared.u64 %rd, name`: a variable's generic address directly.
                if let Operand::Name(n) = o(1)? {
                    if !matches!(self.lookup(n), Some(Name::Reg { .. })) {
                        let (addr, _) = self.addr(o(1)?)?;
                        return Ok(Op::AddrOf {
                            d,
                            addr,
                            window,
                            generic: !to,
                        });
                    }
                }
                let a = self.src(o(1)?, 0)?;
                Ok(Op::Cvta {
                    d,
                    a,
                    window,
                    to,
                    mask: mask_of(bits),
                })
            }
            "setp" => self.setp(inst, &mods),
            "set" => {
                let cmp = mods.first().copied().unwrap_or("");
                let tys: Vec<&str> = mods
                    .iter()
                    .copied()
                    .filter(|m| type_size(m).is_some())
                    .collect();
                let (Some(dty), Some(sty)) = (tys.first(), tys.get(1)) else {
                    return Err(Reason::Syntax("set's types"));
                };
                if mods.iter().any(|m| matches!(*m, ".and" | ".or" | ".xor")) {
                    return unsupported("set with a combining predicate");
                }
                let ftz = mods.contains(&".ftz");
                let f = alu::cmp(cmp, sty, ftz).ok_or(Reason::Unsupported("set comparison"))?;
                let fw = alu::float_width(sty);
                let d = self.dst(o(0)?)?;
                let a = self.src(o(1)?, fw)?;
                let b = self.src(o(2)?, fw)?;
                let one = if *dty == ".f32" {
                    0x3f80_0000
                } else {
                    0xffff_ffff
                };
                Ok(Op::Set { f, d, a, b, one })
            }
            "selp" => {
                let (ty, _) = first_type(&mods).ok_or(Reason::Syntax("a type"))?;
                let fw = alu::float_width(ty);
                let d = self.dst(o(0)?)?;
                let a = self.src(o(1)?, fw)?;
                let b = self.src(o(2)?, fw)?;
                let (p, neg) = self.pred(o(3)?)?;
                if neg {
                    return Ok(Op::Selp { d, a: b, b: a, p });
                }
                Ok(Op::Selp { d, a, b, p })
            }
            "and" | "or" | "xor" | "not" if mods.contains(&".pred") => {
                let (d, _) = self.pred(o(0)?)?;
                let a = self.pred(o(1)?)?;
                let op = match base {
                    "and" => PLogic::And,
                    "or" => PLogic::Or,
                    _ => PLogic::Xor,
                };
                if base == "not" {
                    return Ok(Op::PLog {
                        op,
                        d,
                        a: (a.0, !a.1),
                        b: None,
                    });
                }
                let b = self.pred(o(2)?)?;
                Ok(Op::PLog {
                    op,
                    d,
                    a,
                    b: Some(b),
                })
            }
            "bra" | "brx" => {
                if base == "brx" {
                    return unsupported("brx.idx");
                }
                Ok(Op::Bra {
                    t: self.label(inst.operands.first())?,
                })
            }
            "call" => self.call(inst),
            "ret" => Ok(Op::Ret),
            "exit" => Ok(Op::Exit),
            "trap" | "brkpt" => Ok(Op::Trap),
            "bar" | "barrier" if mods.first() == Some(&".cluster") => {
                // barrier.cluster.arrive{.release|.relaxed}{.aligned},
                // barrier.cluster.wait{.acquire}{.aligned}: orderings are the host's
                // (see `fence` below), `.aligned` a promise this scheduler needs not.
                let kind = match mods.get(1).copied() {
                    Some(".arrive") => BarKind::ClusterArrive,
                    Some(".wait") => BarKind::ClusterWait,
                    _ => return unsupported("barrier.cluster form"),
                };
                Ok(Op::Bar { kind })
            }
            "mapa" | "getctarank" => {
                // mapa{.shared::cluster}.{u32,u64} d, a, rank; getctarank{.shared::cluster}.
                // {u32,u64} d, a: without a state space, generic addresses.
                let generic = !mods.contains(&".shared::cluster");
                if mods
                    .iter()
                    .any(|m| m.starts_with(".shared") && *m != ".shared::cluster")
                {
                    return unsupported("mapa/getctarank state space");
                }
                let d = self.dst(o(0)?)?;
                let a = self.src(o(1)?, 0)?;
                if base == "getctarank" {
                    return Ok(Op::GetCtaRank { d, a, generic });
                }
                let b = self.src(o(2)?, 0)?;
                let bits = if mods.contains(&".u32") { 32 } else { 64 };
                Ok(Op::Mapa {
                    d,
                    a,
                    b,
                    generic,
                    mask: mask_of(bits),
                })
            }
            "bar" | "barrier" => {
                if mods.contains(&".warp") {
                    return Ok(Op::Bar {
                        kind: BarKind::Warp,
                    });
                }
                if mods.contains(&".red") {
                    let kind = if mods.contains(&".popc") {
                        BarRedKind::Popc
                    } else if mods.contains(&".and") {
                        BarRedKind::And
                    } else if mods.contains(&".or") {
                        BarRedKind::Or
                    } else {
                        return unsupported("bar.red operation");
                    };
                    let last = inst
                        .operands
                        .last()
                        .ok_or(Reason::Syntax("bar.red's predicate"))?;
                    let a = self.pred(last)?;
                    let (d, dp) = if kind == BarRedKind::Popc {
                        (self.dst(o(0)?)?, 0)
                    } else {
                        (self.scratch(), self.pred(o(0)?)?.0)
                    };
                    return Ok(Op::BarRed { kind, d, dp, a });
                }
                if mods.contains(&".arrive") {
                    return Ok(Op::Bar {
                        kind: BarKind::Arrive,
                    });
                }
                // A thread count (named barriers of producer/consumer code): this scheduler
                // releases a barrier when every warp waits or has ended, which such code
                // reaches too (its producers `bar.arrive`, a no-op here, before they wait).
                Ok(Op::Bar {
                    kind: BarKind::Sync,
                })
            }
            // One host's memory model: the executor runs a block's warps one after the
            // other on one thread, and its global accesses are atomic accesses of the host
            // (sequentially consistent RMWs, relaxed loads and stores that the barriers'
            // scheduling orders): no fence has anything left to order.
            "membar" | "fence" | "nanosleep" | "prefetch" | "prefetchu" | "pmevent" | "discard"
            | "applypriority" | "createpolicy" => {
                if base == "createpolicy" {
                    return unsupported("createpolicy");
                }
                Ok(Op::Nop)
            }
            "shfl" => self.shfl(inst, &mods),
            "vote" => {
                let m = if mods.contains(&".sync") {
                    self.src(o(2)?, 0)?
                } else {
                    self.constant(0xffff_ffff)
                };
                let mode = if mods.contains(&".all") {
                    VoteMode::All
                } else if mods.contains(&".any") {
                    VoteMode::Any
                } else if mods.contains(&".uni") {
                    VoteMode::Uni
                } else if mods.contains(&".ballot") {
                    VoteMode::Ballot
                } else {
                    return unsupported("vote mode");
                };
                let a = self.pred(o(1)?)?;
                if mode == VoteMode::Ballot {
                    let d = self.dst(o(0)?)?;
                    Ok(Op::Vote {
                        mode,
                        d,
                        dp: 0,
                        a,
                        m,
                    })
                } else {
                    let (dp, _) = self.pred(o(0)?)?;
                    let d = self.scratch();
                    Ok(Op::Vote { mode, d, dp, a, m })
                }
            }
            "activemask" => Ok(Op::Activemask {
                d: self.dst(o(0)?)?,
            }),
            "redux" => {
                let op = if mods.contains(&".add") {
                    ReduxOp::Add
                } else if mods.contains(&".and") {
                    ReduxOp::And
                } else if mods.contains(&".or") {
                    ReduxOp::Or
                } else if mods.contains(&".xor") {
                    ReduxOp::Xor
                } else if mods.contains(&".min") {
                    if mods.contains(&".s32") {
                        ReduxOp::MinS
                    } else {
                        ReduxOp::MinU
                    }
                } else if mods.contains(&".max") {
                    if mods.contains(&".s32") {
                        ReduxOp::MaxS
                    } else {
                        ReduxOp::MaxU
                    }
                } else {
                    return unsupported("redux operation");
                };
                if mods.iter().any(|m| m.starts_with(".f")) {
                    return unsupported("redux.f32");
                }
                let d = self.dst(o(0)?)?;
                let a = self.src(o(1)?, 0)?;
                let m = self.src(o(2)?, 0)?;
                Ok(Op::Redux { op, d, a, m })
            }
            "match" => {
                let all = mods.contains(&".all");
                let wide = mods.contains(&".b64");
                let (d, p) = match o(0)? {
                    Operand::Pair(d, p) => {
                        let ds = self.dst(&Operand::Name(d.clone()))?;
                        let (ps, _) = self.pred(&Operand::Name(p.clone()))?;
                        (ds, Some(ps))
                    }
                    other => (self.dst(other)?, None),
                };
                let a = self.src(o(1)?, 0)?;
                let m = self.src(o(2)?, 0)?;
                Ok(Op::Match {
                    all,
                    wide,
                    d,
                    p,
                    a,
                    m,
                })
            }
            "cvt" => self.cvt(inst, &mods),
            "add" | "addc" | "sub" | "subc" | "mad" | "madc"
                if base.ends_with('c') || mods.contains(&".cc") =>
            {
                let kind = match base {
                    "add" | "addc" => CarryKind::Add,
                    "sub" | "subc" => CarryKind::Sub,
                    _ if mods.contains(&".hi") => CarryKind::MadHi,
                    _ => CarryKind::MadLo,
                };
                let (ty, size) = first_type(&mods).ok_or(Reason::Syntax("a type"))?;
                if size < 4 {
                    return unsupported("16-bit carry arithmetic");
                }
                if kind == CarryKind::MadHi && ty.starts_with(".s") {
                    return unsupported("signed mad.hi with carry");
                }
                let d = self.dst(o(0)?)?;
                let a = self.src(o(1)?, 0)?;
                let b = self.src(o(2)?, 0)?;
                let c = if matches!(kind, CarryKind::MadLo | CarryKind::MadHi) {
                    self.src(o(3)?, 0)?
                } else {
                    a
                };
                let cc = self.carry();
                Ok(Op::Carry {
                    kind,
                    wide: size == 8,
                    cin: base.ends_with('c'),
                    cout: mods.contains(&".cc"),
                    d,
                    a,
                    b,
                    c,
                    cc,
                })
            }
            "testp" | "isspacep" => {
                let f = if base == "testp" {
                    let (ty, _) = first_type(&mods).ok_or(Reason::Syntax("a type"))?;
                    let op = mods.first().copied().unwrap_or("");
                    alu::testp(op, ty).ok_or(Reason::Unsupported("testp"))?
                } else {
                    alu::isspacep(mods.first().copied().unwrap_or(""))
                        .ok_or(Reason::Unsupported("isspacep"))?
                };
                let (d, _) = self.pred(o(0)?)?;
                let fw = mods
                    .iter()
                    .find_map(|m| type_size(m).map(|_| alu::float_width(m)))
                    .unwrap_or(0);
                let a = self.src(o(1)?, fw)?;
                Ok(Op::Setp {
                    f,
                    a,
                    b: a,
                    d,
                    nd: None,
                    comb: None,
                })
            }
            "cp" if mods.first() == Some(&".async") => {
                if mods
                    .iter()
                    .any(|m| m.starts_with(".bulk") || m.starts_with(".mbarrier"))
                {
                    return unsupported("cp.async.bulk / cp.async.mbarrier");
                }
                if mods.contains(&".commit_group")
                    || mods.contains(&".wait_group")
                    || mods.contains(&".wait_all")
                {
                    return Ok(Op::Nop);
                }
                let (dst, _) = self.addr(o(0)?)?;
                let (src, _) = self.addr(o(1)?)?;
                let Operand::Int(size) = o(2)? else {
                    return Err(Reason::Syntax("cp.async's size"));
                };
                let src_size = match inst.operands.get(3) {
                    Some(op @ (Operand::Name(_) | Operand::Int(_))) => Some(self.src(op, 0)?),
                    _ => None,
                };
                if !matches!(size, 4 | 8 | 16) {
                    return Err(Reason::Syntax("cp.async's size"));
                }
                Ok(Op::CpAsync {
                    dst,
                    src,
                    size: *size as u8,
                    src_size,
                })
            }
            "elect" => {
                let (d, p) = match o(0)? {
                    Operand::Pair(d, p) => {
                        let ds = self.dst(&Operand::Name(d.clone()))?;
                        let (ps, _) = self.pred(&Operand::Name(p.clone()))?;
                        (ds, Some(ps))
                    }
                    other => (self.dst(other)?, None),
                };
                let m = self.src(o(1)?, 0)?;
                Ok(Op::Elect { d, p, m })
            }
            "lop3" => {
                let d = self.dst(o(0)?)?;
                let a = self.src(o(1)?, 0)?;
                let b = self.src(o(2)?, 0)?;
                let c = self.src(o(3)?, 0)?;
                let Operand::Int(lut) = o(4)? else {
                    return Err(Reason::Syntax("lop3's immediate LUT"));
                };
                if mods.contains(&".or") || mods.contains(&".and") {
                    return unsupported("lop3 with a predicate");
                }
                let (f, aux) = alu::lop3_fn(*lut as u8);
                Ok(Op::Alu { f, d, a, b, c, aux })
            }
            "bfi" => {
                let d = self.dst(o(0)?)?;
                let a = self.src(o(1)?, 0)?;
                let b = self.src(o(2)?, 0)?;
                let c = self.src(o(3)?, 0)?;
                let e = self.src(o(4)?, 0)?;
                let f = if mods.contains(&".b64") {
                    alu::bfi64 as crate::ops::Alu4Fn
                } else {
                    alu::bfi32
                };
                Ok(Op::Alu4 {
                    f,
                    r: [d, a, b, c, e],
                })
            }
            _ => {
                let (f, aux, fw) =
                    alu::lookup(base, &mods).ok_or(Reason::Unsupported("instruction"))?;
                let d = self.dst(o(0)?)?;
                let srcs = inst.operands.len().saturating_sub(1);
                let a = if srcs >= 1 { self.src(o(1)?, fw)? } else { d };
                // A shift amount, prmt selector or bfe position is an integer.
                let int2 = matches!(base, "shl" | "shr" | "bfe" | "prmt" | "shf");
                let b = if srcs >= 2 {
                    self.src(o(2)?, if int2 { 0 } else { fw })?
                } else {
                    a
                };
                let c = if srcs >= 3 {
                    self.src(
                        o(3)?,
                        if int2 || base == "dp4a" || base == "dp2a" {
                            0
                        } else if base == "slct" {
                            // slct's selector has the last type, a and b the first.
                            mods.iter()
                                .rev()
                                .find(|m| type_size(m).is_some())
                                .map_or(0, |m| alu::float_width(m))
                        } else {
                            fw
                        },
                    )?
                } else {
                    a
                };
                if srcs > 3 {
                    return unsupported("operand count");
                }
                Ok(Op::Alu { f, d, a, b, c, aux })
            }
        }
    }

    fn mov(&mut self, inst: &Instruction, mods: &[&str]) -> R<Op> {
        let o = |i| Self::operand(inst, i);
        let (ty, size) = first_type(mods).ok_or(Reason::Syntax("a type"))?;
        if ty == ".b128" {
            return self.mov_b128(inst);
        }
        if ty == ".pred" {
            let (d, _) = self.pred(o(0)?)?;
            return match o(1)? {
                Operand::Int(v) => Ok(Op::PConst { d, v: *v != 0 }),
                // `mov.pred %p, %is_explicit_cluster;`: the register is 1 or 0.
                Operand::Name(n) if sreg_of(n) == Some(Sreg::IsExplicitCluster) => {
                    let a = self.sreg_slot(Sreg::IsExplicitCluster)?;
                    let zero = self.constant(0);
                    let f = alu::cmp(".ne", ".u32", false)
                        .ok_or(Reason::Unsupported("setp comparison"))?;
                    Ok(Op::Setp {
                        f,
                        a,
                        b: zero,
                        d,
                        nd: None,
                        comb: None,
                    })
                }
                other => {
                    let a = self.pred(other)?;
                    Ok(Op::PLog {
                        op: PLogic::And,
                        d,
                        a,
                        b: None,
                    })
                }
            };
        }
        let bits = size * 8;
        match (o(0)?, o(1)?) {
            (Operand::Vector(v), src) => {
                let a = self.src(src, 0)?;
                let n = v.len();
                if !(n == 2 || n == 4) || bits % (n as u32) != 0 {
                    return unsupported("mov unpack form");
                }
                let mut d = [0; 4];
                for (k, op) in v.iter().enumerate() {
                    if let Some(s) = d.get_mut(k) {
                        *s = self.dst(op)?;
                    }
                }
                Ok(Op::Unpack {
                    d,
                    n: n as u8,
                    bits: (bits / n as u32) as u8,
                    a,
                })
            }
            (dst, Operand::Vector(v)) => {
                let d = self.dst(dst)?;
                let n = v.len();
                if !(n == 2 || n == 4) || bits % (n as u32) != 0 {
                    return unsupported("mov pack form");
                }
                let mut s = [0; 4];
                for (k, op) in v.iter().enumerate() {
                    if let Some(x) = s.get_mut(k) {
                        *x = self.src(op, 0)?;
                    }
                }
                Ok(Op::Pack {
                    d,
                    s,
                    n: n as u8,
                    bits: (bits / n as u32) as u8,
                })
            }
            (dst, src @ (Operand::Name(_) | Operand::NameOffset(..))) => {
                let d = self.dst(dst)?;
                let name = match src {
                    Operand::Name(n) | Operand::NameOffset(n, _) => n.as_str(),
                    _ => "",
                };
                if self.is_pred(src) {
                    let (p, _) = self.pred(src)?;
                    return Ok(Op::PredToReg { d, p });
                }
                if matches!(self.lookup(name), Some(Name::Reg { .. }))
                    || self.lookup(name).is_none() && (sreg_of(name).is_some() || name == "WARP_SZ")
                {
                    if let Some(s) = sreg_of(name).filter(|s| dynamic_sreg(*s)) {
                        return Ok(Op::Sreg { d, which: s });
                    }
                    let a = self.src(src, 0)?;
                    return Ok(Op::Alu {
                        f: alu::mov_fn(bits),
                        d,
                        a,
                        b: a,
                        c: a,
                        aux: 0,
                    });
                }
                // A function's name: its address (a function pointer).
                let module = self.ctx.module;
                if self.lookup(name).is_none() {
                    if let Some(i) = module
                        .functions
                        .iter()
                        .rposition(|g| g.name == name && g.body.is_some() && !g.entry)
                    {
                        let a = self.constant(function_address(i));
                        return Ok(Op::Alu {
                            f: alu::mov_fn(64),
                            d,
                            a,
                            b: a,
                            c: a,
                            aux: 0,
                        });
                    }
                }
                // A variable's address: its window's offset (shared, local, param) or its
                // global address.
                let (addr, mem) = self.addr(src)?;
                let window = match mem {
                    Some(Mem::Shared) => Window::Shared,
                    Some(Mem::Local) => Window::Local,
                    Some(Mem::KParam) => Window::Param,
                    _ => Window::Global,
                };
                Ok(Op::AddrOf {
                    d,
                    addr,
                    window,
                    generic: false,
                })
            }
            (dst, src) => {
                let d = self.dst(dst)?;
                let fw = alu::float_width(ty);
                let a = self.src(src, fw)?;
                Ok(Op::Alu {
                    f: alu::mov_fn(bits),
                    d,
                    a,
                    b: a,
                    c: a,
                    aux: 0,
                })
            }
        }
    }

    fn setp(&mut self, inst: &Instruction, mods: &[&str]) -> R<Op> {
        let o = |i| Self::operand(inst, i);
        let cmp = mods.first().copied().unwrap_or("");
        let (ty, _) = first_type(mods).ok_or(Reason::Syntax("a type"))?;
        let f = alu::cmp(cmp, ty, mods.contains(&".ftz"))
            .ok_or(Reason::Unsupported("setp comparison or type"))?;
        let logic = mods.iter().find_map(|m| match *m {
            ".and" => Some(PLogic::And),
            ".or" => Some(PLogic::Or),
            ".xor" => Some(PLogic::Xor),
            _ => None,
        });
        let (d, nd) = match o(0)? {
            Operand::Pair(p, q) => {
                let (p, _) = self.pred(&Operand::Name(p.clone()))?;
                let (q, _) = self.pred(&Operand::Name(q.clone()))?;
                (p, Some(q))
            }
            other => (self.pred(other)?.0, None),
        };
        let fw = alu::float_width(ty);
        let a = self.src(o(1)?, fw)?;
        let b = self.src(o(2)?, fw)?;
        let comb = match logic {
            Some(l) => {
                let (c, neg) = self.pred(o(3)?)?;
                Some((l, c, neg))
            }
            None => None,
        };
        Ok(Op::Setp {
            f,
            a,
            b,
            d,
            nd,
            comb,
        })
    }

    fn cvt(&mut self, inst: &Instruction, mods: &[&str]) -> R<Op> {
        let o = |i| Self::operand(inst, i);
        let tys: Vec<&str> = mods
            .iter()
            .copied()
            .filter(|m| type_size(m).is_some())
            .collect();
        let (Some(dty), Some(sty)) = (tys.first().copied(), tys.get(1).copied()) else {
            return Err(Reason::Syntax("cvt's two types"));
        };
        if sty == ".pred" {
            return unsupported("cvt from .pred");
        }
        if (dty, sty) == (".tf32", ".f32") {
            use crate::tensor::{TF32_RN, TF32_RNA, TF32_RZ, TF32_SATFINITE, cvt_tf32};
            let mode = if mods.contains(&".rna") {
                TF32_RNA
            } else if mods.contains(&".rn") {
                TF32_RN
            } else if mods.contains(&".rz") {
                TF32_RZ
            } else {
                return unsupported("cvt.tf32.f32 rounding");
            };
            let sat = if mods.contains(&".satfinite") {
                TF32_SATFINITE
            } else {
                0
            };
            let d = self.dst(o(0)?)?;
            let a = self.src(o(1)?, 32)?;
            return Ok(Op::Alu {
                f: cvt_tf32,
                d,
                a,
                b: a,
                c: a,
                aux: mode | sat,
            });
        }
        let (f, aux) =
            alu::cvt(dty, sty, mods).ok_or(Reason::Unsupported("cvt types or rounding"))?;
        let d = self.dst(o(0)?)?;
        let fw = alu::float_width(sty);
        let a = self.src(o(1)?, fw)?;
        // `cvt.rn.f16x2.f32 d, a, b`: two sources.
        let b = if inst.operands.len() > 2 {
            self.src(o(2)?, fw)?
        } else {
            a
        };
        let aux = aux | (self.reg_bits(o(0)?).min(64) << 24);
        Ok(Op::Alu {
            f,
            d,
            a,
            b,
            c: a,
            aux,
        })
    }

    fn atom(&mut self, inst: &Instruction, red: bool, mods: &[&str]) -> R<Op> {
        let o = |i| Self::operand(inst, i);
        let (mut mem, _) = Self::mem_of(mods);
        if matches!(mem, Mem::Local | Mem::KParam) {
            return unsupported("atom on .local or .param");
        }
        let (ty, width) = mods
            .iter()
            .rev()
            .find_map(|m| type_size(m).map(|s| (*m, s)))
            .ok_or(Reason::Syntax("a type"))?;
        let has = |m: &str| mods.contains(&m);
        let signed = ty.starts_with(".s");
        let op = if has(".add") {
            match ty {
                ".f32" => AtomOp::AddF32,
                ".f64" => AtomOp::AddF64,
                ".f16" => AtomOp::AddF16,
                ".f16x2" => AtomOp::AddF16x2,
                ".bf16" => AtomOp::AddBf16,
                ".bf16x2" => AtomOp::AddBf16x2,
                _ => AtomOp::AddInt,
            }
        } else if has(".min") || has(".max") {
            let float = match ty {
                ".f32" => Some(FloatTy::F32),
                ".f64" => Some(FloatTy::F64),
                ".f16" => Some(FloatTy::F16),
                ".f16x2" => Some(FloatTy::F16x2),
                ".bf16" => Some(FloatTy::Bf16),
                ".bf16x2" => Some(FloatTy::Bf16x2),
                _ => None,
            };
            match (float, has(".min"), signed) {
                (Some(f), true, _) => AtomOp::MinF(f),
                (Some(f), false, _) => AtomOp::MaxF(f),
                (None, true, true) => AtomOp::MinS,
                (None, true, false) => AtomOp::MinU,
                (None, false, true) => AtomOp::MaxS,
                (None, false, false) => AtomOp::MaxU,
            }
        } else if has(".inc") {
            AtomOp::Inc
        } else if has(".dec") {
            AtomOp::Dec
        } else if has(".and") {
            AtomOp::And
        } else if has(".or") {
            AtomOp::Or
        } else if has(".xor") {
            AtomOp::Xor
        } else if has(".exch") {
            AtomOp::Exch
        } else if has(".cas") {
            AtomOp::Cas
        } else {
            return unsupported("atomic operation");
        };
        if ty.starts_with(".f")
            && !matches!(
                op,
                AtomOp::AddF32
                    | AtomOp::AddF64
                    | AtomOp::AddF16
                    | AtomOp::AddF16x2
                    | AtomOp::AddBf16
                    | AtomOp::AddBf16x2
                    | AtomOp::Exch
                    | AtomOp::Cas
                    | AtomOp::MinF(_)
                    | AtomOp::MaxF(_)
            )
        {
            return unsupported("float atomic operation");
        }
        if has(".v2") || has(".v4") || has(".v8") || width == 16 || width < 2 {
            return unsupported("vector or 128-bit atomics");
        }
        let (d, ai) = if red {
            (None, 0)
        } else {
            (Some(self.dst(o(0)?)?), 1)
        };
        let (addr, fixed) = self.addr(o(ai)?)?;
        if let Some(f) = fixed {
            mem = f;
        }
        let fw = alu::float_width(ty);
        let b = self.src(o(ai + 1)?, fw)?;
        let c = if op == AtomOp::Cas {
            self.src(o(ai + 2)?, fw)?
        } else {
            b
        };
        Ok(Op::Atom {
            mem,
            op,
            width: width as u8,
            d,
            addr,
            b,
            c,
        })
    }

    fn shfl(&mut self, inst: &Instruction, mods: &[&str]) -> R<Op> {
        let o = |i| Self::operand(inst, i);
        let mode = if mods.contains(&".up") {
            ShflMode::Up
        } else if mods.contains(&".down") {
            ShflMode::Down
        } else if mods.contains(&".bfly") {
            ShflMode::Bfly
        } else if mods.contains(&".idx") {
            ShflMode::Idx
        } else {
            return unsupported("shfl mode");
        };
        let (d, p) = match o(0)? {
            Operand::Pair(d, p) => {
                let ds = self.dst(&Operand::Name(d.clone()))?;
                let (ps, _) = self.pred(&Operand::Name(p.clone()))?;
                (ds, Some(ps))
            }
            other => (self.dst(other)?, None),
        };
        let a = self.src(o(1)?, 0)?;
        let b = self.src(o(2)?, 0)?;
        let c = self.src(o(3)?, 0)?;
        let m = if mods.contains(&".sync") {
            self.src(o(4)?, 0)?
        } else {
            self.constant(0xffff_ffff)
        };
        Ok(Op::Shfl {
            mode,
            d,
            p,
            a,
            b,
            c,
            m,
        })
    }

    fn call(&mut self, inst: &Instruction) -> R<Op> {
        let mut ops = inst.operands.iter();
        let mut rets: &[Operand] = &[];
        let mut first = ops.next();
        if let Some(Operand::List(r)) = first {
            rets = r;
            first = ops.next();
        }
        let Some(Operand::Name(callee)) = first else {
            return unsupported("call form");
        };
        let args: &[Operand] = match ops.next() {
            Some(Operand::List(a)) => a,
            None => &[],
            _ => return unsupported("call form"),
        };
        if let Some(Name::Reg { slot, .. }) = self.lookup(callee) {
            let a = *slot;
            return self.call_indirect(a, rets, args);
        }
        if ops.next().is_some() || self.lookup(callee).is_some() {
            return unsupported("call form");
        }
        // The device heap's functions, unless the module defines its own of the name.
        let defined = |name: &str| {
            self.ctx
                .module
                .functions
                .iter()
                .any(|g| g.name == name && g.body.is_some())
        };
        match callee.as_str() {
            "malloc" if !defined("malloc") => {
                let ret = self.frame_var(rets.first().ok_or(Reason::Syntax("malloc's result"))?)?;
                let size =
                    self.frame_var(args.first().ok_or(Reason::Syntax("malloc's argument"))?)?;
                return Ok(Op::Malloc { ret, size });
            }
            "free" if !defined("free") => {
                let ptr = self.frame_var(args.first().ok_or(Reason::Syntax("free's argument"))?)?;
                return Ok(Op::Free { ptr });
            }
            "vprintf" => {
                let ret = match rets.first() {
                    Some(r) => self.frame_var(r)?,
                    None => u32::MAX,
                };
                let fmt =
                    self.frame_var(args.first().ok_or(Reason::Syntax("vprintf's arguments"))?)?;
                let a =
                    self.frame_var(args.get(1).ok_or(Reason::Syntax("vprintf's arguments"))?)?;
                return Ok(Op::Vprintf { ret, fmt, args: a });
            }
            // The device runtime's call that sets a conditional graph node's value: a call of an
            // `.extern .func` the driver's JIT resolves, no device code of the module.
            "cudaGraphSetConditional" => {
                let arg = |k: usize| {
                    args.get(k)
                        .ok_or(Reason::Syntax("cudaGraphSetConditional's arguments"))
                };
                let handle = self.frame_var(arg(0)?)?;
                let value = self.frame_var(arg(1)?)?;
                return Ok(Op::SetConditional { handle, value });
            }
            "__assertfail" => {
                let mut offs = [0u32; 5];
                for (k, a) in args.iter().enumerate().take(5) {
                    if let Some(x) = offs.get_mut(k) {
                        *x = self.frame_var(a)?;
                    }
                }
                return Ok(Op::AssertFail { args: offs });
            }
            _ => {}
        }
        let module = self.ctx.module;
        let Some(mi) = module
            .functions
            .iter()
            .rposition(|g| &g.name == callee && g.body.is_some())
        else {
            return if module.functions.iter().any(|g| &g.name == callee) {
                unsupported("a call to an external function")
            } else {
                Err(Reason::Undefined(callee.clone()))
            };
        };
        let fi = self
            .ctx
            .order
            .iter()
            .position(|&x| x == mi)
            .ok_or(Reason::Undefined(callee.clone()))?;
        let g = module
            .functions
            .get(mi)
            .ok_or(Reason::Undefined(callee.clone()))?;
        let (ps, rs, _) = KernelCtx::signature(g);
        if args.len() != g.params.len() || rets.len() != g.returns.len() {
            return Err(Reason::Syntax("call's argument count"));
        }
        let mut site = CallSite {
            func: fi as u32,
            args: Vec::new(),
            rets: Vec::new(),
        };
        for ((a, p), off) in args.iter().zip(&g.params).zip(&ps) {
            site.args.push((self.frame_var(a)?, *off, p.size));
        }
        for ((r, p), off) in rets.iter().zip(&g.returns).zip(&rs) {
            site.rets.push((*off, self.frame_var(r)?, p.size));
        }
        self.calls.push(site);
        Ok(Op::Call {
            site: (self.calls.len() - 1) as u32,
        })
    }

    /// An indirect call through register `a`: a call site for each of the kernel's
    /// address-taken functions whose parameters and results match the call's (their count
    /// and sizes: the `.callprototype`'s signature).
    fn call_indirect(&mut self, a: Slot, rets: &[Operand], args: &[Operand]) -> R<Op> {
        let module = self.ctx.module;
        let taken = address_taken(module);
        let mut targets = Vec::new();
        let order = self.ctx.order.clone();
        for (fi, &mi) in order.iter().enumerate() {
            let Some(g) = module.functions.get(mi) else {
                continue;
            };
            if !taken.contains(&mi) || args.len() != g.params.len() || rets.len() != g.returns.len()
            {
                continue;
            }
            let (ps, rs, _) = KernelCtx::signature(g);
            let mut site = CallSite {
                func: fi as u32,
                args: Vec::new(),
                rets: Vec::new(),
            };
            for ((arg, p), off) in args.iter().zip(&g.params).zip(&ps) {
                site.args.push((self.frame_var(arg)?, *off, p.size));
            }
            for ((r, p), off) in rets.iter().zip(&g.returns).zip(&rs) {
                site.rets.push((*off, self.frame_var(r)?, p.size));
            }
            self.calls.push(site);
            targets.push((function_address(mi), (self.calls.len() - 1) as u32));
        }
        Ok(Op::CallInd { a, targets })
    }
}
