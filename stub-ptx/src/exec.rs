//! The warp interpreter: a block's warps run one after the other on the calling thread, each in
//! lockstep over its lanes until it waits at a barrier or ends; see the crate documentation for
//! the execution model.

use alloc::rc::Rc;
use alloc::vec;
use alloc::vec::Vec;

use crate::cluster::Cluster;
use crate::decode::Kernel;
use crate::device::{Device, Launch};
use crate::error::Fault;
use crate::mbarrier::{self, Kind as MbarKind};
use crate::memory::{self, Mems, Space};
use crate::ops::{
    Addr, BarKind, BarRedKind, Base, CarryKind, Func, Guard, Init, Lanes, Mem, Op, PLogic, ReduxOp,
    ShflMode, Slot, Sreg, VoteMode, Window,
};
use crate::tensor::{self, TensorOp};

/// Deepest call nesting before [`Fault::StackOverflow`].
const MAX_DEPTH: usize = 4096;
/// Most local memory bytes per warp (all frames' lanes) before [`Fault::StackOverflow`].
const MAX_LOCAL: usize = 64 << 20;
/// Warp instructions between two calls of the launch's `stop` callback.
const STOP_EVERY: u64 = 1 << 16;
/// Warp instructions a block of a cooperative launch runs before the next block's turn
/// ([`Prepared::run_cooperative`]): long enough that a block between two grid syncs mostly
/// runs in one turn, short enough that a block spinning at a grid barrier wastes little.
const SLICE: u64 = 1024;

/// A launch with its module variables resolved: run its blocks with [`Prepared::run_block`],
/// from any threads.
pub struct Prepared<'a> {
    kernel: &'a Kernel,
    launch: Launch<'a>,
    dev: &'a dyn Device,
    symbols: Vec<u64>,
    /// The grid workspace's address (`%envreg1:%envreg2`), 0 unless cooperative.
    workspace: u64,
    /// Whether blocks yield to the others every [`SLICE`] warp instructions.
    sliced: bool,
}

impl<'a> Prepared<'a> {
    /// Checks the launch's shape against the kernel and resolves its module variables.
    ///
    /// # Errors
    /// [`Fault::InvalidLaunch`] for no threads, a block over 1024 threads or a parameter buffer
    /// shorter than the kernel's; [`Fault::Unsupported`] for a variable the device lacks.
    pub fn new(
        kernel: &'a Kernel,
        launch: &Launch<'a>,
        dev: &'a dyn Device,
    ) -> Result<Self, Fault> {
        let threads =
            u64::from(launch.block[0]) * u64::from(launch.block[1]) * u64::from(launch.block[2]);
        if threads == 0 || launch.grid.contains(&0) {
            return Err(Fault::InvalidLaunch("a launch without threads"));
        }
        if threads > 1024 {
            return Err(Fault::InvalidLaunch("more than 1024 threads per block"));
        }
        // The kernel's own cluster shape (`__cluster_dims__`) is the launch's.
        let mut launch = *launch;
        if let Some(c) = kernel.cluster {
            launch.cluster = c;
            launch.explicit_cluster = true;
        }
        let blocks: u64 = launch.cluster.iter().map(|&c| u64::from(c)).product();
        if launch.cluster.contains(&0)
            || blocks > u64::from(crate::cluster::MAX_BLOCKS)
            || (0..3).any(|i| launch.grid[i] % launch.cluster[i] != 0)
        {
            return Err(Fault::InvalidLaunch(
                "a cluster shape over 16 blocks or not dividing the grid",
            ));
        }
        if blocks > 1
            && u64::from(kernel.shared_dynamic_base) + u64::from(launch.dynamic_shared)
                > crate::cluster::OFFSET_MASK
        {
            return Err(Fault::InvalidLaunch(
                "a cluster's block with 16 MiB of shared memory or more",
            ));
        }
        if (launch.params.len() as u64) < u64::from(kernel.param_size) {
            return Err(Fault::InvalidLaunch(
                "a parameter buffer shorter than the kernel's parameters",
            ));
        }
        let mut symbols = Vec::with_capacity(kernel.symbols.len());
        for s in &kernel.symbols {
            match dev.symbol(s) {
                Some(a) => symbols.push(a),
                None => {
                    return Err(Fault::Unsupported {
                        line: 0,
                        instruction: alloc::format!("module variable {s} not on the device"),
                    });
                }
            }
        }
        Ok(Prepared {
            kernel,
            launch,
            dev,
            symbols,
            workspace: 0,
            sliced: false,
        })
    }

    /// Runs the launch as a cooperative one (`cudaLaunchCooperativeKernel`,
    /// `cuLaunchKernelEx` with `CU_LAUNCH_ATTRIBUTE_COOPERATIVE`), on this thread: every block
    /// is resident at once and they take turns, [`SLICE`] warp instructions each (a block whose
    /// warps all wait at `bar.sync` or have ended gives its turn at once), so that a block
    /// spinning on device memory for the others (cooperative groups' `grid.sync()`, or a
    /// hand-written grid barrier) lets them reach it. `%envreg1:%envreg2` is the address of
    /// the launch's grid workspace (`struct grid_workspace { unsigned wsSize, barrier; }` of
    /// `cooperative_groups/details/driver_abi.h`), 8 zeroed bytes owned here and accepted as
    /// device memory for the launch's duration: `grid.sync()`'s arrival counter
    /// (`sync_grids` in `cooperative_groups/details/sync.h`) counts in it, as on a board.
    /// The caller checks that the grid fits co-resident (the board's error 720 otherwise):
    /// here any number of blocks runs, their shared memory all allocated at once.
    ///
    /// # Errors
    /// The first [`Fault`], in the order blocks ran.
    pub fn run_cooperative(&self) -> Result<(), Fault> {
        // The workspace: `wsSize` (its size in bytes), then the barrier word.
        let ws: alloc::boxed::Box<[core::sync::atomic::AtomicU32; 2]> = alloc::boxed::Box::new([
            core::sync::atomic::AtomicU32::new(8),
            core::sync::atomic::AtomicU32::new(0),
        ]);
        let base = ws.as_ptr() as u64;
        let dev = Workspace {
            inner: self.dev,
            base,
        };
        let p = Prepared {
            kernel: self.kernel,
            launch: self.launch,
            dev: &dev,
            symbols: self.symbols.clone(),
            workspace: base,
            sliced: true,
        };
        let [gx, gy, gz] = self.launch.grid;
        let total = u64::from(gx) * u64::from(gy) * u64::from(gz);
        let ctaids: Vec<[u32; 3]> = (0..total)
            .map(|i| {
                [
                    (i % u64::from(gx)) as u32,
                    (i / u64::from(gx) % u64::from(gy)) as u32,
                    (i / u64::from(gx) / u64::from(gy)) as u32,
                ]
            })
            .collect();
        let result = p.run_turns(&ctaids);
        drop(ws);
        result
    }

    /// The launch's blocks per cluster (x, y, z): the kernel's `.reqnctapercluster`, else the
    /// launch's ([`Launch::cluster`]).
    pub fn cluster_shape(&self) -> [u32; 3] {
        self.launch.cluster
    }

    /// The launch's clusters per grid (x, y, z).
    pub fn clusters(&self) -> [u32; 3] {
        let [g, c] = [self.launch.grid, self.launch.cluster];
        [g[0] / c[0], g[1] / c[1], g[2] / c[2]]
    }

    /// Whether the launch's clusters have more than one block: its blocks then run cluster by
    /// cluster ([`Prepared::run_cluster`]), not one by one.
    pub fn clustered(&self) -> bool {
        self.launch.cluster.iter().product::<u32>() > 1
    }

    /// Runs cluster `cluster` (its position among the grid's clusters, [`Prepared::clusters`])
    /// on this thread: its blocks are resident at once and take turns as a cooperative launch's
    /// do ([`Prepared::run_cooperative`]), so that `barrier.cluster` releases; each reaches the
    /// others' shared memory through shared::cluster addresses ([`crate::cluster`]). Clusters
    /// are independent: the mock runs them on several threads.
    ///
    /// # Errors
    /// The first [`Fault`], in the order blocks ran.
    pub fn run_cluster(&self, cluster: [u32; 3]) -> Result<(), Fault> {
        let p = Prepared {
            kernel: self.kernel,
            launch: self.launch,
            dev: self.dev,
            symbols: self.symbols.clone(),
            workspace: self.workspace,
            sliced: true,
        };
        let c = self.launch.cluster;
        let mut ctaids = Vec::with_capacity(c.iter().product::<u32>() as usize);
        for z in 0..c[2] {
            for y in 0..c[1] {
                for x in 0..c[0] {
                    ctaids.push([
                        cluster[0] * c[0] + x,
                        cluster[1] * c[1] + y,
                        cluster[2] * c[2] + z,
                    ]);
                }
            }
        }
        p.run_turns(&ctaids)
    }

