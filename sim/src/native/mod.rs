//! The native tier: converged ALU code translated to host code with
//! Cranelift (ARCHITECTURE.md, "Native tier"). A program's translatable
//! instructions (`select.rs`: the op table's ALU ops with a translation,
//! branches, BSSY and BSYNC) are cut into straight segments
//! (`segments.rs`), and one function per program (`compile.rs`) runs them
//! over the warp's register rows, four lanes to a SIMD vector (`emit.rs`),
//! for a full warp or a group of fewer lanes whose writes are masked; a
//! branch that splits the group runs on natively as the scheduler would
//! run it (the lanes at the smaller pc first, the others waiting as one
//! pending group, merged again where they meet); everything else is left
//! to the interpreter, which stays the reference.
//! `call.rs` is the one module with `unsafe` code (the call into the
//! generated function). The translation is made once per `Program`, on
//! a thread of its own started by the first warp that asks for the native
//! tier, while the warps run in the interpreter (`Handover`).

mod call;
mod compile;
mod emit;
mod segments;
mod select;
#[cfg(test)]
mod tests;

pub(crate) use call::Scalars;
pub use compile::NativeError;

use crate::memory::ConstantBanks;
use crate::warp::{RZ, Row};
use segments::{Segment, segments};
use select::Host;
use spvsass_isa::isa::{Instr, OpBssy};
use spvsass_isa::program::INSTR_BYTES;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Which tier runs converged code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tier {
    /// The interpreter alone (the default until the native tier has
    /// proven itself: ARCHITECTURE.md, "Native tier").
    #[default]
    Interp,
    /// Translated code where it applies, the interpreter elsewhere.
    Native,
}

/// What translating a program gave and cost (`run --stats`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NativeStats {
    /// Wall time of the translation (selection, Cranelift, linking).
    pub translate_time: Duration,
    /// Segments translated (straight runs of ALU ops and branches).
    pub segments: u64,
    /// Instructions they hold.
    pub instructions: u64,
    /// Functions they were compiled into, on as many threads
    /// (`compile::split`).
    pub functions: u64,
    /// Why there is no native code, if there is none.
    pub error: Option<NativeError>,
}

/// A program's native code.
pub(crate) struct NativeCode {
    segments: Vec<Segment>,
    /// Per instruction: the segment that starts there.
    at: Vec<Option<u32>>,
    /// The constant-bank words the code reads, by slot.
    constants: Vec<(u8, u16)>,
    instrs: usize,
    /// One function per piece (`compile::split`).
    code: Option<Vec<call::Code>>,
    /// Per copy (full warp, fewer lanes) and segment: the piece holding it.
    home: [Vec<u32>; 2],
    stats: NativeStats,
}

impl NativeCode {
    /// Translates `instrs`; a program with nothing to translate, or whose
    /// translation failed (`stats.error`), has no code.
    pub(crate) fn translate(instrs: &[Instr]) -> NativeCode {
        let start = Instant::now();
        let host = host();
        let segs = segments(instrs, host);
        let mut home = Default::default();
        let mut stats = NativeStats {
            segments: segs.list.len() as u64,
            instructions: segs.instructions(),
            ..NativeStats::default()
        };
        let code = if !sse41() {
            stats.error = Some(NativeError::Host("SSE4.1 is missing".into()));
            None
        } else if segs.list.is_empty() {
            None
        } else {
            match compile::compile(&segs, workers()) {
                Ok(c) => {
                    home = c.home;
                    stats.functions = c.pieces.len() as u64;
                    let code = c.pieces.into_iter();
                    Some(code.map(|(m, e)| call::Code::new(m, e)).collect())
                }
                Err(e) => {
                    stats.error = Some(e);
                    None
                }
            }
        };
        if code.is_none() {
            stats.segments = 0;
            stats.instructions = 0;
        }
        stats.translate_time = start.elapsed();
        NativeCode {
            segments: segs.list,
            at: segs.at,
            constants: segs.constants,
            instrs: instrs.len(),
            code,
            home,
            stats,
        }
    }
}

/// Threads the translation may use (`compile::split`): the run's worker
/// threads (one: one function, translated where it is asked for).
fn workers() -> usize {
    rayon::current_num_threads()
}

