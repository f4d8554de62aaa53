//! The native functions of a program: each, entered at any of its
//! segments (a jump table on `Frame::entry`), runs segments for the group
//! `Frame::active` in one of two copies of the segments (`Group`): one for
//! a full warp, whose unguarded writes store whole rows, one for a group
//! of fewer lanes, whose writes keep the other lanes' values. Each copy
//! is compiled when needed (`compile`: the full-warp one first, the other
//! when a group of fewer lanes first needs it, with a second full-warp
//! copy beside it on one worker thread), cut into pieces (`split`); a
//! move to a segment another function holds leaves with
//! `leaving::ELSEWHERE`. The code keeps the converged path's
//! bookkeeping:
//! - before a segment of n instructions it checks that all n fit under
//!   the step limit and that none of them reaches another ready lane's pc;
//!   if not, it leaves at the segment's start and the interpreter, which
//!   checks per instruction, goes on from there;
//! - each segment run adds one to its run counter and the group's lanes
//!   to its lane counter (the interpreter's issue and lane counts are
//!   derived from them when the warp stops), guarded ops and branches
//!   count their lanes directly;
//! - a branch is taken when its guard holds in every lane of the group,
//!   falls through when it holds in none, and otherwise leaves at the
//!   branch;
//! - after a segment the group's next pc is compared with the other
//!   lanes' (`Frame::scheduler` when it reached them) and, if it starts a
//!   segment, that one runs next.
//!
//! Inside a segment, the ops run chunk by chunk (all of them on lanes
//! 0..4, then on 4..8, ...: every op is lane-wise) and the current chunk
//! of each register row is kept in a vector value: loaded from the warp's
//! memory when the chunk's ops first read it and stored after them if they
//! wrote it (`emit::store_rows`, before the branch and every exit), so
//! leaving at any segment boundary needs no write-back and no more values
//! are live than rows used; predicates are kept in variables and stored
//! when the function returns.

use super::Translation;
use super::call::{Entry, Frame};
use super::disk_cache;
use super::emit::{self, CHUNKS, Emitter};
use super::segments::{End, Segment, Segments, Step};
use super::select::Dest;
use crate::warp::WARP_LANES;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, InstBuilder, JumpTableData, MemFlagsData, Value, types,
};
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module};
use spvsass_isa::isa::PredSrc;
use spvsass_isa::program::INSTR_BYTES;
use std::mem::offset_of;
use std::path::Path;

/// Why a program has no native code (the interpreter then runs it all).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NativeError {
    #[error("the native tier does not support this host: {0}")]
    Host(String),
    #[error("Cranelift setting {0}")]
    Setting(String),
    #[error("translating the program failed: {0}")]
    Codegen(String),
}

/// What the native function leaves with (`Frame::scheduler`).
pub(crate) mod leaving {
    /// The interpreter goes on at `Frame::pc`.
    pub const STOP: u32 = 0;
    /// The group reached the other ready lanes' pc: the scheduler picks.
    pub const SCHEDULER: u32 = 1;
    /// The segment at `Frame::pc` (for the group `Frame::active`, with
    /// the pending groups of the frame) is in another piece: its function
    /// goes on from there.
    pub const ELSEWHERE: u32 = 2;
}

/// The segments of each copy (`held[group][segment]`) one native function
/// holds. A jump to a segment another function holds leaves it
/// (`leaving::ELSEWHERE`) and the caller calls that one.
#[derive(Debug)]
pub(crate) struct Piece {
    held: [Vec<bool>; 2],
}

/// Which copies of the segments a set of functions holds, by `Group`.
pub(crate) type Copies = [bool; 2];

/// The full-warp copy alone.
pub(crate) const FULL: Copies = [true, false];

/// Per copy (full warp, fewer lanes) the set `copies` holds, and segment:
/// the index of the function holding it among the set's (`split`).
pub(crate) fn home(segs: &Segments, workers: usize, copies: Copies) -> [Option<Vec<u32>>; 2] {
    let pieces = split(segs, workers, copies);
    std::array::from_fn(|group| {
        copies[group].then(|| {
            let mut home = vec![0; segs.list.len()];
            for (p, piece) in pieces.iter().enumerate() {
                let held = &piece.held[group];
                for (j, _) in held.iter().enumerate().filter(|(_, h)| **h) {
                    home[j] = p as u32;
                }
            }
            home
        })
    })
}

/// Compiles the `copies` of the segments of a program in pieces (`split`)
/// for `how.workers` threads, each piece on a thread of its own: the
/// translation a first warp waits for is the largest piece's, not the
/// whole set's. The functions come in `home`'s order, each with the
/// module that owns its memory, and with them how many came from the
/// translation cache (`how.cache`).
pub(crate) fn compile(
    segs: &Segments,
    how: Translation,
    copies: Copies,
) -> Result<Functions, NativeError> {
    compile_with(segs, how, copies, false)?
        .ok_or_else(|| NativeError::Codegen("no function was made".into()))
}

/// The functions of a program's pieces (each with the module that owns
/// its memory) and how many came from the translation cache.
pub(crate) type Functions = (Vec<(JITModule, Entry)>, u64);

/// `compile`'s functions if the translation cache holds every one of them
/// under its piece's key (then no thread is started and no IR built, so
/// the caller may as well wait for them); `None` if it misses any, or
/// there is no cache.
pub(crate) fn compile_cached(
    segs: &Segments,
    how: Translation,
    copies: Copies,
) -> Result<Option<Functions>, NativeError> {
    compile_with(segs, how, copies, true)
}