    /// Runs blocks `ctaids` resident at once, in turns ([`SLICE`] warp instructions each),
    /// those of one cluster sharing its [`Cluster`]. A block that ended keeps its shared
    /// memory until all have (its peers' entry for it emptied, so that a late access faults).
    fn run_turns(&self, ctaids: &[[u32; 3]]) -> Result<(), Fault> {
        let c = self.launch.cluster;
        let size = c.iter().product::<u32>();
        let threads = self.launch.block.iter().product::<u32>();
        let mut clusters: alloc::collections::BTreeMap<[u32; 3], Rc<Cluster>> =
            alloc::collections::BTreeMap::new();
        let mut blocks = Vec::with_capacity(ctaids.len());
        for &ctaid in ctaids {
            let key = [ctaid[0] / c[0], ctaid[1] / c[1], ctaid[2] / c[2]];
            let cl = clusters
                .entry(key)
                .or_insert_with(|| Rc::new(Cluster::new(threads * size, size as usize)));
            blocks.push(self.start_block(ctaid, Some(cl.clone()))?);
        }
        // The blocks' shared memories, which their peers reach: each buffer stays where it is
        // (a `Vec`'s heap storage) until `blocks` is dropped.
        for b in &mut blocks {
            let entry = (b.blk.shared.as_mut_ptr() as usize, b.blk.shared.len());
            if let Some(e) = b.blk.cluster.peers.get(b.blk.rank as usize) {
                e.set(entry);
            }
        }
        let mut done = vec![false; blocks.len()];
        let mut left = blocks.len();
        while left > 0 {
            for (b, d) in blocks.iter_mut().zip(done.iter_mut()) {
                if *d {
                    continue;
                }
                if b.advance()? {
                    *d = true;
                    left -= 1;
                    if let Some(e) = b.blk.cluster.peers.get(b.blk.rank as usize) {
                        e.set((0, 0));
                    }
                }
            }
        }
        Ok(())
    }

    /// Block `ctaid`'s state before its first instruction, in `cluster` (`None`: a cluster of
    /// its own).
    fn start_block<'p>(
        &'p self,
        ctaid: [u32; 3],
        cluster: Option<Rc<Cluster>>,
    ) -> Result<BlockRun<'p, 'a>, Fault> {
        let l = &self.launch;
        let threads = l.block[0] * l.block[1] * l.block[2];
        let nwarps = threads.div_ceil(32);
        let dyn_base = self.kernel.shared_dynamic_base as usize;
        let shared_len = dyn_base.saturating_add(l.dynamic_shared as usize);
        let c = l.cluster;
        let rank = ctaid[0] % c[0] + c[0] * (ctaid[1] % c[1] + c[1] * (ctaid[2] % c[2]));
        let mut blk = Block {
            p: self,
            ctaid,
            rank,
            cluster: cluster.unwrap_or_else(|| Rc::new(Cluster::new(threads, 1))),
            shared: vec![0u8; shared_len],
            steps: 0,
            lane_steps: 0,
            next_stop: STOP_EVERY,
            red: (0, true, false),
            slice_end: u64::MAX,
            sliced: false,
        };
        let mut warps = Vec::with_capacity(nwarps as usize);
        for w in 0..nwarps {
            let n = (threads - w * 32).min(32);
            let lanes = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
            let mut warp = Warp {
                id: w,
                frames: Vec::new(),
                regs: Vec::new(),
                preds: Vec::new(),
                local: Vec::new(),
                waiting: 0,
                pending: Vec::new(),
                cache: (0, 0),
                yielded: false,
                cl_arrived: 0,
                cl_phase: [0; 32],
                cl_blocked: false,
            };
            blk.push_frame(&mut warp, 0, lanes, 0)?;
            warps.push(warp);
        }
        Ok(BlockRun {
            blk,
            warps,
            start: 0,
        })
    }

    /// Runs every block in order (x fastest); a launch in clusters, every cluster in order.
    ///
    /// # Errors
    /// The first block's [`Fault`].
    pub fn run(&self) -> Result<(), Fault> {
        if self.clustered() {
            let [cx, cy, cz] = self.clusters();
            for z in 0..cz {
                for y in 0..cy {
                    for x in 0..cx {
                        self.run_cluster([x, y, z])?;
                    }
                }
            }
            return Ok(());
        }
        let [gx, gy, gz] = self.launch.grid;
        for z in 0..gz {
            for y in 0..gy {
                for x in 0..gx {
                    self.run_block([x, y, z])?;
                }
            }
        }
        Ok(())
    }

    /// Runs block `ctaid`.
    ///
    /// # Errors
    /// The [`Fault`] that ended it; [`Fault::InvalidLaunch`] in a launch whose clusters have
    /// several blocks (they run together: [`Prepared::run_cluster`]).
    pub fn run_block(&self, ctaid: [u32; 3]) -> Result<(), Fault> {
        self.run_block_counted(ctaid).map(|_| ())
    }

    /// Runs block `ctaid` and answers its lane-instructions: per warp instruction issued, the
    /// lanes it was issued for (guarded-off lanes included, as a board's issue counts them).
    /// What the executor benchmark (benches/src/bin/ptx_exec.rs) divides by its time.
    ///
    /// # Errors
    /// The [`Fault`] that ended it.
    pub fn run_block_counted(&self, ctaid: [u32; 3]) -> Result<u64, Fault> {
        if self.clustered() {
            return Err(Fault::InvalidLaunch(
                "a block of a cluster launch runs with its cluster (run_cluster)",
            ));
        }
        let mut b = self.start_block(ctaid, None)?;
        while !b.advance()? {}
        Ok(b.blk.lane_steps)
    }
}

/// The device a cooperative launch's blocks see: the launch's device, and the grid workspace.
struct Workspace<'d> {
    inner: &'d dyn Device,
    base: u64,
}

impl Device for Workspace<'_> {
    fn global_ok(&self, addr: u64, len: u64) -> bool {
        self.global_range(addr, len).is_some()
    }
    fn global_range(&self, addr: u64, len: u64) -> Option<(u64, u64)> {
        if addr >= self.base && addr.checked_add(len)? <= self.base + 8 {
            return Some((self.base, 8));
        }
        self.inner.global_range(addr, len)
    }
    fn symbol(&self, name: &str) -> Option<u64> {
        self.inner.symbol(name)
    }
    fn vprintf(&self, format: u64, args: u64) -> i32 {
        self.inner.vprintf(format, args)
    }
    fn set_conditional(&self, handle: u64, value: u32) -> bool {
        self.inner.set_conditional(handle, value)
    }
    fn texture(&self, handle: u64, level: u32) -> Option<crate::texture::TextureView> {
        self.inner.texture(handle, level)
    }
}

/// A block being run: its state between two turns of a cooperative launch.
struct BlockRun<'p, 'a> {
    blk: Block<'p, 'a>,
    warps: Vec<Warp>,
    /// The warp that runs first in the next pass (the one after the warp whose turn ended).
    start: usize,
}

impl BlockRun<'_, '_> {
    /// Runs the block until it ends (`true`) or, in a cooperative launch, until its turn of
    /// [`SLICE`] warp instructions is over or all its warps wait at a barrier another block
    /// must release first (`false`).
    fn advance(&mut self) -> Result<bool, Fault> {
        let blk = &mut self.blk;
        if blk.p.sliced {
            blk.slice_end = blk.steps.saturating_add(SLICE);
        }
        let n = self.warps.len();
        loop {
            let mut live = false;
            let mut yielded = false;
            // Every live warp waits at the cluster's barrier or at `bar.sync`, some at the
            // first: only another block's threads can release them.
            let mut cluster_stuck = true;
            let mut cluster_wait = false;
            for k in 0..n {
                let i = (self.start + k) % n;
                let Some(warp) = self.warps.get_mut(i) else {
                    continue;
                };
                if warp.frames.is_empty() {
                    continue;
                }
                blk.run_warp(warp)?;
                if core::mem::take(&mut blk.sliced) {
                    // Its turn is over: the next pass starts after it, so that a warp spinning
                    // on one of its block's does not starve it.
                    warp.yielded = false;
                    self.start = (i + 1) % n;
                    return Ok(false);
                }
                live |= !warp.frames.is_empty();
                let blocked = core::mem::take(&mut warp.cl_blocked);
                cluster_wait |= blocked;
                let y = core::mem::take(&mut warp.yielded);
                cluster_stuck &= warp.frames.is_empty() || blocked || !y;
                yielded |= y;
            }
            if !live {
                return Ok(true);
            }
            if cluster_wait && cluster_stuck {
                return Ok(false);
            }
            // Every warp still running waits at a barrier (none only yielded to the others at
            // an mbarrier wait): release it.
            if !yielded {
                blk.release(&mut self.warps)?;
            }
        }
    }
}

/// Resolves the launch's variables and runs block `ctaid` of it.
///
/// # Errors
/// As [`Prepared::new`] and [`Prepared::run_block`].
pub fn run_block(
    kernel: &Kernel,
    launch: &Launch<'_>,
    ctaid: [u32; 3],
    dev: &dyn Device,
) -> Result<(), Fault> {
    Prepared::new(kernel, launch, dev)?.run_block(ctaid)
}

/// Runs every block of the launch in order on this thread.
///
/// # Errors
/// As [`Prepared::new`] and [`Prepared::run_block`].
pub fn run(kernel: &Kernel, launch: &Launch<'_>, dev: &dyn Device) -> Result<(), Fault> {
    Prepared::new(kernel, launch, dev)?.run()
}

struct Frame {
    func: u32,
    reg_base: usize,
    pred_base: usize,
    local_base: u32,
    frame_size: u32,
    /// Lanes in this frame (not exited, not returned).
    live: u32,
    /// Lanes that returned, waiting for the others.
    returned: u32,
    /// The lanes' common pc (not diverged).
    pc: u32,
    diverged: bool,
    pcs: [u32; 32],
    /// The call site in the caller (for the results).
    site: u32,
}

