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
//! generated function). The translation is made once per `Program`, by
//! the first warp that asks for the native tier or on a thread of its own
//! (`Handover`): the full-warp copy of the segments at once, the
//! fewer-lanes copy only when a group of fewer lanes first runs natively
//! (`NativeCode::partial`), so a converged program never translates it.

mod call;
mod compile;
pub mod disk_cache;
mod emit;
mod segments;
mod select;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cache;
mod uniform;

pub(crate) use call::Scalars;
pub use compile::NativeError;

use crate::memory::ConstantBanks;
use crate::warp::{RZ, Row};
use compile::{Copies, FULL};
use segments::{Segments, segments};
use select::Host;
use spvsass_isa::isa::{Instr, OpBssy};
use spvsass_isa::program::INSTR_BYTES;
use std::path::Path;
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
    /// Wall time of the translation (selection, Cranelift, linking): of
    /// the full-warp copy, plus that of the fewer-lanes copy if it was
    /// translated (`copies`).
    pub translate_time: Duration,
    /// Segments translated (straight runs of ALU ops and branches).
    pub segments: u64,
    /// Instructions they hold.
    pub instructions: u64,
    /// Functions they were compiled into, on as many threads
    /// (`compile::split`), counting those of the copies translated.
    pub functions: u64,
    /// Of those, the functions whose code came from the translation cache
    /// on disk (`SimOptions::translation_cache`) instead of Cranelift.
    pub cached: u64,
    /// Copies of the segments translated: 1, the full-warp copy, made
    /// first; 2 once a group of fewer lanes ran natively and the
    /// fewer-lanes copy was made for it (a converged program never needs
    /// it); 0 without code.
    pub copies: u64,
    /// Why there is no native code, if there is none, or no fewer-lanes
    /// copy (the interpreter then runs the groups of fewer lanes).
    pub error: Option<NativeError>,
}

/// How a program is translated: in pieces for `workers` threads
/// (`compile::split`), with the translation cache in `cache`, if any
/// (`disk_cache`; `SimOptions::translation_cache`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Translation {
    pub workers: usize,
    pub cache: Option<&'static Path>,
}

/// A program's native code.
pub(crate) struct NativeCode {
    /// The segments, where each starts and the constants they read.
    segs: Segments,
    instrs: usize,
    /// The threads the copies are cut into pieces for (`compile::split`),
    /// and the translation cache.
    how: Translation,
    /// The full-warp copy: one function per piece (`compile::split`).
    code: Option<Vec<call::Code>>,
    /// Per segment: the function of `code` holding it.
    home: Vec<u32>,
    /// The fewer-lanes copy, translated when a group first needs it.
    partial: OnceLock<Partial>,
    /// The full-warp copy's statistics (`NativeCode::stats` adds the
    /// fewer-lanes copy's).
    stats: NativeStats,
}

/// The fewer-lanes copy of a program's segments, once translated.
struct Partial {
    /// Its functions, or why there are none.
    made: Result<Made, NativeError>,
    /// Wall time of its translation.
    time: Duration,
}

/// The functions made on demand: the fewer-lanes copy, with one worker
/// thread in one function with a second full-warp copy (a group moving
/// between the copies stays in it, as a program's one function did when
/// both copies were made at once), else in pieces of its own.
struct Made {
    /// One function per piece (`compile::split`).
    code: Vec<call::Code>,
    /// Per copy (full warp, fewer lanes) these functions hold, and
    /// segment: the function holding it.
    home: [Option<Vec<u32>>; 2],
    /// How many of the functions came from the translation cache.
    cached: u64,
}

impl Made {
    /// The function running segment `segment` of copy `copy`, if it is
    /// among these.
    fn entry(&self, copy: usize, segment: usize) -> Option<call::Entry> {
        let home = self.home.get(copy)?.as_ref()?;
        let piece = *home.get(segment)?;
        self.code.get(piece as usize).map(|c| c.entry)
    }
}

impl NativeCode {
    /// Translates the full-warp copy of `instrs` (the fewer-lanes copy
    /// waits for `partial`); a program with nothing to translate, or whose
    /// translation failed (`stats.error`), has no code.
    pub(crate) fn translate(instrs: &[Instr], how: Translation) -> NativeCode {
        Self::make(instrs, how, false)
            .unwrap_or_else(|| unreachable!("made whatever the cache holds"))
    }

    /// `translate`, if the translation cache holds all of the functions
    /// (`compile::compile_cached`): `None` otherwise.
    fn translate_cached(instrs: &[Instr], how: Translation) -> Option<NativeCode> {
        how.cache?;
        Self::make(instrs, how, true)
    }