/// `compile`, or with `cached_only` `compile_cached`.
fn compile_with(
    segs: &Segments,
    how: Translation,
    copies: Copies,
    cached_only: bool,
) -> Result<Option<Functions>, NativeError> {
    let pieces = split(segs, how.workers, copies);
    let cache = how.cache;
    // One host ISA for every piece, and the text of the segments, which
    // every piece's key covers, made once.
    let isa = host_isa()?;
    let segs_digest = cache.map(|_| disk_cache::text_digest(segs));
    let piece_of = |piece| Of {
        segs,
        segs_digest: segs_digest.as_ref(),
        piece,
        isa: &isa,
    };
    // The translation cache first, here, under the pieces' keys: a run
    // whose functions are all there starts no thread and builds no IR.
    let mut found = Vec::with_capacity(pieces.len());
    for piece in &pieces {
        found.push(match cache {
            Some(_) => compile_piece(piece_of(piece), cache, Mode::Lookup)?,
            None => None,
        });
    }
    if cached_only && found.iter().any(Option::is_none) {
        return Ok(None);
    }
    let missing: Vec<&Piece> = pieces
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_none())
        .map(|(p, _)| p)
        .collect();
    // (`Mode::Compile` always makes one.)
    let made = |piece| {
        compile_piece(piece_of(piece), cache, Mode::Compile)?
            .ok_or_else(|| NativeError::Codegen("no function was made".into()))
    };
    let failed = || NativeError::Codegen("a translating thread panicked".into());
    let mut compiled: std::vec::IntoIter<Result<Compiled, NativeError>> =
        std::thread::scope(|scope| {
            let Some((first, rest)) = missing.split_first() else {
                return Vec::new();
            };
            let spawned: Vec<_> = rest
                .iter()
                .map(|&piece| {
                    std::thread::Builder::new()
                        .name("spvsass-translate".into())
                        .spawn_scoped(scope, move || made(piece))
                        .map_err(|_| piece)
                })
                .collect();
            let mut all = vec![made(first)];
            for s in spawned {
                all.push(match s {
                    Ok(handle) => handle.join().unwrap_or_else(|_| Err(failed())),
                    // No thread to be had: here.
                    Err(piece) => made(piece),
                });
            }
            all
        })
        .into_iter();
    // In the pieces' order: what the cache held, else what was compiled.
    let compiled: Vec<Result<Compiled, NativeError>> = found
        .into_iter()
        .map(|f| match f {
            Some(c) => Ok(c),
            None => compiled.next().unwrap_or_else(|| Err(failed())),
        })
        .collect();
    let mut functions = Vec::with_capacity(compiled.len());
    let mut cached = 0;
    for c in compiled {
        let c = c?;
        cached += u64::from(c.cached);
        functions.push((c.module, c.entry));
    }
    Ok(Some((functions, cached)))
}

/// How `compile_piece` goes about a piece.
#[derive(Clone, Copy)]
enum Mode {
    /// Only looks the function up under the piece's key (no IR is built):
    /// `None` if the cache does not hold it.
    Lookup,
    /// Makes the function of a piece `Lookup` missed: from the cache
    /// where it holds it under the IR's key (then kept under the piece's
    /// too), else compiled (and kept under both keys).
    Compile,
}

/// One piece's function, and whether its code came from the translation
/// cache.
struct Compiled {
    module: JITModule,
    entry: Entry,
    cached: bool,
}

/// Most pieces a copy is cut into.
const PARTS: usize = 4;

/// The pieces of the `copies`: for one worker, one holding them all (a
/// group going from one copy to the other stays in the function); else
/// each copy apart, cut into up to `min(PARTS, workers / 2)` runs of
/// segments of about equal instruction counts, only where no segment
/// after the cut goes on at one before it (a branch, a fall through or a
/// split's other half), so that a loop stays in one function and only
/// forward moves cross pieces.
fn split(segs: &Segments, workers: usize, copies: Copies) -> Vec<Piece> {
    let n = segs.list.len();
    let parts = workers.div_ceil(2).min(PARTS);
    if workers <= 1 {
        return vec![Piece {
            held: copies.map(|c| vec![c; n]),
        }];
    }
    let piece = |group: usize, range: &[usize]| {
        let mut held = [vec![false; n], vec![false; n]];
        held[group][range[0]..range[1]].fill(true);
        Piece { held }
    };
    let seg_at = |i: usize| segs.at.get(i).copied().flatten().map(|j| j as usize);
    // The lowest segment each goes on at.
    let lowest: Vec<usize> = segs
        .list
        .iter()
        .enumerate()
        .map(|(j, seg)| {
            let onward = match seg.bra {
                None => vec![seg.next],
                Some((index, End::Bra(target), _)) => {
                    vec![index + 1, (target / INSTR_BYTES) as usize]
                }
                Some((index, End::Bsync(_), _)) => vec![index + 1],
            };
            onward
                .into_iter()
                .filter_map(seg_at)
                .min()
                .unwrap_or(j)
                .min(j)
        })
        .collect();
    // A cut before segment c is allowed when nothing from c on goes below c.
    let mut below = vec![usize::MAX; n + 1];
    for c in (0..n).rev() {
        below[c] = below[c + 1].min(lowest[c]);
    }
    let sizes: Vec<usize> = segs.list.iter().map(Segment::len).collect();
    let target = sizes.iter().sum::<usize>().div_ceil(parts);
    let mut cuts = vec![0];
    let mut run = 0;
    for c in 1..n {
        run += sizes[c - 1];
        if run >= target && below[c] >= c && cuts.len() < parts {
            cuts.push(c);
            run = 0;
        }
    }
    cuts.push(n);
    let groups = (0..copies.len()).filter(|&g| copies[g]);
    groups
        .flat_map(|g| cuts.windows(2).map(move |r| piece(g, r)))
        .collect()
}

/// What `compile_piece` makes a function of: the piece of the segments
/// (with the digest of their text for the piece's key, where a cache is
/// used), and the host ISA shared by all pieces.
#[derive(Clone, Copy)]
struct Of<'a> {
    segs: &'a Segments,
    segs_digest: Option<&'a disk_cache::Key>,
    piece: &'a Piece,
    isa: &'a cranelift_codegen::isa::OwnedTargetIsa,
}

/// The host's ISA with the translation's settings: made by the first
/// translation of the process (finding the host's features and building
/// the ISA took about a tenth of a translation from the cache), shared by
/// the later ones.
pub(super) fn host_isa() -> Result<cranelift_codegen::isa::OwnedTargetIsa, NativeError> {
    static HOST: std::sync::OnceLock<cranelift_codegen::isa::OwnedTargetIsa> =
        std::sync::OnceLock::new();
    if let Some(isa) = HOST.get() {
        return Ok(isa.clone());
    }
    // A failure is not kept: the next translation tries again.
    let isa = make_host_isa()?;
    Ok(HOST.get_or_init(|| isa).clone())
}