struct Warp {
    id: u32,
    frames: Vec<Frame>,
    regs: Vec<u64>,
    preds: Vec<u32>,
    local: Vec<u8>,
    /// Lanes of the top frame waiting at a barrier.
    waiting: u32,
    /// The `bar.red` results owed when the barrier releases: (kind, register, predicate, lanes).
    pending: Vec<(BarRedKind, Slot, u32, u32)>,
    /// The last global allocation an access hit: [lo, hi).
    cache: (u64, u64),
    /// A wait on an mbarrier answered false: the warp lets the block's other warps run
    /// before it tries again.
    yielded: bool,
    /// Lanes that arrived at the cluster's barrier and have not waited yet.
    cl_arrived: u32,
    /// The phase each lane of `cl_arrived` arrived in.
    cl_phase: [u32; 32],
    /// The warp's `barrier.cluster.wait` could not return yet (it also `yielded`).
    cl_blocked: bool,
}

struct Block<'p, 'a> {
    p: &'p Prepared<'a>,
    ctaid: [u32; 3],
    /// The block's rank in its cluster (`%cluster_ctarank`).
    rank: u32,
    /// What the blocks of its cluster share: their shared memories, the cluster's barrier.
    cluster: Rc<Cluster>,
    shared: Vec<u8>,
    steps: u64,
    /// Lane-instructions: the sum over `steps` of the lanes each was issued for.
    lane_steps: u64,
    next_stop: u64,
    /// The `bar.red` in flight: threads whose predicate holds, all of them, any of them.
    red: (u32, bool, bool),
    /// In a cooperative launch, the step count at which the block's turn ends.
    slice_end: u64,
    /// The turn ended: `run_warp` returned for it.
    sliced: bool,
}

fn lanes(r: &[u64], s: Slot) -> Result<&Lanes, Fault> {
    let i = s as usize * 32;
    r.get(i..i + 32)
        .and_then(|x| x.try_into().ok())
        .ok_or(Fault::Internal("register slot"))
}
fn lanes_mut(r: &mut [u64], s: Slot) -> Result<&mut Lanes, Fault> {
    let i = s as usize * 32;
    r.get_mut(i..i + 32)
        .and_then(|x| x.try_into().ok())
        .ok_or(Fault::Internal("register slot"))
}