    /// `translate`; with `cached_only`, `None` where that would compile.
    fn make(instrs: &[Instr], how: Translation, cached_only: bool) -> Option<NativeCode> {
        let start = Instant::now();
        let host = host();
        let segs = segments(instrs, host);
        let mut home = Default::default();
        let mut stats = NativeStats {
            segments: segs.list.len() as u64,
            instructions: segs.instructions(),
            ..NativeStats::default()
        };
        let compiled = |segs: &Segments| match cached_only {
            true => compile::compile_cached(segs, how, FULL)
                .ok()
                .flatten()
                .map(Ok),
            false => Some(compile::compile(segs, how, FULL)),
        };
        let code = if !sse41() {
            stats.error = Some(NativeError::Host("SSE4.1 is missing".into()));
            None
        } else if segs.list.is_empty() {
            None
        } else {
            match compiled(&segs)? {
                Ok((pieces, cached)) => {
                    let [full, _] = compile::home(&segs, how.workers, FULL);
                    home = full.unwrap_or_default();
                    stats.functions = pieces.len() as u64;
                    stats.cached = cached;
                    stats.copies = 1;
                    Some(code_of(pieces))
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
        // Before the code is published (a warp woken by it could otherwise
        // end the dispatch before the stamp).
        crate::phases::stamp("translation_done");
        Some(NativeCode {
            segs,
            instrs: instrs.len(),
            how,
            code,
            home,
            partial: OnceLock::new(),
            stats,
        })
    }

    /// The fewer-lanes copy's functions, translated here by the first
    /// caller (others wait for it: one translation per program); `None`
    /// when its translation failed (`stats` reports why).
    fn partial(&self) -> Option<&Made> {
        let partial = self.partial.get_or_init(|| {
            let start = Instant::now();
            // One worker: one function for both copies (`Made`).
            let copies: Copies = [self.how.workers <= 1, true];
            let made =
                compile::compile(&self.segs, self.how, copies).map(|(pieces, cached)| Made {
                    code: code_of(pieces),
                    home: compile::home(&self.segs, self.how.workers, copies),
                    cached,
                });
            Partial {
                made,
                time: start.elapsed(),
            }
        });
        partial.made.as_ref().ok()
    }

    /// The full-warp copy's function running segment `segment`.
    fn full_entry(&self, segment: usize) -> Option<call::Entry> {
        let piece = *self.home.get(segment)?;
        let code = self.code.as_ref()?.get(piece as usize)?;
        Some(code.entry)
    }

    /// What translating cost so far: the full-warp copy's statistics and,
    /// once made, the fewer-lanes copy's time, functions and error.
    fn stats(&self) -> NativeStats {
        let mut stats = self.stats.clone();
        if let Some(partial) = self.partial.get() {
            stats.translate_time += partial.time;
            match &partial.made {
                Ok(made) => {
                    stats.functions += made.code.len() as u64;
                    stats.cached += made.cached;
                    stats.copies += 1;
                }
                Err(e) => stats.error = Some(e.clone()),
            }
        }
        stats
    }
}

/// The compiled pieces as code that frees its memory when dropped.
fn code_of(pieces: Vec<(cranelift_jit::JITModule, call::Entry)>) -> Vec<call::Code> {
    pieces
        .into_iter()
        .map(|(m, e)| call::Code::new(m, e))
        .collect()
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
    /// The translation is cut into pieces for `how.workers` threads (the
    /// run's worker threads; one: one function, translated where it is
    /// asked for).
    pub(crate) fn ready(
        &self,
        instrs: &[Instr],
        handover: Handover,
        how: Translation,
    ) -> Option<&NativeCode> {
        match handover {
            Handover::Wait => Some(self.translated(instrs, how)),
            Handover::AfterChecks(n) => {
                let code = self.translated(instrs, how);
                (self.checks.fetch_add(1, Ordering::Relaxed) >= n).then_some(code)
            }
            Handover::Background => {
                if let Some(code) = self.code.get() {
                    return Some(code);
                }
                self.start_early(instrs, how);
                self.code.get()
            }
        }
    }

    /// Starts the translation on a thread of its own now, if none was
    /// started: in the background (`Handover::Background`), or while the
    /// caller still starts the workers, a warp that asks for the code
    /// under `Handover::Wait` then waiting for that translation. What the
    /// translation cache holds whole is translated here instead (`start`).
    pub(crate) fn start_early(&self, instrs: &[Instr], how: Translation) {
        if !self.started.swap(true, Ordering::AcqRel) {
            self.start(instrs, how);
        }
    }

    /// The code, translated here if no one did yet.
    fn translated(&self, instrs: &[Instr], how: Translation) -> &NativeCode {
        self.started.store(true, Ordering::Release);
        self.code.get_or_init(|| NativeCode::translate(instrs, how))
    }

    /// Starts translating on a thread of its own (here, if none can be
    /// started), or translates here what the translation cache holds
    /// whole.
    fn start(&self, instrs: &[Instr], how: Translation) {
        // A translation the cache holds whole is made here: a few reads,
        // sooner done than a thread is started (BENCHMARKS.md, "Serial
        // time of a 16-thread run").
        crate::phases::stamp("translation_start");
        if let Some(code) = NativeCode::translate_cached(instrs, how) {
            // (Only `start_early`, once, comes here: the cell is empty.)
            let _ = self.code.set(code);
            return;
        }
        let code = Arc::clone(&self.code);
        let owned = instrs.to_vec();
        let spawned = std::thread::Builder::new()
            .name("spvsass-translate".into())
            .spawn(move || {
                // Initialising the cell while translating: a caller that
                // waits for the code (`Handover::Wait`) waits for this
                // translation rather than making its own.
                crate::phases::stamp("translation_thread");
                code.get_or_init(|| NativeCode::translate(&owned, how));
            });
        match spawned {
            Ok(handle) => *lock(&self.worker) = Some(handle),
            Err(_) => {
                self.code.get_or_init(|| NativeCode::translate(instrs, how));
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
        self.code.get().map(NativeCode::stats)
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
    /// The functions made on demand, once made (`NativeCode::partial`).
    made: Option<&'p Made>,
    /// The constant-bank words of `Segments::constants`.
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
        code.code.as_ref()?;
        let consts = code
            .segs
            .constants
            .iter()
            .map(|&(bank, offset)| {
                let b = banks.read(bank, u64::from(offset), 4).ok()?;
                Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            })
            .collect::<Option<Vec<u32>>>()?;
        Some(NativeRun {
            code,
            // Made for an earlier warp: taken from the start.
            made: code.partial.get().and_then(|p| p.made.as_ref().ok()),
            consts,
            counters: vec![0; code.segs.list.len()],
            segment_lanes: vec![0; code.segs.list.len()],
            executed: 0,
        })
    }

    /// The segment that starts at instruction `index`.
    pub(crate) fn entry(&self, index: usize) -> Option<u32> {
        self.code.segs.at.get(index).copied().flatten()
    }

    /// Runs the group `scalars.active` from segment `scalars.segment` on
    /// the warp's registers, predicates and barriers; `None` when it could
    /// not be called. A group that goes on in a copy with no code (the
    /// fewer-lanes copy failed to translate) stops where it is, at a
    /// segment's start, where the interpreter goes on.
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
            self.code.segs.constants.len(),
            self.code.instrs,
            self.code.segs.list.len(),
        );
        let mut now = scalars;
        let mut pending = call::NO_PENDING;
        // Where the last call stopped, to go on in another piece.
        let mut last = None;
        loop {
            let Some(entry) = self.entry_for(now) else {
                return last.map(|out| self.stopped(out, scalars.steps));
            };
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
            let Some(out) = call::call(entry, expect, state, now, pending) else {
                return last.map(|out| self.stopped(out, scalars.steps));
            };
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
                    last = Some(out);
                }
                _ => return Some(self.stopped(out, scalars.steps)),
            }
        }
    }

    /// The function that runs the group of `now` from its segment: the
    /// full-warp copy's or the fewer-lanes copy's, translated on this
    /// warp's first need of it; `None` where there is none.
    fn entry_for(&mut self, now: call::Scalars) -> Option<call::Entry> {
        let copy = usize::from(now.active != u32::MAX);
        let segment = now.segment as usize;
        if copy == 1 && self.made.is_none() {
            self.made = Some(self.code.partial()?);
        }
        // The functions made on demand run what they hold (with one
        // worker thread, the full-warp copy too).
        if let Some(entry) = self.made.and_then(|m| m.entry(copy, segment)) {
            return Some(entry);
        }
        // Else only the full-warp copy exists: there is nothing to run a
        // group of fewer lanes if its copy failed to translate.
        if copy == 0 {
            self.code.full_entry(segment)
        } else {
            None
        }
    }

    /// The call's end as the caller takes it (the interpreter goes on at
    /// its pc), its steps from `start` counted as run natively.
    fn stopped(&mut self, out: call::Stopped, start: u64) -> call::Stopped {
        self.executed += out.steps - start;
        call::Stopped {
            elsewhere: false,
            ..out
        }
    }

    /// Adds the segments' runs to the per-instruction issue and lane
    /// counts (`Warp::run`'s), as the interpreter would have counted them.
    pub(crate) fn finish(&mut self, issued: &mut [u64], lanes: &mut [u64]) {
        let runs = self.counters.iter_mut().zip(&mut self.segment_lanes);
        for (seg, (n, group)) in self.code.segs.list.iter().zip(runs) {
            // Most runs (a warp's turn between two barriers) run few of
            // the segments.
            if *n == 0 {
                continue;
            }
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