/// `host_isa`, made.
fn make_host_isa() -> Result<cranelift_codegen::isa::OwnedTargetIsa, NativeError> {
    let mut flags = settings::builder();
    // The IR verifier checks the translator in debug builds (the tests);
    // release builds skip it to translate faster.
    let verify = if cfg!(debug_assertions) {
        "true"
    } else {
        "false"
    };
    for (name, value) in [
        // Measured on the ALU kernel: "none" or the single-pass register
        // allocator translate faster but run it over twice as slowly.
        ("opt_level", "speed"),
        ("is_pic", "false"),
        ("use_colocated_libcalls", "false"),
        ("enable_verifier", verify),
    ] {
        flags
            .set(name, value)
            .map_err(|e| NativeError::Setting(format!("{name}={value}: {e}")))?;
    }
    cranelift_native::builder()
        .map_err(|e| NativeError::Host(e.to_string()))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| NativeError::Host(e.to_string()))
}

/// Compiles one piece's function, or takes its code from the translation
/// cache in `cache` (where it is also kept once compiled: `disk_cache`),
/// as `mode` says; `None` only for a `Mode::Lookup` that missed.
fn compile_piece(
    of: Of<'_>,
    cache: Option<&Path>,
    mode: Mode,
) -> Result<Option<Compiled>, NativeError> {
    let Of {
        segs,
        segs_digest,
        piece,
        isa,
    } = of;
    // SPVSASS_NATIVE_DISASM=1: each function's host code, as Cranelift
    // lists it, to standard error (ARCHITECTURE.md, "Native tier").
    // (A listing asks for the compile: the cache is not read then.)
    let disasm = std::env::var_os("SPVSASS_NATIVE_DISASM").is_some();
    let cache = cache.filter(|_| !disasm);
    // First the key of the segments and the piece (`disk_cache::piece_key`):
    // a hit needs no IR at all, and a lookup that misses makes no module.
    let piece_key = cache
        .zip(segs_digest)
        .map(|(dir, digest)| (dir, disk_cache::piece_key(&**isa, digest, piece)));
    let mut hit = match mode {
        Mode::Lookup => match piece_key.and_then(|(dir, key)| disk_cache::load(dir, &key)) {
            None => return Ok(None),
            found => found,
        },
        Mode::Compile => None,
    };
    let mut module = JITModule::new(JITBuilder::with_isa(
        isa.clone(),
        cranelift_module::default_libcall_names(),
    ));
    let mut ctx = module.make_context();
    let pointer = module.target_config().pointer_type();
    ctx.func.signature.params.push(AbiParam::new(pointer));
    let codegen = |e: cranelift_module::ModuleError| NativeError::Codegen(format!("{e:?}"));
    let id = module
        .declare_function("converged", Linkage::Local, &ctx.func.signature)
        .map_err(codegen)?;
    // Else the IR, and the key of the IR itself.
    let mut ir_key = None;
    if hit.is_none() {
        let mut fbc = FunctionBuilderContext::new();
        let config = module.target_config();
        build(
            FunctionBuilder::new(&mut ctx.func, &mut fbc),
            config,
            segs,
            piece,
        );
        ctx.set_disasm(disasm);
        ir_key = cache.map(|dir| (dir, disk_cache::key(module.isa(), &ctx.func)));
        hit = ir_key.and_then(|(dir, key)| disk_cache::load(dir, &key));
        // Found under the IR's key only: kept under the piece's too.
        if let (Some(found), Some((dir, key))) = (&hit, piece_key) {
            disk_cache::store(dir, &key, found.alignment, &found.code);
        }
    }
    let cached = hit.is_some();
    match hit {
        Some(hit) => module
            .define_function_bytes(id, u64::from(hit.alignment), &hit.code, &[])
            .map_err(codegen)?,
        None => {
            module.define_function(id, &mut ctx).map_err(codegen)?;
            if let Some(listing) = ctx.compiled_code().and_then(|c| c.vcode.as_deref()) {
                eprintln!("// native tier: host code of one function\n{listing}");
            }
            // Code with relocations would need them applied again: not kept.
            if let Some(code) = ctx.compiled_code()
                && code.buffer.relocs().is_empty()
            {
                for (dir, key) in [ir_key, piece_key].into_iter().flatten() {
                    disk_cache::store(dir, &key, code.buffer.alignment, code.code_buffer());
                }
            }
        }
    }
    module.clear_context(&mut ctx);
    module.finalize_definitions().map_err(codegen)?;
    let entry = Entry(module.get_finalized_function(id) as usize);
    Ok(Some(Compiled {
        module,
        entry,
        cached,
    }))
}

/// Frame fields, read through the frame pointer.
fn frame_flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// Pending groups a native call keeps at most (`Frame::pending`): a split
/// with all of them taken leaves the branch to the interpreter.
pub(crate) const PENDING: usize = 4;

/// Which copy of the segments: for a full warp, or for a group of fewer
/// lanes (`Frame::active`), whose writes keep the other lanes' values.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Full = 0,
    Partial = 1,
}

/// What the segment bodies share.
struct Shared {
    /// The register rows (`Frame::gpr`) and the pointer type.
    gpr: Value,
    pointer: types::Type,
    issued: Value,
    lanes: Value,
    counters: Value,
    segment_lanes: Value,
    barriers: Value,
    /// The smallest pc of the ready lanes outside the group and the
    /// pending group (`Frame::others`).
    others: Value,
    /// Lanes not exited, and the barriers the code must leave to the
    /// interpreter (`Frame::live`, `Frame::blocked`).
    live: Value,
    blocked: Value,
    /// The group's lanes (`Frame::active` on entry).
    act: Variable,
    /// The frame, whose `pending` and `pending_pc` hold the pending
    /// groups while the function runs (lanes split off the group, waiting
    /// at a higher pc, by pc; empty ones last, with no lanes and pc
    /// `u32::MAX`). Only splits and merges touch them, so they stay in
    /// memory rather than in values live across the whole function
    /// (which cost spills and translation time).
    frame: Value,
    /// The pc the group runs up to: the smaller of `others` and the first
    /// pending group's pc.
    limit: Variable,
    steps: Variable,
    /// The step limit (`Frame::max_steps`).
    max_steps: Value,
    exit: Block,
    /// Each segment's block, per `Group`, where this piece holds it.
    blocks: [Vec<Option<Block>>; 2],
    /// Runs the group at the pc it is given, per `Group` copy (one search
    /// over the held segments' pcs each, `run_at_pc`, shared by every
    /// place that needs it).
    run_at: [Block; 2],
    /// The scheduler's pick at the pc it is given, where a group reached
    /// `limit` (`resolve`): one block shared by every segment end, so the
    /// rarely taken merging and swapping of groups is made once per
    /// function, not once per branch.
    resolve: Block,
}