fn bits(m: u32) -> impl Iterator<Item = usize> {
    let mut m = m;
    core::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            // `& 31`: below 32 by construction; said so that indexing a lane array with it
            // needs no bounds check.
            let i = (m.trailing_zeros() & 31) as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

impl Block<'_, '_> {
    fn func(&self, i: u32) -> Result<&Func, Fault> {
        self.p
            .kernel
            .funcs
            .get(i as usize)
            .ok_or(Fault::Internal("function index"))
    }

    fn sreg(&self, warp: &Warp, s: Sreg, lane: u32) -> u64 {
        let l = &self.p.launch;
        let [bx, by, _] = l.block;
        let t = warp.id * 32 + lane;
        let lm = 1u64 << lane;
        match s {
            Sreg::Tid(0) => u64::from(t % bx),
            Sreg::Tid(1) => u64::from((t / bx) % by),
            Sreg::Tid(_) => u64::from(t / (bx * by)),
            Sreg::Ntid(c) => u64::from(l.block.get(c as usize).copied().unwrap_or(1)),
            Sreg::Ctaid(c) => u64::from(self.ctaid.get(c as usize).copied().unwrap_or(0)),
            Sreg::Nctaid(c) => u64::from(l.grid.get(c as usize).copied().unwrap_or(1)),
            Sreg::Laneid => u64::from(lane),
            Sreg::Warpid => u64::from(warp.id),
            Sreg::Nwarpid => 64,
            Sreg::Smid => {
                let lin = u64::from(self.ctaid[0])
                    + u64::from(l.grid[0])
                        * (u64::from(self.ctaid[1])
                            + u64::from(l.grid[1]) * u64::from(self.ctaid[2]));
                lin % u64::from(l.sm_count.max(1))
            }
            Sreg::Nsmid => u64::from(l.sm_count.max(1)),
            Sreg::Gridid => l.grid_id,
            Sreg::Envreg(1) => self.p.workspace >> 32,
            Sreg::Envreg(2) => self.p.workspace & 0xffff_ffff,
            Sreg::Envreg(_) => 0,
            Sreg::LanemaskEq => lm,
            Sreg::LanemaskLt => lm - 1,
            Sreg::LanemaskLe => (lm << 1).wrapping_sub(1) & 0xffff_ffff,
            Sreg::LanemaskGt => !((lm << 1).wrapping_sub(1)) & 0xffff_ffff,
            Sreg::LanemaskGe => !(lm - 1) & 0xffff_ffff,
            Sreg::ClusterId(c) => self.cluster_dim(c, |g, c| g / c),
            Sreg::NclusterId(c) => {
                let (g, cd) = (l.grid, l.cluster);
                let c = usize::from(c.min(2));
                u64::from(g[c] / cd[c].max(1))
            }
            Sreg::ClusterCtaid(c) => self.cluster_dim(c, |g, c| g % c),
            Sreg::ClusterNctaid(c) => u64::from(l.cluster[usize::from(c.min(2))]),
            Sreg::ClusterCtarank => u64::from(self.rank),
            Sreg::ClusterNctarank => u64::from(l.cluster.iter().product::<u32>()),
            Sreg::IsExplicitCluster => u64::from(l.explicit_cluster),
            Sreg::DynamicSmem => u64::from(l.dynamic_shared),
            Sreg::TotalSmem => self.shared.len() as u64,
            Sreg::Clock => self.steps & 0xffff_ffff,
            Sreg::Clock64 => self.steps,
            Sreg::GlobalTimer => self.timer(),
            Sreg::GlobalTimerLo => self.timer() & 0xffff_ffff,
            Sreg::GlobalTimerHi => self.timer() >> 32,
        }
    }

    /// `f` of the block's `%ctaid` and the cluster's extent in dimension `c`.
    fn cluster_dim(&self, c: u8, f: impl Fn(u32, u32) -> u32) -> u64 {
        let c = usize::from(c.min(2));
        u64::from(f(self.ctaid[c], self.p.launch.cluster[c].max(1)))
    }

    /// Lanes `em` of `warp` exit: the cluster's barrier stops counting them.
    fn cluster_exit(&self, warp: &mut Warp, em: u32) {
        let phase = self.cluster.phase();
        let arrived = bits(em & warp.cl_arrived)
            .filter(|&l| warp.cl_phase[l] == phase)
            .count() as u32;
        self.cluster.exit(arrived, em.count_ones() - arrived);
        warp.cl_arrived &= !em;
    }

    /// Releases the barrier every running warp waits at, delivering `bar.red`'s results.
    fn release(&mut self, warps: &mut [Warp]) -> Result<(), Fault> {
        let (count, all, any) = self.red;
        for warp in warps.iter_mut() {
            warp.waiting = 0;
            let Some(fr) = warp.frames.last() else {
                continue;
            };
            let (rb, pb) = (fr.reg_base, fr.pred_base);
            for (kind, d, dp, lanes) in warp.pending.drain(..) {
                match kind {
                    BarRedKind::Popc => {
                        for l in bits(lanes) {
                            let x = warp
                                .regs
                                .get_mut(rb + d as usize * 32 + l)
                                .ok_or(Fault::Internal("register slot"))?;
                            *x = u64::from(count);
                        }
                    }
                    BarRedKind::And | BarRedKind::Or => {
                        let v = if kind == BarRedKind::And { all } else { any };
                        let p = warp
                            .preds
                            .get_mut(pb + dp as usize)
                            .ok_or(Fault::Internal("predicate"))?;
                        *p = if v { *p | lanes } else { *p & !lanes };
                    }
                }
            }
        }
        self.red = (0, true, false);
        Ok(())
    }

    fn timer(&self) -> u64 {
        match self.p.launch.globaltimer {
            Some(f) => f(),
            None => self.steps,
        }
    }

    /// Pushes a frame of function `fi` for `lanes` (arguments not yet copied).
    fn push_frame(&mut self, warp: &mut Warp, fi: u32, live: u32, site: u32) -> Result<(), Fault> {
        if warp.frames.len() >= MAX_DEPTH {
            return Err(Fault::StackOverflow { line: 0 });
        }
        let f = self.func(fi)?;
        let reg_base = warp.regs.len();
        let pred_base = warp.preds.len();
        let local_base = warp.local.len().div_ceil(16) * 16;
        let local_end = local_base + f.frame as usize * 32;
        if local_end > MAX_LOCAL {
            return Err(Fault::StackOverflow { line: 0 });
        }
        warp.regs.resize(reg_base + f.slots as usize * 32, 0);
        warp.preds.resize(pred_base + f.preds as usize, 0);
        warp.local.resize(local_end, 0);
        let init = f.init.clone();
        let frame = f.frame;
        for (s, v) in init {
            for lane in 0..32u32 {
                let val = match v {
                    Init::Const(c) => c,
                    Init::Sreg(sr) => self.sreg(warp, sr, lane),
                };
                if let Some(x) = warp
                    .regs
                    .get_mut(reg_base + s as usize * 32 + lane as usize)
                {
                    *x = val;
                }
            }
        }
        warp.frames.push(Frame {
            func: fi,
            reg_base,
            pred_base,
            local_base: local_base as u32,
            frame_size: frame,
            live,
            returned: 0,
            pc: 0,
            diverged: false,
            pcs: [0; 32],
            site,
        });
        Ok(())
    }

    /// Pops the top frame: its returned lanes get their results in the caller.
    fn pop_frame(&mut self, warp: &mut Warp) -> Result<(), Fault> {
        let Some(top) = warp.frames.pop() else {
            return Ok(());
        };
        if let Some(caller) = warp.frames.last() {
            let cf = self.func(caller.func)?;
            let site = cf
                .calls
                .get(top.site as usize)
                .ok_or(Fault::Internal("call site"))?;
            for &(from, to, size) in &site.rets {
                for l in bits(top.returned) {
                    let src = top.local_base as usize + l * top.frame_size as usize + from as usize;
                    let dst =
                        caller.local_base as usize + l * caller.frame_size as usize + to as usize;
                    if src + size as usize > warp.local.len()
                        || dst + size as usize > warp.local.len()
                    {
                        return Err(Fault::Internal("frame bounds"));
                    }
                    warp.local.copy_within(src..src + size as usize, dst);
                }
            }
        }
        warp.regs.truncate(top.reg_base);
        warp.preds.truncate(top.pred_base);
        warp.local.truncate(top.local_base as usize);
        Ok(())
    }

    /// Runs `warp` until all its lanes wait at a barrier or have exited.
    fn run_warp(&mut self, warp: &mut Warp) -> Result<(), Fault> {
        loop {
            let Some(fr) = warp.frames.last() else {
                return Ok(());
            };
            let runnable = fr.live & !warp.waiting;
            if fr.live == 0 {
                self.pop_frame(warp)?;
                continue;
            }
            if runnable == 0 {
                return Ok(());
            }
            let (pc, mask) = if fr.diverged {
                let mut pc = u32::MAX;
                for l in bits(runnable) {
                    pc = pc.min(fr.pcs[l]);
                }
                let mut m = 0u32;
                for l in bits(runnable) {
                    if fr.pcs[l] == pc {
                        m |= 1 << l;
                    }
                }
                (pc, m)
            } else {
                (fr.pc, runnable)
            };
            self.steps += 1;
            self.lane_steps += u64::from(mask.count_ones());
            if self.steps >= self.next_stop {
                self.next_stop += STOP_EVERY;
                if self.p.launch.stop.is_some_and(|f| f()) {
                    return Err(Fault::Timeout);
                }
            }
            if self.p.launch.budget.is_some_and(|b| self.steps > b) {
                return Err(Fault::Timeout);
            }
            self.step(warp, pc, mask)?;
            if warp.yielded {
                return Ok(());
            }
            if self.steps >= self.slice_end {
                self.sliced = true;
                return Ok(());
            }
        }
    }

    /// Sets the lanes of `m` in the top frame to `pc`.
    fn goto(warp: &mut Warp, m: u32, pc: u32) {
        let Some(fr) = warp.frames.last_mut() else {
            return;
        };
        if m == 0 {
            return;
        }
        if !fr.diverged {
            if m == fr.live {
                fr.pc = pc;
                return;
            }
            let old = fr.pc;
            for l in bits(fr.live) {
                fr.pcs[l] = old;
            }
            fr.diverged = true;
        }
        for l in bits(m) {
            fr.pcs[l] = pc;
        }
        // Reconverged: every live lane at one pc.
        let mut it = bits(fr.live);
        if let Some(first) = it.next() {
            let p0 = fr.pcs[first];
            if it.all(|l| fr.pcs[l] == p0) {
                fr.diverged = false;
                fr.pc = p0;
            }
        }
    }

    /// Calls site `site` of `func` (the running function) for lanes `em`: pushes the callee's
    /// frame and copies the arguments from the caller's frame (`local_base`, `frame_size`).
    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        warp: &mut Warp,
        func: &Func,
        site: u32,
        em: u32,
        line: u32,
        local_base: u64,
        frame_size: u64,
    ) -> Result<(), Fault> {
        let s = func
            .calls
            .get(site as usize)
            .ok_or(Fault::Internal("call site"))?;
        let (caller_base, caller_size) = (local_base as usize, frame_size as usize);
        self.push_frame(warp, s.func, em, site)
            .map_err(|e| match e {
                Fault::StackOverflow { .. } => Fault::StackOverflow { line },
                e => e,
            })?;
        let callee = warp.frames.last().ok_or(Fault::Internal("no frame"))?;
        let (cb, cs) = (callee.local_base as usize, callee.frame_size as usize);
        for &(from, to, size) in &s.args {
            for l in bits(em) {
                let src = caller_base + l * caller_size + from as usize;
                let dst = cb + l * cs + to as usize;
                if src + size as usize > warp.local.len() || dst + size as usize > warp.local.len()
                {
                    return Err(Fault::Internal("frame bounds"));
                }
                warp.local.copy_within(src..src + size as usize, dst);
            }
        }
        Ok(())
    }

    fn step(&mut self, warp: &mut Warp, pc: u32, mask: u32) -> Result<(), Fault> {
        // What a failed `assert` reports of its thread, read before the state is borrowed.
        let (warp_id, ctaid, [bx, by, _]) = (warp.id, self.ctaid, self.p.launch.block);
        let fr = warp.frames.last().ok_or(Fault::Internal("no frame"))?;
        let fi = fr.func;
        let kernel = self.p.kernel;
        let func = kernel
            .funcs
            .get(fi as usize)
            .ok_or(Fault::Internal("function index"))?;
        let inst = func
            .code
            .get(pc as usize)
            .ok_or(Fault::Internal("pc out of the code"))?;
        let (reg_base, pred_base) = (fr.reg_base, fr.pred_base);
        let (local_base, frame_size) = (u64::from(fr.local_base), u64::from(fr.frame_size));
        let reg_end = reg_base + func.slots as usize * 32;
        let pred_end = pred_base + func.preds as usize;
        let em = match inst.guard {
            Guard::Always => mask,
            Guard::If(p) => mask & warp.preds.get(pred_base + p as usize).copied().unwrap_or(0),
            Guard::IfNot(p) => mask & !warp.preds.get(pred_base + p as usize).copied().unwrap_or(0),
        };
        let line = inst.line;
        let next = pc + 1;
        match &inst.op {
            Op::Bra { t } => {
                if em == mask {
                    Self::goto(warp, mask, *t);
                } else {
                    Self::goto(warp, em, *t);
                    Self::goto(warp, mask & !em, next);
                }
                return Ok(());
            }
            Op::Exit | Op::Ret if em != 0 => {
                let kernel_ret = matches!(inst.op, Op::Exit) || warp.frames.len() == 1;
                Self::goto(warp, mask & !em, next);
                if kernel_ret {
                    // Their threads end: the cluster's barrier stops waiting for them.
                    self.cluster_exit(warp, em);
                    for f in &mut warp.frames {
                        f.live &= !em;
                        f.returned &= !em;
                    }
                    while warp
                        .frames
                        .last()
                        .is_some_and(|f| f.live == 0 && f.returned == 0)
                    {
                        warp.frames.pop();
                    }
                    if warp.frames.is_empty() {
                        warp.regs.clear();
                        warp.local.clear();
                        warp.preds.clear();
                    }
                } else if let Some(f) = warp.frames.last_mut() {
                    f.live &= !em;
                    f.returned |= em;
                }
                warp.waiting &= !em;
                return Ok(());
            }
            Op::CallInd { a, targets } if em != 0 => {
                // The lanes calling the lowest lane's target call now; the others stay at this
                // instruction and call theirs next (the smallest pc runs first), as divergent
                // lanes do.
                let av = warp
                    .regs
                    .get(reg_base + *a as usize * 32..reg_base + *a as usize * 32 + 32)
                    .ok_or(Fault::Internal("register slot"))?;
                let target = av.get(em.trailing_zeros() as usize).copied().unwrap_or(0);
                let mut group = 0u32;
                for l in bits(em) {
                    if av.get(l) == Some(&target) {
                        group |= 1 << l;
                    }
                }
                let Some(&(_, site)) = targets.iter().find(|t| t.0 == target) else {
                    return Err(Fault::Unsupported {
                        line,
                        instruction: alloc::format!(
                            "an indirect call to {target:#x}, no function of the kernel"
                        ),
                    });
                };
                Self::goto(warp, group | (mask & !em), next);
                return self.call(warp, func, site, group, line, local_base, frame_size);
            }
            Op::Call { site } if em != 0 => {
                Self::goto(warp, mask, next);
                return self.call(warp, func, *site, em, line, local_base, frame_size);
            }
            Op::BarRed { kind, d, dp, a } if em != 0 => {
                let pv = warp
                    .preds
                    .get(pred_base + a.0 as usize)
                    .copied()
                    .unwrap_or(0);
                let v = (pv ^ if a.1 { u32::MAX } else { 0 }) & em;
                self.red.0 += v.count_ones();
                self.red.1 &= v == em;
                self.red.2 |= v != 0;
                warp.pending.push((*kind, *d, *dp, em));
                warp.waiting |= em;
                Self::goto(warp, mask, next);
                return Ok(());
            }
            Op::Bar {
                kind: BarKind::ClusterArrive,
            } if em != 0 => {
                let phase = self.cluster.phase();
                // A second arrival in one phase is undefined in PTX: counted once here.
                let again = bits(em & warp.cl_arrived)
                    .filter(|&l| warp.cl_phase[l] == phase)
                    .fold(0u32, |m, l| m | 1 << l);
                let new = em & !again;
                for l in bits(new) {
                    warp.cl_phase[l] = phase;
                }
                warp.cl_arrived |= new;
                self.cluster.arrive(new.count_ones());
                Self::goto(warp, mask, next);
                return Ok(());
            }
            Op::Bar {
                kind: BarKind::ClusterWait,
            } if em != 0 => {
                let phase = self.cluster.phase();
                let waiting = bits(em & warp.cl_arrived).any(|l| warp.cl_phase[l] == phase);
                if waiting {
                    // Its phase has not completed: the lanes stay at this instruction and the
                    // warp gives way to the cluster's others.
                    warp.yielded = true;
                    warp.cl_blocked = true;
                    return Ok(());
                }
                warp.cl_arrived &= !em;
                Self::goto(warp, mask, next);
                return Ok(());
            }
            Op::Bar {
                kind: BarKind::Sync,
            } if em != 0 => {
                warp.waiting |= em;
                Self::goto(warp, mask, next);
                return Ok(());
            }
            _ => {}
        }
        Self::goto(warp, mask, next);
        if em == 0 {
            return Ok(());
        }
        let Warp {
            regs,
            preds,
            local,
            cache,
            yielded,
            ..
        } = warp;
        let r = regs
            .get_mut(reg_base..reg_end)
            .ok_or(Fault::Internal("register file"))?;
        let pr = preds
            .get_mut(pred_base..pred_end)
            .ok_or(Fault::Internal("predicate file"))?;
        let pget = |pr: &[u32], p: u32| {
            pr.get(p as usize)
                .copied()
                .ok_or(Fault::Internal("predicate"))
        };
        let symbols = &self.p.symbols;
        let mut mems = Mems {
            shared: &mut self.shared,
            peers: &self.cluster.peers,
            rank: self.rank,
            local,
            params: self.p.launch.params,
            dev: self.p.dev,
            cache,
            line,
        };
        // The address of each lane of `em`: its space and offset, and the address to show.
        let address = |r: &[u64],
                       a: &Addr,
                       mem: Mem,
                       out: &mut [(Space, u64, u64); 32]|
         -> Result<(), Fault> {
            let base = match a.base {
                Base::Reg(s) => Some(lanes(r, s)?),
                _ => None,
            };
            for l in bits(em) {
                let v = match a.base {
                    Base::Reg(_) => base.map_or(0, |b| b[l]),
                    Base::Abs => 0,
                    Base::Symbol(i) => symbols
                        .get(i as usize)
                        .copied()
                        .ok_or(Fault::Internal("symbol"))?,
                    Base::Frame => local_base + l as u64 * frame_size,
                }
                .wrapping_add(a.off as u64);
                let (sp, off) = match mem {
                    Mem::Global => (Space::Global, v),
                    Mem::Shared => (Space::Shared, v),
                    Mem::Local => (Space::Local, v),
                    Mem::KParam => (Space::Param, v),
                    Mem::Generic => memory::classify(v),
                };
                out[l] = (sp, off, v);
            }
            Ok(())
        };
        match &inst.op {
            Op::Alu { f, d, a, b, c, aux } => {
                in_place(r, *d, [*a, *b, *c], |dv, av, bv, cv| {
                    f(dv, av, bv, cv, em, *aux)
                })?;
            }
            Op::Alu4 {
                f,
                r: [d, a, b, c, e],
            } => {
                let av = *lanes(r, *a)?;
                let bv = *lanes(r, *b)?;
                let cv = *lanes(r, *c)?;
                let ev = *lanes(r, *e)?;
                f(lanes_mut(r, *d)?, &av, &bv, &cv, &ev, em);
            }
            Op::Setp {
                f,
                a,
                b,
                d,
                nd,
                comb,
            } => {
                let t = f(lanes(r, *a)?, lanes(r, *b)?);
                let (t, nt) = match comb {
                    None => (t, !t),
                    Some((op, q, neg)) => {
                        let q = pget(pr, *q)? ^ if *neg { u32::MAX } else { 0 };
                        let g = |x: u32| match op {
                            PLogic::And => x & q,
                            PLogic::Or => x | q,
                            PLogic::Xor => x ^ q,
                        };
                        (g(t), g(!t))
                    }
                };
                set_pred(pr, *d, t, em)?;
                if let Some(nd) = nd {
                    set_pred(pr, *nd, nt, em)?;
                }
            }
            Op::Set { f, d, a, b, one } => {
                let t = f(lanes(r, *a)?, lanes(r, *b)?);
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = if (t >> l) & 1 != 0 { *one } else { 0 };
                }
            }
            Op::PLog { op, d, a, b } => {
                let av = pget(pr, a.0)? ^ if a.1 { u32::MAX } else { 0 };
                let v = match b {
                    None => av,
                    Some((b, nb)) => {
                        let bv = pget(pr, *b)? ^ if *nb { u32::MAX } else { 0 };
                        match op {
                            PLogic::And => av & bv,
                            PLogic::Or => av | bv,
                            PLogic::Xor => av ^ bv,
                        }
                    }
                };
                set_pred(pr, *d, v, em)?;
            }
            Op::PConst { d, v } => set_pred(pr, *d, if *v { u32::MAX } else { 0 }, em)?,
            Op::Selp { d, a, b, p } => {
                let pv = pget(pr, *p)?;
                let av = *lanes(r, *a)?;
                let bv = *lanes(r, *b)?;
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = if (pv >> l) & 1 != 0 { av[l] } else { bv[l] };
                }
            }
            Op::PredToReg { d, p } => {
                let pv = pget(pr, *p)?;
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = u64::from((pv >> l) & 1);
                }
            }
            Op::Pack { d, s, n, bits: b } => {
                let mut out = [0u64; 32];
                let m = if *b >= 64 { u64::MAX } else { (1u64 << b) - 1 };
                for k in (0..*n as usize).rev() {
                    let sv = lanes(r, s.get(k).copied().unwrap_or(0))?;
                    for l in 0..32 {
                        out[l] = (out[l].checked_shl(u32::from(*b)).unwrap_or(0)) | (sv[l] & m);
                    }
                }
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = out[l];
                }
            }
            Op::Unpack { d, n, bits: b, a } => {
                let av = *lanes(r, *a)?;
                let m = if *b >= 64 { u64::MAX } else { (1u64 << b) - 1 };
                for k in 0..*n as usize {
                    let dv = lanes_mut(r, d.get(k).copied().unwrap_or(0))?;
                    for l in bits(em) {
                        dv[l] = av[l].checked_shr(u32::from(*b) * k as u32).unwrap_or(0) & m;
                    }
                }
            }
            Op::Ld {
                mem,
                width,
                n,
                sext,
                dmask,
                d,
                addr,
            } => {
                let row = if *n == 1 {
                    fast_ld1(&mut mems, r, addr, *mem, *width, em)
                } else {
                    None
                };
                if let Some(row) = row {
                    let dv = lanes_mut(r, d[0])?;
                    if *sext && *width < 8 {
                        let sh = 64 - 8 * u32::from(*width);
                        for l in bits(em) {
                            dv[l] = ((((row[l] << sh) as i64) >> sh) as u64) & dmask;
                        }
                    } else {
                        for l in bits(em) {
                            dv[l] = row[l] & dmask;
                        }
                    }
                    return Ok(());
                }
                if let Some(vals) = fast_ld(&mut mems, r, addr, *mem, *width, *n, em) {
                    for (k, row) in vals.iter().enumerate().take(*n as usize) {
                        let dv = lanes_mut(r, d.get(k).copied().unwrap_or(0))?;
                        for l in bits(em) {
                            let mut v = row[l];
                            if *sext && *width < 8 {
                                let sh = 64 - 8 * u32::from(*width);
                                v = (((v << sh) as i64) >> sh) as u64;
                            }
                            dv[l] = v & dmask;
                        }
                    }
                    return Ok(());
                }
                let mut at = [(Space::Global, 0u64, 0u64); 32];
                address(r, addr, *mem, &mut at)?;
                let w = u64::from(*width);
                let mut vals = [[0u64; 32]; 4];
                for l in bits(em) {
                    let (sp, off, shown) = at[l];
                    mems.check(sp, off, w * u64::from(*n), w * u64::from(*n), shown)?;
                    for k in 0..*n as usize {
                        let mut v = mems.load(sp, off + k as u64 * w, *width, shown)?;
                        if *sext && w < 8 {
                            let sh = 64 - 8 * w as u32;
                            v = (((v << sh) as i64) >> sh) as u64;
                        }
                        if let Some(row) = vals.get_mut(k) {
                            row[l] = v & dmask;
                        }
                    }
                }
                for (k, row) in vals.iter().enumerate().take(*n as usize) {
                    let dv = lanes_mut(r, d.get(k).copied().unwrap_or(0))?;
                    for l in bits(em) {
                        dv[l] = row[l];
                    }
                }
            }
            Op::St {
                mem,
                width,
                n,
                s,
                addr,
            } => {
                if fast_st(&mut mems, r, addr, *mem, *width, *n, s, em) {
                    return Ok(());
                }
                let mut at = [(Space::Global, 0u64, 0u64); 32];
                address(r, addr, *mem, &mut at)?;
                let w = u64::from(*width);
                for l in bits(em) {
                    let (sp, off, shown) = at[l];
                    mems.check(sp, off, w * u64::from(*n), w * u64::from(*n), shown)?;
                    for k in 0..*n as usize {
                        let v = lanes(r, s.get(k).copied().unwrap_or(0))?[l];
                        mems.store(sp, off + k as u64 * w, *width, v, shown)?;
                    }
                }
            }
            Op::Atom {
                mem,
                op,
                width,
                d,
                addr,
                b,
                c,
            } => {
                let mut at = [(Space::Global, 0u64, 0u64); 32];
                address(r, addr, *mem, &mut at)?;
                let bv = *lanes(r, *b)?;
                let cv = *lanes(r, *c)?;
                let mut out = [0u64; 32];
                for l in bits(em) {
                    let (sp, off, shown) = at[l];
                    if matches!(sp, Space::Local | Space::Param) {
                        return Err(Fault::IllegalAddress {
                            addr: shown,
                            len: u32::from(*width),
                            line,
                        });
                    }
                    out[l] = mems.atomic(sp, off, *width, (*op, bv[l], cv[l]), shown)?;
                }
                if let Some(d) = d {
                    let dv = lanes_mut(r, *d)?;
                    for l in bits(em) {
                        dv[l] = out[l];
                    }
                }
            }
            Op::AddrOf {
                d,
                addr,
                window,
                generic,
            } => {
                let mut out = [0u64; 32];
                for l in bits(em) {
                    let v = match addr.base {
                        Base::Symbol(i) => symbols
                            .get(i as usize)
                            .copied()
                            .ok_or(Fault::Internal("symbol"))?,
                        Base::Frame => local_base + l as u64 * frame_size,
                        _ => 0,
                    }
                    .wrapping_add(addr.off as u64);
                    out[l] = if *generic {
                        v.wrapping_add(window_base(*window))
                    } else {
                        v
                    };
                }
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = out[l];
                }
            }
            Op::Cvta {
                d,
                a,
                window,
                to,
                mask,
            } => {
                let av = *lanes(r, *a)?;
                let base = window_base(*window);
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    let v = if *to {
                        av[l].wrapping_sub(base)
                    } else {
                        av[l].wrapping_add(base)
                    };
                    dv[l] = v & mask;
                }
            }
            Op::Mapa {
                d,
                a,
                b,
                generic,
                mask,
            } => {
                let (av, bv) = (*lanes(r, *a)?, *lanes(r, *b)?);
                let mut out = [0u64; 32];
                for l in bits(em) {
                    let off = if *generic {
                        match memory::classify(av[l]) {
                            (Space::Shared, off) => off,
                            _ => {
                                return Err(Fault::IllegalAddress {
                                    addr: av[l],
                                    len: 0,
                                    line,
                                });
                            }
                        }
                    } else {
                        av[l]
                    };
                    let (_, off) = crate::cluster::split(off);
                    // The block's own rank: its shared::cta address, which is a shared::cluster
                    // address too (so that `isspacep.shared::cta` of it holds, as on a board).
                    let c = if bv[l] & 0xffff_ffff == u64::from(self.rank) {
                        off
                    } else {
                        crate::cluster::address(bv[l] as u32, off)
                    };
                    out[l] = if *generic {
                        c + memory::SHARED_WINDOW
                    } else {
                        c & mask
                    };
                }
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = out[l];
                }
            }
            Op::GetCtaRank { d, a, generic } => {
                let av = *lanes(r, *a)?;
                let mut out = [0u64; 32];
                for l in bits(em) {
                    let off = match (*generic, memory::classify(av[l])) {
                        (false, _) => av[l],
                        (true, (Space::Shared, off)) => off,
                        (true, _) => {
                            return Err(Fault::IllegalAddress {
                                addr: av[l],
                                len: 0,
                                line,
                            });
                        }
                    };
                    out[l] = crate::cluster::split(off).0.unwrap_or(u64::from(self.rank));
                }
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = out[l];
                }
            }
            Op::Sreg { d, which } => {
                let v = match which {
                    Sreg::Clock => self.steps & 0xffff_ffff,
                    Sreg::Clock64 => self.steps,
                    Sreg::GlobalTimerLo => self.timer() & 0xffff_ffff,
                    Sreg::GlobalTimerHi => self.timer() >> 32,
                    _ => self.timer(),
                };
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = v;
                }
            }
            Op::Trap => return Err(Fault::Trap { line }),
            Op::Mov2 { d, s } => {
                let (lo, hi) = (*lanes(r, s[0])?, *lanes(r, s[1])?);
                for (slot, v) in [(d[0], lo), (d[1], hi)] {
                    let dv = lanes_mut(r, slot)?;
                    for l in bits(em) {
                        dv[l] = v[l];
                    }
                }
            }
            Op::Mbar(m) => {
                let mut at = [(Space::Global, 0u64, 0u64); 32];
                address(r, &m.addr, m.mem, &mut at)?;
                let bv = *lanes(r, m.b)?;
                let mut out = [0u64; 32];
                let mut pv = 0u32;
                // Lane by lane, in lane order: each lane's operation sees the ones before.
                for l in bits(em) {
                    let (sp, off, shown) = at[l];
                    if sp != Space::Shared {
                        return Err(Fault::IllegalAddress {
                            addr: shown,
                            len: 8,
                            line,
                        });
                    }
                    mems.check(sp, off, 8, 8, shown)?;
                    let s = mems.load(sp, off, 8, shown)?;
                    let b = bv[l];
                    let new = match m.kind {
                        MbarKind::Init => mbarrier::init(b),
                        MbarKind::Arrive { expect_tx, drop } => {
                            let (s, count) = if expect_tx {
                                (mbarrier::expect_tx(s, b), 1)
                            } else {
                                (s, b)
                            };
                            let (n, token) = mbarrier::arrive(s, count, drop);
                            out[l] = token;
                            n
                        }
                        MbarKind::ExpectTx => mbarrier::expect_tx(s, b),
                        MbarKind::CompleteTx => mbarrier::complete_tx(s, b),
                        MbarKind::Wait { parity } => {
                            if mbarrier::done(s, b, parity) {
                                pv |= 1 << l;
                            }
                            s
                        }
                        MbarKind::Inval => 0,
                        MbarKind::CpAsyncArrive { noinc } => {
                            let s = if noinc { s } else { mbarrier::increment(s) };
                            mbarrier::arrive(s, 1, false).0
                        }
                    };
                    mems.store(sp, off, 8, new, shown)?;
                }
                if let Some(d) = m.d {
                    let dv = lanes_mut(r, d)?;
                    for l in bits(em) {
                        dv[l] = out[l];
                    }
                }
                if let Some(p) = m.p {
                    set_pred(pr, p, pv, em)?;
                    // Not complete yet: let the warps that will complete it run.
                    *yielded |= pv & em != em;
                }
            }
            Op::Bulk(c) => {
                let mut d_at = [(Space::Global, 0u64, 0u64); 32];
                let mut s_at = [(Space::Global, 0u64, 0u64); 32];
                let mut m_at = [(Space::Global, 0u64, 0u64); 32];
                address(r, &c.dst.1, c.dst.0, &mut d_at)?;
                address(r, &c.src.1, c.src.0, &mut s_at)?;
                if let Some((mm, ma)) = &c.mbar {
                    address(r, ma, *mm, &mut m_at)?;
                }
                let sizes = *lanes(r, c.size)?;
                for l in bits(em) {
                    let n = sizes[l] & 0xffff_ffff;
                    let ((ds, doff, dshown), (ss, soff, sshown)) = (d_at[l], s_at[l]);
                    mems.check(ds, doff, n, 16, dshown)?;
                    mems.check(ss, soff, n, 16, sshown)?;
                    let mut i = 0;
                    while i < n {
                        let w: u8 = if n - i >= 8 { 8 } else { 1 };
                        let v = mems.load(ss, soff + i, w, sshown)?;
                        mems.store(ds, doff + i, w, v, dshown)?;
                        i += u64::from(w);
                    }
                    if c.mbar.is_some() {
                        let (ms, moff, mshown) = m_at[l];
                        if ms != Space::Shared {
                            return Err(Fault::IllegalAddress {
                                addr: mshown,
                                len: 8,
                                line,
                            });
                        }
                        mems.check(ms, moff, 8, 8, mshown)?;
                        let s = mems.load(ms, moff, 8, mshown)?;
                        mems.store(ms, moff, 8, mbarrier::complete_tx(s, n), mshown)?;
                    }
                }
            }
            Op::Tex(t) => crate::texture::run(t, r, &mut mems, em, line)?,
            Op::Tensor(t) => match &**t {
                TensorOp::Mma(m) => tensor::mma(m, r, em, line)?,
                TensorOp::WmmaMma(m) => tensor::wmma_mma(m, r, em, line)?,
                TensorOp::Matrix8(m, mem, addr) => {
                    let mut at = [(Space::Global, 0u64, 0u64); 32];
                    address(r, addr, *mem, &mut at)?;
                    tensor::matrix8(m, r, &mut mems, &at, em, line)?;
                }
                TensorOp::WmmaMem(m, mem, addr) => {
                    let mut at = [(Space::Global, 0u64, 0u64); 32];
                    address(r, addr, *mem, &mut at)?;
                    // The address and stride are the warp's (uniform): the first lane's.
                    let first = (em.trailing_zeros() & 31) as usize;
                    let stride = match m.stride {
                        Some(s) => Some(lanes(r, s)?[first] & 0xffff_ffff),
                        None => None,
                    };
                    tensor::wmma_mem(m, r, &mut mems, at[first], stride, em, line)?;
                }
            },
            Op::Carry {
                kind,
                wide,
                cin,
                cout,
                d,
                a,
                b,
                c,
                cc,
            } => {
                let (av, bv, cv, ccv) = (
                    *lanes(r, *a)?,
                    *lanes(r, *b)?,
                    *lanes(r, *c)?,
                    *lanes(r, *cc)?,
                );
                let (m, w) = if *wide {
                    (u64::MAX, 64)
                } else {
                    (0xffff_ffff, 32)
                };
                let mut out = [0u64; 32];
                let mut co = ccv;
                for l in bits(em) {
                    let ci = if *cin { u128::from(ccv[l] & 1) } else { 0 };
                    let (x, y, z) = (
                        u128::from(av[l] & m),
                        u128::from(bv[l] & m),
                        u128::from(cv[l] & m),
                    );
                    let (v, carry) = match kind {
                        CarryKind::Add => {
                            let t = x + y + ci;
                            (t, (t >> w) & 1)
                        }
                        CarryKind::Sub => (x.wrapping_sub(y + ci), u128::from(y + ci > x)),
                        CarryKind::MadLo => {
                            let t = ((x * y) & u128::from(m)) + z + ci;
                            (t, (t >> w) & 1)
                        }
                        CarryKind::MadHi => {
                            let t = ((x * y) >> w) + z + ci;
                            (t, (t >> w) & 1)
                        }
                    };
                    out[l] = (v as u64) & m;
                    co[l] = carry as u64;
                }
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = out[l];
                }
                if *cout {
                    *lanes_mut(r, *cc)? = co;
                }
            }
            Op::CpAsync {
                dst,
                src,
                size,
                src_size,
            } => {
                let mut from = [(Space::Global, 0u64, 0u64); 32];
                let mut at = [(Space::Global, 0u64, 0u64); 32];
                address(r, src, Mem::Generic, &mut from)?;
                address(r, dst, Mem::Shared, &mut at)?;
                let n = match src_size {
                    Some(s) => *lanes(r, *s)?,
                    None => [u64::from(*size); 32],
                };
                let w = u64::from(*size);
                for l in bits(em) {
                    let (ds, doff, dshown) = at[l];
                    let (ss, soff, sshown) = from[l];
                    mems.check(ds, doff, w, w, dshown)?;
                    let k = n[l].min(w);
                    if k > 0 {
                        mems.check(ss, soff, k, w, sshown)?;
                    }
                    for i in 0..w {
                        let v = if i < k {
                            mems.load(ss, soff + i, 1, sshown)?
                        } else {
                            0
                        };
                        mems.store(ds, doff + i, 1, v, dshown)?;
                    }
                }
            }
            Op::Elect { d, p, m } => {
                let member = em & (lanes(r, *m)?[em.trailing_zeros() as usize & 31] as u32);
                let leader = member.trailing_zeros();
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = u64::from(leader.min(32));
                }
                if let Some(p) = p {
                    let v = if member == 0 { 0 } else { 1 << leader };
                    set_pred(pr, *p, v, em)?;
                }
            }
            Op::Shfl {
                mode,
                d,
                p,
                a,
                b,
                c,
                m: _,
            } => {
                let av = *lanes(r, *a)?;
                let bv = *lanes(r, *b)?;
                let cv = *lanes(r, *c)?;
                let mut out = [0u64; 32];
                let mut pv = 0u32;
                for l in bits(em) {
                    let lane = l as i64;
                    let bval = (bv[l] & 0x1f) as i64;
                    let cval = (cv[l] & 0x1f) as i64;
                    let seg = ((cv[l] >> 8) & 0x1f) as i64;
                    let max_lane = (lane & seg) | (cval & !seg);
                    let min_lane = lane & seg;
                    let (j, ok) = match mode {
                        ShflMode::Up => (lane - bval, lane - bval >= max_lane),
                        ShflMode::Down => (lane + bval, lane + bval <= max_lane),
                        ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
                        ShflMode::Idx => {
                            let j = min_lane | (bval & !seg);
                            (j, j <= max_lane)
                        }
                    };
                    let j = if ok { j } else { lane };
                    out[l] = av[(j & 31) as usize] & 0xffff_ffff;
                    if ok {
                        pv |= 1 << l;
                    }
                }
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = out[l];
                }
                if let Some(p) = p {
                    set_pred(pr, *p, pv, em)?;
                }
            }
            Op::Vote { mode, d, dp, a, m } => {
                // Each lane votes among the lanes its own membermask names: lanes of one warp
                // may pass different masks (cooperative groups' partitions).
                let mv = *lanes(r, *m)?;
                let votes = pget(pr, a.0)? ^ if a.1 { u32::MAX } else { 0 };
                let mut out = [0u64; 32];
                let mut pv = 0u32;
                for l in bits(em) {
                    let member = em & (mv[l] as u32);
                    let av = votes & member;
                    out[l] = u64::from(av);
                    let yes = match mode {
                        // A ballot sets no predicate: its register is `out`.
                        VoteMode::Ballot => false,
                        VoteMode::All => av == member,
                        VoteMode::Any => av != 0,
                        VoteMode::Uni => av == 0 || av == member,
                    };
                    if yes {
                        pv |= 1 << l;
                    }
                }
                if matches!(mode, VoteMode::Ballot) {
                    let dv = lanes_mut(r, *d)?;
                    for l in bits(em) {
                        dv[l] = out[l];
                    }
                } else {
                    set_pred(pr, *dp, pv, em)?;
                }
            }
            Op::Activemask { d } => {
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = u64::from(em);
                }
            }
            Op::Redux { op, d, a, m } => {
                // Each lane reduces over the lanes its own membermask names: lanes of one warp
                // may pass different masks (cooperative groups' reduce over a
                // labeled_partition).
                let mv = *lanes(r, *m)?;
                let av = *lanes(r, *a)?;
                let mut out = [0u64; 32];
                for l in bits(em) {
                    let mut acc: Option<u32> = None;
                    for k in bits(em & (mv[l] as u32)) {
                        let v = av[k] as u32;
                        acc = Some(match acc {
                            None => v,
                            Some(x) => match op {
                                ReduxOp::Add => x.wrapping_add(v),
                                ReduxOp::MinU => x.min(v),
                                ReduxOp::MaxU => x.max(v),
                                ReduxOp::MinS => (x as i32).min(v as i32) as u32,
                                ReduxOp::MaxS => (x as i32).max(v as i32) as u32,
                                ReduxOp::And => x & v,
                                ReduxOp::Or => x | v,
                                ReduxOp::Xor => x ^ v,
                            },
                        });
                    }
                    out[l] = u64::from(acc.unwrap_or(0));
                }
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = out[l];
                }
            }
            Op::Match {
                all,
                wide,
                d,
                p,
                a,
                m,
            } => {
                // Each lane matches among the lanes its own membermask names.
                let mv = *lanes(r, *m)?;
                let av = *lanes(r, *a)?;
                let key = |v: u64| if *wide { v } else { v & 0xffff_ffff };
                let mut out = [0u64; 32];
                let mut pv = 0u32;
                for l in bits(em) {
                    let member = em & (mv[l] as u32);
                    let mut same = 0u32;
                    for k in bits(member) {
                        if key(av[k]) == key(av[l]) {
                            same |= 1 << k;
                        }
                    }
                    if *all {
                        let eq = same == member;
                        out[l] = if eq { u64::from(member) } else { 0 };
                        if eq {
                            pv |= 1 << l;
                        }
                    } else {
                        out[l] = u64::from(same);
                    }
                }
                let dv = lanes_mut(r, *d)?;
                for l in bits(em) {
                    dv[l] = out[l];
                }
                if let Some(p) = p {
                    set_pred(pr, *p, pv, em)?;
                }
            }
            Op::AssertFail { args } => {
                let l = em.trailing_zeros() as u64;
                let mut arg = |k: usize, w: u8| -> u64 {
                    let off =
                        local_base + l * frame_size + u64::from(args.get(k).copied().unwrap_or(0));
                    mems.load(Space::Local, off, w, off).unwrap_or(0)
                };
                let (msg, file, src_line, func_p) = (arg(0, 8), arg(1, 8), arg(2, 4), arg(3, 8));
                let t = warp_id * 32 + l as u32;
                let thread = [t % bx, t / bx % by, t / (bx * by)];
                return Err(Fault::Assert {
                    message: mems.c_string(msg, 1024),
                    file: mems.c_string(file, 1024),
                    source_line: src_line as u32,
                    function: mems.c_string(func_p, 1024),
                    block: ctaid,
                    thread,
                });
            }
            Op::SetConditional { handle, value } => {
                // Each thread that calls it sets the value, in lane order: the last one stays,
                // as the board gives no order between threads' calls.
                for l in bits(em) {
                    let fb = local_base + l as u64 * frame_size;
                    let h = mems.load(Space::Local, fb + u64::from(*handle), 8, fb)?;
                    let v = mems.load(Space::Local, fb + u64::from(*value), 4, fb)? as u32;
                    if !self.p.dev.set_conditional(h, v) {
                        return Err(Fault::Conditional { handle: h, line });
                    }
                }
            }
            Op::Malloc { ret, size } => {
                for l in bits(em) {
                    let fb = local_base + l as u64 * frame_size;
                    let n = mems.load(Space::Local, fb + u64::from(*size), 8, fb)?;
                    let p = self.p.dev.malloc(n);
                    mems.store(Space::Local, fb + u64::from(*ret), 8, p, fb)?;
                }
            }
            Op::Free { ptr } => {
                for l in bits(em) {
                    let fb = local_base + l as u64 * frame_size;
                    let p = mems.load(Space::Local, fb + u64::from(*ptr), 8, fb)?;
                    // free(NULL) does nothing; a pointer the heap did not hand out corrupts a
                    // board's heap, here it ends the launch at the call.
                    if p != 0 && !self.p.dev.free(p) {
                        return Err(Fault::IllegalAddress {
                            addr: p,
                            len: 0,
                            line,
                        });
                    }
                }
            }
            Op::Vprintf { ret, fmt, args } => {
                for l in bits(em) {
                    let fb = local_base + l as u64 * frame_size;
                    let f = mems.load(Space::Local, fb + u64::from(*fmt), 8, fb)?;
                    let a = mems.load(Space::Local, fb + u64::from(*args), 8, fb)?;
                    // The argument buffer lives in the thread's local memory: hand the device
                    // a copy at a host address.
                    let (sp, off) = memory::classify(a);
                    let n = match sp {
                        Space::Local => {
                            let start = usize::try_from(off)
                                .unwrap_or(usize::MAX)
                                .min(mems.local.len());
                            let end = start.saturating_add(1024).min(mems.local.len());
                            let src = mems.local.get(start..end).unwrap_or(&[]);
                            let mut copy: Vec<u64> = vec![0; src.len().div_ceil(8)];
                            for (i, byte) in src.iter().enumerate() {
                                if let Some(w) = copy.get_mut(i / 8) {
                                    *w |= u64::from(*byte) << ((i % 8) * 8);
                                }
                            }
                            self.p.dev.vprintf(f, copy.as_ptr() as u64)
                        }
                        _ => self.p.dev.vprintf(f, a),
                    };
                    if *ret != u32::MAX {
                        mems.store(Space::Local, fb + u64::from(*ret), 4, n as u32 as u64, fb)?;
                    }
                }
            }
            Op::Bra { .. }
            | Op::Call { .. }
            | Op::CallInd { .. }
            | Op::Ret
            | Op::Exit
            | Op::Bar { .. }
            | Op::BarRed { .. }
            | Op::Nop => {}
        }
        Ok(())
    }
}