/// The host's features the translation may use.
fn host() -> Host {
    #[cfg(target_arch = "x86_64")]
    let fma = std::arch::is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    let fma = true;
    Host { fma }
}

/// Whether the host has the vector instructions the x86-64 code needs
/// (32-bit lane multiplies, blends, rounding).
fn sse41() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("sse4.1");
    #[cfg(not(target_arch = "x86_64"))]
    return true;
}

/// When the warps of a run get a program's native code (`SimOptions::handover`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Handover {
    /// Translated on a thread of its own, started by the first warp that
    /// asks; warps run in the interpreter meanwhile and take the code at
    /// their next safe point once it is there (the start of a warp's run,
    /// a scheduler pass, a backward branch), so no warp waits for it.
    Background,
    /// Translated by the first warp that asks, which the others wait for:
    /// every warp runs natively from its first instruction. The default:
    /// on the 16-core Xeon the ALU kernel took 0.085 s on 16 threads in
    /// the background against 0.059 s waiting (the interpreted start
    /// costs more than the wait; BENCHMARKS.md).
    #[default]
    Wait,
    /// Translated as with `Wait`, but handed over only at the safe point
    /// after this many have asked for it in the program's runs: a late
    /// hand-over at a known point, for tests that results do not depend
    /// on when it comes.
    AfterChecks(u64),
}

/// A program's native code, made on first use. A cache of what the
/// instructions determine, so it takes no part in comparing or cloning
/// programs.
#[derive(Default)]
pub(crate) struct NativeCache {
    /// The code, once translated (shared with the translating thread).
    code: Arc<OnceLock<NativeCode>>,
    /// The background translation, while it may run.
    worker: Mutex<Option<JoinHandle<()>>>,
    /// Whether a translation was started.
    started: AtomicBool,
    /// Safe points that asked (`Handover::AfterChecks`).
    checks: AtomicU64,
}

impl NativeCache {
    /// The code if warps may take it now (`handover`); the first call
    /// starts the translation.
    pub(crate) fn ready(&self, instrs: &[Instr], handover: Handover) -> Option<&NativeCode> {
        match handover {
            Handover::Wait => Some(self.translated(instrs)),
            Handover::AfterChecks(n) => {
                let code = self.translated(instrs);
                (self.checks.fetch_add(1, Ordering::Relaxed) >= n).then_some(code)
            }
            Handover::Background => {
                if let Some(code) = self.code.get() {
                    return Some(code);
                }
                if !self.started.swap(true, Ordering::AcqRel) {
                    self.start(instrs);
                }
                self.code.get()
            }
        }
    }

    /// The code, translated here if no one did yet.
    fn translated(&self, instrs: &[Instr]) -> &NativeCode {
        self.started.store(true, Ordering::Release);
        self.code.get_or_init(|| NativeCode::translate(instrs))
    }

    /// Starts translating on a thread of its own (here, if none can be
    /// started).
    fn start(&self, instrs: &[Instr]) {
        let code = Arc::clone(&self.code);
        let owned = instrs.to_vec();
        let spawned = std::thread::Builder::new()
            .name("spvsass-translate".into())
            .spawn(move || {
                // A program that another caller translated meanwhile
                // keeps that translation.
                let _ = code.set(NativeCode::translate(&owned));
            });
        match spawned {
            Ok(handle) => *lock(&self.worker) = Some(handle),
            Err(_) => {
                self.code.get_or_init(|| NativeCode::translate(instrs));
            }
        }
    }

    /// The translation's statistics, if one was started (waiting for it
    /// to end).
    pub(crate) fn stats(&self) -> Option<NativeStats> {
        let worker = lock(&self.worker).take();
        if let Some(worker) = worker {
            // A panic in the translation leaves no code: the interpreter
            // ran everything, and the stats say there was none.
            if worker.join().is_err() {
                return Some(NativeStats {
                    error: Some(NativeError::Codegen("the translation panicked".into())),
                    ..NativeStats::default()
                });
            }
        }
        self.code.get().map(|c| c.stats.clone())
    }
}

/// Locks the worker slot (its one assignment leaves it consistent even if
/// a holder panicked).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Clone for NativeCache {
    fn clone(&self) -> NativeCache {
        NativeCache::default()
    }
}

impl PartialEq for NativeCache {
    fn eq(&self, _: &NativeCache) -> bool {
        true
    }
}