/// Builds the function body.
fn build(mut b: FunctionBuilder<'_>, config: TargetFrontendConfig, segs: &Segments, piece: &Piece) {
    let pointer = config.pointer_type();
    let start = b.create_block();
    b.append_block_params_for_function_params(start);
    b.switch_to_block(start);
    let frame = b.block_params(start)[0];
    let field = |b: &mut FunctionBuilder<'_>, ty, offset: usize| {
        b.ins().load(ty, frame_flags(), frame, offset as i32)
    };
    let gpr = field(&mut b, pointer, offset_of!(Frame, gpr));
    let preds_ptr = field(&mut b, pointer, offset_of!(Frame, preds));
    let consts = field(&mut b, pointer, offset_of!(Frame, consts));
    let issued = field(&mut b, pointer, offset_of!(Frame, issued));
    let lanes = field(&mut b, pointer, offset_of!(Frame, lanes));
    let counters = field(&mut b, pointer, offset_of!(Frame, segments));
    let segment_lanes = field(&mut b, pointer, offset_of!(Frame, segment_lanes));
    let barriers = field(&mut b, pointer, offset_of!(Frame, barriers));
    let active = field(&mut b, types::I32, offset_of!(Frame, active));
    let steps0 = field(&mut b, types::I64, offset_of!(Frame, steps));
    let max_steps = field(&mut b, types::I64, offset_of!(Frame, max_steps));
    let others = field(&mut b, types::I32, offset_of!(Frame, others));
    let live = field(&mut b, types::I32, offset_of!(Frame, live));
    let blocked = field(&mut b, types::I32, offset_of!(Frame, blocked));
    let entry = field(&mut b, types::I32, offset_of!(Frame, entry));
    let steps = b.declare_var(types::I64);
    b.def_var(steps, steps0);
    let var = |b: &mut FunctionBuilder<'_>, v: Value| {
        let x = b.declare_var(types::I32);
        b.def_var(x, v);
        x
    };
    let zero = b.ins().iconst(types::I32, 0);
    let act = var(&mut b, active);
    // The pending groups the caller passes (from another piece; none on
    // a first call) stay in the frame.
    let first_pc = field(&mut b, types::I32, offset_of!(Frame, pending_pc));
    let first = b.ins().umin(first_pc, others);
    let limit = var(&mut b, first);
    let preds: [Variable; 7] = std::array::from_fn(|n| {
        let bits = b
            .ins()
            .load(types::I32, frame_flags(), preds_ptr, 4 * n as i32);
        var(&mut b, bits)
    });

    let exit = b.create_block();
    b.append_block_param(exit, types::I32);
    b.append_block_param(exit, types::I32);
    let blocks: [Vec<Option<Block>>; 2] = std::array::from_fn(|g| {
        piece.held[g]
            .iter()
            .map(|&h| h.then(|| b.create_block()))
            .collect()
    });
    // Entries without arguments (see `run_at_pc`): one way out.
    let nothing = b.create_block();
    let tables = [Group::Full, Group::Partial].map(|group| {
        let dispatch = b.create_block();
        let default = b.func.dfg.block_call(nothing, &[]);
        let table: Vec<_> = blocks[group as usize]
            .iter()
            .map(|blk| match blk {
                Some(blk) => b.func.dfg.block_call(*blk, &[]),
                None => b.func.dfg.block_call(nothing, &[]),
            })
            .collect();
        let jt = b.create_jump_table(JumpTableData::new(default, &table));
        (dispatch, jt)
    });
    let full = b.ins().icmp_imm_s(IntCC::Equal, active, -1);
    b.ins().brif(full, tables[0].0, &[], tables[1].0, &[]);
    for (dispatch, jt) in tables {
        b.switch_to_block(dispatch);
        b.ins().br_table(entry, jt);
    }
    b.switch_to_block(nothing);
    b.ins()
        .jump(exit, &[BlockArg::Value(zero), BlockArg::Value(zero)]);

    let run_at = [(); 2].map(|()| {
        let blk = b.create_block();
        b.append_block_param(blk, types::I32);
        blk
    });
    let resolve_block = b.create_block();
    b.append_block_param(resolve_block, types::I32);
    let shared = Shared {
        gpr,
        pointer,
        issued,
        lanes,
        counters,
        segment_lanes,
        barriers,
        others,
        live,
        blocked,
        act,
        frame,
        limit,
        steps,
        max_steps,
        exit,
        blocks,
        run_at,
        resolve: resolve_block,
    };
    for group in [Group::Full, Group::Partial] {
        for (j, seg) in segs.list.iter().enumerate() {
            if !piece.held[group as usize][j] {
                continue;
            }
            let mut e = Emitter {
                b: &mut b,
                base: gpr,
                shift: zero,
                consts,
                preds,
                preds_ptr,
                rows: Default::default(),
                pred_chunks: Default::default(),
                pred_words: Default::default(),
                pred_fixed: Default::default(),
                loaded: Vec::new(),
            };
            segment(&mut e, &shared, segs, group, j, seg);
        }
    }

    // Per copy, the segment at a pc, or the exit where none starts.
    for group in [Group::Full, Group::Partial] {
        run_at_pc(&mut b, &shared, segs, group);
    }
    b.switch_to_block(resolve_block);
    let pc = b.block_params(resolve_block)[0];
    resolve(&mut b, &shared, pc);

    // The exit: steps, predicates, the group, where it stopped and the
    // pending group.
    b.switch_to_block(exit);
    let pc = b.block_params(exit)[0];
    let scheduler = b.block_params(exit)[1];
    let flags = frame_flags();
    let store = |b: &mut FunctionBuilder<'_>, v: Value, offset: usize| {
        b.ins().store(flags, v, frame, offset as i32);
    };
    let steps = b.use_var(shared.steps);
    store(&mut b, steps, offset_of!(Frame, steps));
    store(&mut b, pc, offset_of!(Frame, pc));
    store(&mut b, scheduler, offset_of!(Frame, scheduler));
    let act = b.use_var(shared.act);
    store(&mut b, act, offset_of!(Frame, active));
    for (n, &v) in preds.iter().enumerate() {
        let bits = b.use_var(v);
        b.ins().store(flags, bits, preds_ptr, 4 * n as i32);
    }
    b.ins().return_(&[]);
    b.seal_all_blocks();
    b.finalize(config);
}