fn window_base(w: Window) -> u64 {
    match w {
        Window::Global => 0,
        Window::Shared => memory::SHARED_WINDOW,
        Window::Local => memory::LOCAL_WINDOW,
        Window::Param => memory::PARAM_WINDOW,
    }
}

fn set_pred(pr: &mut [u32], d: u32, v: u32, em: u32) -> Result<(), Fault> {
    let p = pr.get_mut(d as usize).ok_or(Fault::Internal("predicate"))?;
    *p = (*p & !em) | (v & em);
    Ok(())
}

/// The lanes' byte offsets of a register-based access `[reg + off]` to global or shared memory
/// (generic addresses resolved): `None` for any other base or space, which the general path
/// takes.
#[inline]
fn fast_space(mem: Mem, a: &Addr) -> Option<(Slot, Option<Space>)> {
    let Base::Reg(s) = a.base else { return None };
    match mem {
        Mem::Global => Some((s, Some(Space::Global))),
        Mem::Shared => Some((s, Some(Space::Shared))),
        Mem::Generic => Some((s, None)),
        _ => None,
    }
}

/// A load's fast path, the inner loop of tiled kernels: register-based global or shared (or
/// generic resolving to them) accesses that are aligned, in bounds and (global) inside the
/// warp's cached allocation, read without the per-lane checks' faults. `None` when any lane
/// is not such an access: the general path then runs the instruction and reports its fault.
#[inline]
fn fast_ld(
    mems: &mut Mems<'_>,
    r: &[u64],
    a: &Addr,
    mem: Mem,
    width: u8,
    n: u8,
    em: u32,
) -> Option<[[u64; 32]; 4]> {
    let (slot, space) = fast_space(mem, a)?;
    let base = lanes(r, slot).ok()?;
    let len = u64::from(width) * u64::from(n);
    if !len.is_power_of_two() || n > 4 {
        return None;
    }
    let mut vals = [[0u64; 32]; 4];
    let (mut lo, mut hi) = *mems.cache;
    for l in bits(em) {
        let v = base[l].wrapping_add(a.off as u64);
        let (sp, off) = match space {
            Some(Space::Global) => (Space::Global, v),
            Some(sp) => (sp, v),
            None => memory::classify(v),
        };
        if off & (len - 1) != 0 {
            return None;
        }
        if sp == Space::Global && !(off >= lo && off.checked_add(len)? <= hi) {
            // Another allocation: look it up (and cache it) as the general path would.
            mems.check(sp, off, len, len, v).ok()?;
            (lo, hi) = *mems.cache;
        }
        match sp {
            Space::Global => {
                for (k, row) in vals.iter_mut().enumerate().take(usize::from(n)) {
                    row[l] = mems
                        .load(sp, off + k as u64 * u64::from(width), width, v)
                        .ok()?;
                }
            }
            Space::Shared if off.checked_add(len)? <= mems.shared.len() as u64 => {
                for (k, row) in vals.iter_mut().enumerate().take(usize::from(n)) {
                    row[l] = mems
                        .load(sp, off + k as u64 * u64::from(width), width, v)
                        .ok()?;
                }
            }
            _ => return None,
        }
    }
    Some(vals)
}