impl Eq for NativeCache {}

impl std::fmt::Debug for NativeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.code.get() {
            Some(c) => write!(f, "NativeCache({} segments)", c.stats.segments),
            None => write!(f, "NativeCache(empty)"),
        }
    }
}

/// One warp's use of the native code while it runs.
pub(crate) struct NativeRun<'p> {
    code: &'p NativeCode,
    /// Each piece's function.
    entries: Vec<call::Entry>,
    /// The constant-bank words of `NativeCode::constants`.
    consts: Vec<u32>,
    /// Runs of each segment.
    counters: Vec<u64>,
    /// Lanes of the groups that ran each segment, summed.
    segment_lanes: Vec<u64>,
    /// Warp-instructions run natively.
    pub executed: u64,
}

impl<'p> NativeRun<'p> {
    /// The native state of a warp reading `banks`; `None` when there is
    /// no code or a constant it reads is out of its bank (the interpreter
    /// then reports that where the instruction runs).
    pub(crate) fn new(code: &'p NativeCode, banks: &ConstantBanks) -> Option<NativeRun<'p>> {
        let entries = code.code.as_ref()?.iter().map(|c| c.entry).collect();
        let consts = code
            .constants
            .iter()
            .map(|&(bank, offset)| {
                let b = banks.read(bank, u64::from(offset), 4).ok()?;
                Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            })
            .collect::<Option<Vec<u32>>>()?;
        Some(NativeRun {
            code,
            entries,
            consts,
            counters: vec![0; code.segments.len()],
            segment_lanes: vec![0; code.segments.len()],
            executed: 0,
        })
    }

    /// The segment that starts at instruction `index`.
    pub(crate) fn entry(&self, index: usize) -> Option<u32> {
        self.code.at.get(index).copied().flatten()
    }

    /// Runs the group `scalars.active` from segment `scalars.segment` on
    /// the warp's registers, predicates and barriers; `None` when it could
    /// not be called.
    pub(crate) fn run(
        &mut self,
        gpr: &mut [Row; RZ + 1],
        preds: &mut [u32; 7],
        barriers: &mut [u32; OpBssy::BARRIERS as usize],
        issued: &mut [u64],
        lanes: &mut [u64],
        scalars: call::Scalars,
    ) -> Option<call::Stopped> {
        let expect = (
            self.code.constants.len(),
            self.code.instrs,
            self.code.segments.len(),
        );
        let mut now = scalars;
        let mut pending = call::NO_PENDING;
        loop {
            let copy = usize::from(now.active != u32::MAX);
            let piece = *self.code.home[copy].get(now.segment as usize)?;
            let state = call::Borrowed {
                gpr: &mut *gpr,
                preds: &mut *preds,
                consts: &self.consts,
                issued: &mut *issued,
                lanes: &mut *lanes,
                segments: &mut self.counters,
                segment_lanes: &mut self.segment_lanes,
                barriers: &mut *barriers,
            };
            let entry = *self.entries.get(piece as usize)?;
            let out = call::call(entry, expect, state, now, pending)?;
            // The segment at `out.pc` is another piece's: that function
            // goes on with the group, its pending groups and the steps.
            let next = self.entry((out.pc / INSTR_BYTES) as usize);
            match next {
                Some(segment) if out.elsewhere => {
                    now = call::Scalars {
                        steps: out.steps,
                        active: out.active,
                        segment,
                        ..now
                    };
                    pending = (out.pending, out.pending_pc);
                }
                _ => {
                    self.executed += out.steps - scalars.steps;
                    return Some(out);
                }
            }
        }
    }

    /// Adds the segments' runs to the per-instruction issue and lane
    /// counts (`Warp::run`'s), as the interpreter would have counted them.
    pub(crate) fn finish(&mut self, issued: &mut [u64], lanes: &mut [u64]) {
        let runs = self.counters.iter_mut().zip(&mut self.segment_lanes);
        for (seg, (n, group)) in self.code.segments.iter().zip(runs) {
            for (index, _, guard) in &seg.alu {
                if let Some(i) = issued.get_mut(*index) {
                    *i += *n;
                }
                if emit::always(*guard)
                    && let Some(l) = lanes.get_mut(*index)
                {
                    *l += *group;
                }
            }
            *n = 0;
            *group = 0;
        }
    }
}