/// The body of `run_at[group]`: a search over the pcs of the `group`
/// copy's segments this function holds, to the one starting at the pc,
/// or else the exit with `leaving::ELSEWHERE` (the caller goes on in the
/// function holding a segment there, or in the interpreter where none
/// starts). Compares, not a jump table over every instruction: a table
/// entry costs an edge block of its own in Cranelift, most of them going
/// nowhere, and the translation's time grows with them.
fn run_at_pc(b: &mut FunctionBuilder<'_>, s: &Shared, segs: &Segments, group: Group) {
    let block = s.run_at[group as usize];
    b.switch_to_block(block);
    let pc = b.block_params(block)[0];
    let held: Vec<(u32, Block)> = segs
        .list
        .iter()
        .zip(&s.blocks[group as usize])
        .filter_map(|(seg, blk)| blk.map(|blk| (seg.pc(), blk)))
        .collect();
    let miss = b.create_block();
    search(b, pc, &held, miss);
    b.switch_to_block(miss);
    let how = b.ins().iconst(types::I32, i64::from(leaving::ELSEWHERE));
    leave(b, s, pc, how);
}

/// Jumps to the block of `pc` among `items` (sorted by pc), else to
/// `miss`: halving by compares down to a few, then one compare each.
fn search(b: &mut FunctionBuilder<'_>, pc: Value, items: &[(u32, Block)], miss: Block) {
    if items.len() > 3 {
        let (low, high) = items.split_at(items.len() / 2);
        let bound = b.ins().iconst(types::I32, i64::from(high[0].0 as i32));
        let below = b.ins().icmp(IntCC::UnsignedLessThan, pc, bound);
        let [left, right] = [(); 2].map(|()| b.create_block());
        b.ins().brif(below, left, &[], right, &[]);
        for (blk, half) in [(left, low), (right, high)] {
            b.switch_to_block(blk);
            search(b, pc, half, miss);
        }
        return;
    }
    for &(at, target) in items {
        let at = b.ins().iconst(types::I32, i64::from(at as i32));
        let here = b.ins().icmp(IntCC::Equal, pc, at);
        let next = b.create_block();
        b.ins().brif(here, target, &[], next, &[]);
        b.switch_to_block(next);
    }
    b.ins().jump(miss, &[]);
}

/// Jumps to the exit with `pc` and whether it reached the other lanes.
fn leave(b: &mut FunctionBuilder<'_>, s: &Shared, pc: Value, scheduler: Value) {
    b.ins()
        .jump(s.exit, &[BlockArg::Value(pc), BlockArg::Value(scheduler)]);
}

/// Adds `n` to the u64 at `base + 8 * index`.
fn add_at(b: &mut FunctionBuilder<'_>, base: Value, index: usize, n: Value) {
    let offset = 8 * index as i32;
    let old = b
        .ins()
        .load(types::I64, MemFlagsData::trusted(), base, offset);
    let new = b.ins().iadd(old, n);
    b.ins().store(MemFlagsData::trusted(), new, base, offset);
}

/// Adds `n` to the step count.
fn add_steps(b: &mut FunctionBuilder<'_>, s: &Shared, n: usize) {
    let old = b.use_var(s.steps);
    let new = b.ins().iadd_imm_u(old, n as i64);
    b.def_var(s.steps, new);
}

/// The group's lanes: all of them in the Full copy.
fn group_mask(b: &mut FunctionBuilder<'_>, s: &Shared, group: Group) -> Value {
    match group {
        Group::Full => b.ins().iconst(types::I32, -1),
        Group::Partial => b.use_var(s.act),
    }
}

/// The group's lane count (i64).
fn group_count(b: &mut FunctionBuilder<'_>, s: &Shared, group: Group) -> Value {
    match group {
        Group::Full => b.ins().iconst(types::I64, i64::from(WARP_LANES)),
        Group::Partial => {
            let act = b.use_var(s.act);
            let n = b.ins().popcnt(act);
            b.ins().uextend(types::I64, n)
        }
    }
}

/// Goes on at instruction `next` as the scheduler would: below `limit`,
/// that segment (or the exit, where none starts); else `resolve`.
fn goto(b: &mut FunctionBuilder<'_>, s: &Shared, segs: &Segments, group: Group, next: usize) {
    let pc_value = next as u32 * INSTR_BYTES;
    let pc = b.ins().iconst(types::I32, i64::from(pc_value as i32));
    let limit = b.use_var(s.limit);
    let reached = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, pc, limit);
    let go = b.create_block();
    let stop = b.create_block();
    b.ins().brif(reached, stop, &[], go, &[]);
    b.switch_to_block(go);
    jump_to(b, s, segs, group, next, pc);
    b.switch_to_block(stop);
    b.ins().jump(s.resolve, &[BlockArg::Value(pc)]);
}

/// Runs the segment at instruction `next` (pc `pc`) in the `group` copy,
/// or leaves where none starts.
fn jump_to(
    b: &mut FunctionBuilder<'_>,
    s: &Shared,
    segs: &Segments,
    group: Group,
    next: usize,
    pc: Value,
) {
    match segs.at.get(next).copied().flatten() {
        Some(t) => match s.blocks[group as usize][t as usize] {
            Some(block) => {
                b.ins().jump(block, &[]);
            }
            None => {
                let elsewhere = b.ins().iconst(types::I32, i64::from(leaving::ELSEWHERE));
                leave(b, s, pc, elsewhere);
            }
        },
        None => {
            let stop = b.ins().iconst(types::I32, i64::from(leaving::STOP));
            leave(b, s, pc, stop);
        }
    }
}