/// One element per lane of `W` bytes from shared memory at `base[l] + off`; `None` when a
/// lane's access is misaligned or out of bounds.
#[inline(always)]
fn shared_ld<const W: usize>(sh: &[u8], base: &Lanes, off: u64, em: u32) -> Option<Lanes> {
    let mut out = [0u64; 32];
    for l in bits(em) {
        let o = base[l].wrapping_add(off);
        if o % W as u64 != 0 {
            return None;
        }
        let b = sh.get(usize::try_from(o).ok()?..)?.first_chunk::<W>()?;
        let mut v = [0u8; 8];
        *v.first_chunk_mut::<W>()? = *b;
        out[l] = u64::from_le_bytes(v);
    }
    Some(out)
}

/// [`fast_ld`] for one element per lane (`ld.shared.f32 %f, [%r+8]`, the inner loop of tiled
/// kernels): shared memory through [`shared_ld`], global memory and generic addresses through
/// [`fast_ld`]'s lane loop.
#[inline]
fn fast_ld1(
    mems: &mut Mems<'_>,
    r: &[u64],
    a: &Addr,
    mem: Mem,
    width: u8,
    em: u32,
) -> Option<Lanes> {
    if let (Mem::Shared, Base::Reg(slot)) = (mem, a.base) {
        let base = lanes(r, slot).ok()?;
        let (sh, off) = (&*mems.shared, a.off as u64);
        return match width {
            1 => shared_ld::<1>(sh, base, off, em),
            2 => shared_ld::<2>(sh, base, off, em),
            4 => shared_ld::<4>(sh, base, off, em),
            8 => shared_ld::<8>(sh, base, off, em),
            _ => None,
        };
    }
    if let (Mem::KParam, Base::Abs) = (mem, a.base) {
        // A kernel parameter: one address for every lane.
        let off = a.off as u64;
        let w = u64::from(width);
        mems.check(Space::Param, off, w, w, off).ok()?;
        let v = mems.load(Space::Param, off, width, off).ok()?;
        return Some([v; 32]);
    }
    fast_ld(mems, r, a, mem, width, 1, em).map(|v| v[0])
}

/// Runs `g(d, a, b, c)` over register slots in place: `d` borrowed from the register file,
/// the sources beside it (a source that is `d` itself read from a copy taken first, so that
/// every lane reads the sources' old values), with no copies of the other sources.
#[inline(always)]
fn in_place(
    r: &mut [u64],
    d: Slot,
    [a, b, c]: [Slot; 3],
    g: impl FnOnce(&mut Lanes, &Lanes, &Lanes, &Lanes),
) -> Result<(), Fault> {
    let bad = || Fault::Internal("register slot");
    let (lo, rest) = r.split_at_mut_checked(d as usize * 32).ok_or_else(bad)?;
    let (dv, hi) = rest.split_at_mut_checked(32).ok_or_else(bad)?;
    let dv: &mut Lanes = dv.try_into().map_err(|_| bad())?;
    // Copied only where a source is the destination (`add %r1, %r1, 1`).
    let old = if a == d || b == d || c == d {
        Some(*dv)
    } else {
        None
    };
    let get = |s: Slot| -> Result<&Lanes, Fault> {
        if s == d {
            old.as_ref().ok_or_else(bad)
        } else if s < d {
            lanes(lo, s)
        } else {
            lanes(hi, s - d - 1)
        }
    };
    let (av, bv, cv) = (get(a)?, get(b)?, get(c)?);
    g(dv, av, bv, cv);
    Ok(())
}