/// The body of the `resolve` block: the group reached `limit` at pc `pc`,
/// the scheduler's next pick. When the first pending group is below every
/// other ready lane, the group merges with it if both are at one pc, or
/// else (the pending group's pc is below) waits as a pending group while
/// that one runs; otherwise the function returns (`Frame::scheduler`).
fn resolve(b: &mut FunctionBuilder<'_>, s: &Shared, pc: Value) {
    let (first, first_pc) = pend(b, s, 0);
    // An empty slot's pc, u32::MAX, is never below `others`.
    let ours = b.ins().icmp(IntCC::UnsignedLessThan, first_pc, s.others);
    let pending = b.create_block();
    let out = b.create_block();
    b.ins().brif(ours, pending, &[], out, &[]);
    b.switch_to_block(out);
    let one = b.ins().iconst(types::I32, 1);
    leave(b, s, pc, one);

    b.switch_to_block(pending);
    let same = b.ins().icmp(IntCC::Equal, pc, first_pc);
    let merge = b.create_block();
    let swap = b.create_block();
    b.ins().brif(same, merge, &[], swap, &[]);

    // Both at `pc`: one group, which runs up to the next pending one.
    b.switch_to_block(merge);
    let act = b.use_var(s.act);
    let joined = b.ins().bor(act, first);
    b.def_var(s.act, joined);
    pop_pending(b, s);
    let full = b.ins().icmp_imm_s(IntCC::Equal, joined, -1);
    let to_full = b.create_block();
    let to_partial = b.create_block();
    b.ins().brif(full, to_full, &[], to_partial, &[]);
    b.switch_to_block(to_full);
    b.ins()
        .jump(s.run_at[Group::Full as usize], &[BlockArg::Value(pc)]);
    b.switch_to_block(to_partial);
    b.ins()
        .jump(s.run_at[Group::Partial as usize], &[BlockArg::Value(pc)]);

    // The first pending group is below: it runs, this one waits at `pc`
    // (a slot is free: the runner's).
    b.switch_to_block(swap);
    let act = b.use_var(s.act);
    b.def_var(s.act, first);
    pop_pending(b, s);
    let zero = b.ins().iconst(types::I32, 0);
    let unreachable = b.create_block();
    push_pending(b, s, act, pc, unreachable);
    b.ins().jump(
        s.run_at[Group::Partial as usize],
        &[BlockArg::Value(first_pc)],
    );
    // Every slot taken cannot happen here: the pop freed the last one.
    b.switch_to_block(unreachable);
    leave(b, s, first_pc, zero);
}

/// Where pending group `i`'s lanes and pc are in the frame
/// (`Frame::pending`, `Frame::pending_pc`).
fn pend_at(i: usize) -> [i32; 2] {
    [offset_of!(Frame, pending), offset_of!(Frame, pending_pc)].map(|o| (o + 4 * i) as i32)
}

/// Pending group `i`: its lanes and its pc.
fn pend(b: &mut FunctionBuilder<'_>, s: &Shared, i: usize) -> (Value, Value) {
    let [m, p] = pend_at(i).map(|at| b.ins().load(types::I32, frame_flags(), s.frame, at));
    (m, p)
}

/// Sets pending group `i` to lanes `mask` at pc `pc`.
fn set_pend(b: &mut FunctionBuilder<'_>, s: &Shared, i: usize, mask: Value, pc: Value) {
    let [m, p] = pend_at(i);
    b.ins().store(frame_flags(), mask, s.frame, m);
    b.ins().store(frame_flags(), pc, s.frame, p);
}

/// Drops the first pending group (the others move up) and sets `limit`.
fn pop_pending(b: &mut FunctionBuilder<'_>, s: &Shared) {
    for i in 0..PENDING - 1 {
        let (m, pc) = pend(b, s, i + 1);
        set_pend(b, s, i, m, pc);
    }
    let zero = b.ins().iconst(types::I32, 0);
    let nowhere = b.ins().iconst(types::I32, -1);
    set_pend(b, s, PENDING - 1, zero, nowhere);
    set_limit(b, s);
}

/// `limit`: the first pending group's pc or `others`, the smaller.
fn set_limit(b: &mut FunctionBuilder<'_>, s: &Shared) {
    let (_, first_pc) = pend(b, s, 0);
    let limit = b.ins().umin(first_pc, s.others);
    b.def_var(s.limit, limit);
}

/// Adds the lanes `mask` at pc `at` to the pending groups: to the one at
/// that pc, or as a new one in pc order; jumps to `full` (nothing changed)
/// when every slot is taken, else goes on in a new current block. Sets
/// `limit`.
fn push_pending(b: &mut FunctionBuilder<'_>, s: &Shared, mask: Value, at: Value, full: Block) {
    let (m, pc): (Vec<Value>, Vec<Value>) = (0..PENDING).map(|i| pend(b, s, i)).unzip();
    let eq: Vec<Value> = pc
        .iter()
        .map(|&p| b.ins().icmp(IntCC::Equal, p, at))
        .collect();
    let found = eq[1..].iter().fold(eq[0], |f, &e| b.ins().bor(f, e));
    let join = b.create_block();
    let add = b.create_block();
    let fresh = b.create_block();
    let done = b.create_block();
    b.ins().brif(found, join, &[], fresh, &[]);

    b.switch_to_block(join);
    for i in 0..PENDING {
        let with = b.ins().bor(m[i], mask);
        let v = b.ins().select(eq[i], with, m[i]);
        set_pend(b, s, i, v, pc[i]);
    }
    b.ins().jump(done, &[]);

    b.switch_to_block(fresh);
    let last_free = b.ins().icmp_imm_u(IntCC::Equal, m[PENDING - 1], 0);
    b.ins().brif(last_free, add, &[], full, &[]);

    // Slots below `at` stay, `at` goes in at the first slot above it, the
    // rest move down one.
    b.switch_to_block(add);
    let below: Vec<Value> = pc
        .iter()
        .map(|&p| b.ins().icmp(IntCC::UnsignedLessThan, p, at))
        .collect();
    for i in 0..PENDING {
        let (shifted_m, shifted_pc) = if i == 0 {
            (mask, at)
        } else {
            let here = below[i - 1];
            (
                b.ins().select(here, mask, m[i - 1]),
                b.ins().select(here, at, pc[i - 1]),
            )
        };
        let new_m = b.ins().select(below[i], m[i], shifted_m);
        let new_pc = b.ins().select(below[i], pc[i], shifted_pc);
        set_pend(b, s, i, new_m, new_pc);
    }
    b.ins().jump(done, &[]);

    b.switch_to_block(done);
    set_limit(b, s);
}

/// The code of segment `j`.
fn segment(
    e: &mut Emitter<'_, '_>,
    s: &Shared,
    segs: &Segments,
    group: Group,
    j: usize,
    seg: &Segment,
) {
    let Some(block) = s.blocks[group as usize][j] else {
        return;
    };
    e.b.switch_to_block(block);
    // The checks: the step limit for all of it, the highest instruction's pc
    // below the limit, and no BSSY on a barrier left to the interpreter.
    let n = seg.len();
    let start_pc = e.b.ins().iconst(types::I32, i64::from(seg.pc() as i32));
    let zero = e.b.ins().iconst(types::I32, 0);
    let steps = e.b.use_var(s.steps);
    let after = e.b.ins().iadd_imm_u(steps, n as i64);
    let fits =
        e.b.ins()
            .icmp(IntCC::UnsignedLessThanOrEqual, after, s.max_steps);
    let last =
        e.b.ins()
            .iconst(types::I32, i64::from(seg.last_pc() as i32));
    let limit = e.b.use_var(s.limit);
    let below = e.b.ins().icmp(IntCC::UnsignedLessThan, last, limit);
    let mut go = e.b.ins().band(fits, below);
    let bars = seg.bssy_bars();
    if bars != 0 {
        let hit = e.b.ins().band_imm_u(s.blocked, i64::from(bars));
        let free = e.b.ins().icmp_imm_u(IntCC::Equal, hit, 0);
        go = e.b.ins().band(go, free);
    }
    let body = e.b.create_block();
    let stop = e.b.create_block();
    e.b.ins().brif(go, body, &[], stop, &[]);
    e.b.switch_to_block(stop);
    leave(e.b, s, start_pc, zero);
    e.b.switch_to_block(body);
    add_steps(e.b, s, seg.alu.len());
    let one = e.b.ins().iconst(types::I64, 1);
    add_at(e.b, s.counters, j, one);
    let group_lanes = group_count(e.b, s, group);
    add_at(e.b, s.segment_lanes, j, group_lanes);

    // BSSY: the barrier records the group's lanes, whatever the guard.
    for (_, step, _) in &seg.alu {
        if let Step::Bssy(bar) = step {
            let lanes = group_mask(e.b, s, group);
            e.b.ins().store(
                MemFlagsData::trusted(),
                lanes,
                s.barriers,
                4 * i32::from(*bar),
            );
        }
    }
    // The ops chunk by chunk (`emit`; unrolled: a loop over the chunks
    // translated about a third faster but ran the ALU kernel about a
    // fifth slower); a guarded op's executing lanes are counted per chunk
    // (the guard may change within the segment) and added once.
    let guarded: Vec<Option<Variable>> = seg
        .alu
        .iter()
        .map(|(_, _, guard)| {
            (!emit::always(*guard)).then(|| {
                let v = e.b.declare_var(types::I32);
                let zero = e.b.ins().iconst(types::I32, 0);
                e.b.def_var(v, zero);
                v
            })
        })
        .collect();
    // The full-warp copy computes the ops marked `once` (uniform sources:
    // every lane's result is the same) first, on chunk 0's lanes of the
    // rows as the segment finds them; every chunk takes their results.
    // The rows it loaded hold the values the segment starts with, the
    // same in every lane: each chunk starts from them too.
    let mut once: Vec<Option<(emit::Result, Option<Value>)>> = vec![None; seg.alu.len()];
    let mut entry_rows = Vec::new();
    if group == Group::Full && seg.once.contains(&true) {
        e.shift = e.b.ins().iconst(types::I32, 0);
        e.base = s.gpr;
        e.loaded.clear();
        for (((_, step, _), &marked), result) in seg.alu.iter().zip(&seg.once).zip(&mut once) {
            if let (Step::Alu(op), true) = (step, marked) {
                let r = emit::alu(e, op);
                emit::write(e, op.dst, r, None);
                *result = Some((r, emit::uniform_word(e, r)));
            }
        }
        // Nothing is stored: the chunks store the results.
        entry_rows = std::mem::take(&mut e.loaded);
        e.rows.clear();
        e.pred_chunks.clear();
    }
    for k in 0..CHUNKS {
        // The chunk as values (`Emitter::base`, `Emitter::shift`);
        // constants here, which Cranelift folds into addresses and shifts.
        let k = e.b.ins().iconst(types::I32, k as i64);
        e.shift = e.b.ins().ishl_imm_u(k, 2);
        let bytes = e.b.ins().ishl_imm_u(k, 4);
        let bytes = e.b.ins().uextend(s.pointer, bytes);
        e.base = e.b.ins().iadd(s.gpr, bytes);
        emit::seed_rows(e, &entry_rows);
        for (((_, step, guard), count), once) in seg.alu.iter().zip(&guarded).zip(&once) {
            if let (Step::Alu(op), Some((r, word))) = (step, once) {
                emit::write_once(e, op.dst, *r, *word);
                continue;
            }
            let exec = exec_chunk(e, s, group, *guard);
            if let (Some(count), Some(exec)) = (count, exec) {
                let here = e.b.ins().vhigh_bits(types::I32, exec);
                let n = e.b.ins().popcnt(here);
                let sum = e.b.use_var(*count);
                let sum = e.b.ins().iadd(sum, n);
                e.b.def_var(*count, sum);
            }
            let op = match step {
                Step::Alu(op) if op.dst != Dest::Drop => op,
                Step::Alu(_) | Step::Bssy(_) | Step::Jump => continue,
            };
            let r = emit::alu(e, op);
            // A predicate written by an unguarded op of a group of fewer
            // lanes takes every lane of the chunk: the lanes outside the
            // group are never read before `end_preds` puts their old bits
            // back (rows are stored per chunk, so they are blended here).
            let exec = match (op.dst, group) {
                (Dest::Pred(_), Group::Partial) if emit::always(*guard) => None,
                _ => exec,
            };
            emit::write(e, op.dst, r, exec);
        }
        emit::store_rows(e);
    }
    let act = match group {
        Group::Full => None,
        Group::Partial => Some(e.b.use_var(s.act)),
    };
    emit::end_preds(e, act);
    for ((index, _, _), count) in seg.alu.iter().zip(guarded) {
        if let Some(count) = count {
            let count = e.b.use_var(count);
            let count = e.b.ins().uextend(types::I64, count);
            add_at(e.b, s.lanes, *index, count);
        }
    }

    match seg.bra {
        None => goto(e.b, s, segs, group, seg.next),
        Some((index, End::Bra(target), guard)) => branch(e, s, segs, group, index, target, guard),
        Some((index, End::Bsync(bar), guard)) => bsync(e, s, segs, group, index, bar, guard),
    }
}

/// Counts one issue of instruction `index` with `lanes` executing lanes.
fn count_issue(b: &mut FunctionBuilder<'_>, s: &Shared, index: usize, lanes: Value) {
    add_steps(b, s, 1);
    let one = b.ins().iconst(types::I64, 1);
    add_at(b, s.issued, index, one);
    add_at(b, s.lanes, index, lanes);
}