/// A store's fast path, as [`fast_ld`]'s: `false` (nothing stored) when any lane is not a
/// fast access, and the general path runs the instruction.
#[inline]
#[allow(clippy::too_many_arguments)]
fn fast_st(
    mems: &mut Mems<'_>,
    r: &[u64],
    a: &Addr,
    mem: Mem,
    width: u8,
    n: u8,
    src: &[Slot; 4],
    em: u32,
) -> bool {
    let Some((slot, space)) = fast_space(mem, a) else {
        return false;
    };
    let Ok(base) = lanes(r, slot) else {
        return false;
    };
    let len = u64::from(width) * u64::from(n);
    if !len.is_power_of_two() || n > 4 {
        return false;
    }
    // Every lane checked before any stores: a fault leaves memory as the general path finds it.
    let (mut lo, mut hi) = *mems.cache;
    let mut offs = [(Space::Global, 0u64); 32];
    for l in bits(em) {
        let v = base[l].wrapping_add(a.off as u64);
        let (sp, off) = match space {
            Some(sp) => (sp, v),
            None => memory::classify(v),
        };
        if sp == Space::Global
            && off & (len - 1) == 0
            && !(off >= lo && off.checked_add(len).is_some_and(|e| e <= hi))
        {
            if mems.check(sp, off, len, len, v).is_err() {
                return false;
            }
            (lo, hi) = *mems.cache;
        }
        let ok = off & (len - 1) == 0
            && match sp {
                Space::Global => off >= lo && off.checked_add(len).is_some_and(|e| e <= hi),
                Space::Shared => off
                    .checked_add(len)
                    .is_some_and(|e| e <= mems.shared.len() as u64),
                _ => false,
            };
        if !ok {
            return false;
        }
        offs[l] = (sp, off);
    }
    for k in 0..usize::from(n) {
        let Some(Ok(sv)) = src.get(k).map(|&s| lanes(r, s)) else {
            return false;
        };
        for l in bits(em) {
            let (sp, off) = offs[l];
            // Checked above: in bounds and aligned, so the store cannot fail.
            let _ = mems.store(sp, off + k as u64 * u64::from(width), width, sv[l], off);
        }
    }
    true
}