/// A branch at instruction `index` to address `target`: taken when the
/// guard holds in every lane of the group, not taken when in none;
/// otherwise the group splits as the interpreter's scheduler splits it:
/// the lanes at the smaller pc run on, the others wait as a pending group
/// (joining the one waiting at that pc already). A split with every
/// pending slot taken leaves the branch to the interpreter.
fn branch(
    e: &mut Emitter<'_, '_>,
    s: &Shared,
    segs: &Segments,
    group: Group,
    index: usize,
    target: u32,
    guard: PredSrc,
) {
    let target = (target / INSTR_BYTES) as usize;
    let taken = e.b.create_block();
    let group_lanes = group_count(e.b, s, group);
    let Some(exec) = exec_mask(e, s, group, guard) else {
        // Every lane of the group: taken.
        e.b.ins().jump(taken, &[]);
        e.b.switch_to_block(taken);
        count_issue(e.b, s, index, group_lanes);
        goto(e.b, s, segs, group, target);
        return;
    };
    let act = group_mask(e.b, s, group);
    let all = e.b.ins().icmp(IntCC::Equal, exec, act);
    let none_check = e.b.create_block();
    e.b.ins().brif(all, taken, &[], none_check, &[]);
    e.b.switch_to_block(none_check);
    let none = e.b.ins().icmp_imm_u(IntCC::Equal, exec, 0);
    let fall = e.b.create_block();
    let split = e.b.create_block();
    e.b.ins().brif(none, fall, &[], split, &[]);

    e.b.switch_to_block(split);
    let next = index + 1;
    if target == next {
        // Both halves at the next instruction: no split.
        let count = e.b.ins().popcnt(exec);
        let count = e.b.ins().uextend(types::I64, count);
        count_issue(e.b, s, index, count);
        goto(e.b, s, segs, group, next);
    } else {
        // The lanes at the smaller pc run, the others wait.
        let stay = e.b.ins().band_not(act, exec);
        let (run_mask, run_at, wait_mask, wait_at) = if target > next {
            (stay, next, exec, target)
        } else {
            (exec, target, stay, next)
        };
        let wait_pc = wait_at as u32 * INSTR_BYTES;
        let wait_pc = e.b.ins().iconst(types::I32, i64::from(wait_pc as i32));
        // No pending slot free: the interpreter runs the branch.
        let back = e.b.create_block();
        push_pending(e.b, s, wait_mask, wait_pc, back);
        let count = e.b.ins().popcnt(exec);
        let count = e.b.ins().uextend(types::I64, count);
        count_issue(e.b, s, index, count);
        e.b.def_var(s.act, run_mask);
        goto(e.b, s, segs, Group::Partial, run_at);

        e.b.switch_to_block(back);
        let pc = (index as u32 * INSTR_BYTES) as i32;
        let bra_pc = e.b.ins().iconst(types::I32, i64::from(pc));
        let zero = e.b.ins().iconst(types::I32, 0);
        leave(e.b, s, bra_pc, zero);
    }

    e.b.switch_to_block(fall);
    let zero = e.b.ins().iconst(types::I64, 0);
    count_issue(e.b, s, index, zero);
    goto(e.b, s, segs, group, index + 1);

    e.b.switch_to_block(taken);
    count_issue(e.b, s, index, group_lanes);
    goto(e.b, s, segs, group, target);
}

/// A BSYNC at instruction `index`: when the guard holds in every lane of
/// the group and every live lane the barrier expects is in it, the
/// interpreter would let the group wait and release it at once: it goes
/// on. Otherwise (or when the barrier is left to the interpreter) the
/// interpreter runs it.
fn bsync(
    e: &mut Emitter<'_, '_>,
    s: &Shared,
    segs: &Segments,
    group: Group,
    index: usize,
    bar: u8,
    guard: PredSrc,
) {
    let act = group_mask(e.b, s, group);
    let exec = exec_mask(e, s, group, guard).unwrap_or(act);
    let all = e.b.ins().icmp(IntCC::Equal, exec, act);
    let expected = e.b.ins().load(
        types::I32,
        MemFlagsData::trusted(),
        s.barriers,
        4 * i32::from(bar),
    );
    let expected = e.b.ins().band(expected, s.live);
    let missing = e.b.ins().band_not(expected, act);
    let complete = e.b.ins().icmp_imm_u(IntCC::Equal, missing, 0);
    let hit = e.b.ins().band_imm_u(s.blocked, 1 << bar);
    let free = e.b.ins().icmp_imm_u(IntCC::Equal, hit, 0);
    let ok = e.b.ins().band(all, complete);
    let ok = e.b.ins().band(ok, free);
    let pass = e.b.create_block();
    let back = e.b.create_block();
    e.b.ins().brif(ok, pass, &[], back, &[]);
    e.b.switch_to_block(back);
    let pc = (index as u32 * INSTR_BYTES) as i32;
    let here = e.b.ins().iconst(types::I32, i64::from(pc));
    let zero = e.b.ins().iconst(types::I32, 0);
    leave(e.b, s, here, zero);
    e.b.switch_to_block(pass);
    let count = group_count(e.b, s, group);
    count_issue(e.b, s, index, count);
    goto(e.b, s, segs, group, index + 1);
}

/// The lanes an instruction under `guard` executes (`Warp::pred_mask` of
/// the group); `None` for every lane of a full warp.
fn exec_mask(e: &mut Emitter<'_, '_>, s: &Shared, group: Group, guard: PredSrc) -> Option<Value> {
    match (group, emit::always(guard)) {
        (Group::Full, true) => None,
        (Group::Full, false) => Some(emit::pred_bits(e, guard)),
        (Group::Partial, true) => Some(e.b.use_var(s.act)),
        (Group::Partial, false) => {
            let held = emit::pred_bits(e, guard);
            let act = e.b.use_var(s.act);
            Some(e.b.ins().band(held, act))
        }
    }
}

/// The current chunk's lanes an instruction under `guard` executes, as an
/// i32x4 lane mask (`exec_mask` for one chunk, seeing the chunk's own
/// predicate writes); `None` for every lane of a full warp.
fn exec_chunk(e: &mut Emitter<'_, '_>, s: &Shared, group: Group, guard: PredSrc) -> Option<Value> {
    let act = |e: &mut Emitter<'_, '_>| {
        let act = e.b.use_var(s.act);
        emit::mask_chunk(e, act)
    };
    match (group, emit::always(guard)) {
        (Group::Full, true) => None,
        (Group::Full, false) => Some(emit::pred_vec(e, guard)),
        (Group::Partial, true) => Some(act(e)),
        (Group::Partial, false) => {
            let held = emit::pred_vec(e, guard);
            let act = act(e);
            Some(e.b.ins().band(held, act))
        }
    }
}
