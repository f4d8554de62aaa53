//! One native function per program: entered at any segment (a jump
//! table on `Frame::entry`), it runs segments for the group `Frame::active`
//! (two copies of the segments: one for a full warp, whose unguarded
//! writes store whole rows, one for a group of fewer lanes, whose writes
//! keep the other lanes' values) and keeps the converged path's
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
//! Inside a segment, register rows are kept in vector values: a row is
//! loaded from the warp's memory when the segment first reads it and
//! stored at the segment's end if the segment wrote it (`emit::store_rows`,
//! before the branch and every exit), so leaving at any segment boundary
//! needs no write-back; predicates are kept in variables and stored when
//! the function returns.

use super::call::{Entry, Frame};
use super::emit::{self, Emitter};
use super::segments::{Segment, Segments};
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

/// The compiled function and the module that owns its memory.
pub(crate) struct Compiled {
    pub module: JITModule,
    pub entry: Entry,
}

/// Compiles the segments of a program of `instrs` instructions.
pub(crate) fn compile(segs: &Segments) -> Result<Compiled, NativeError> {
    let mut flags = settings::builder();
    // The IR verifier checks the translator in debug builds (the tests);
    // release builds skip it to translate faster.
    let verify = if cfg!(debug_assertions) {
        "true"
    } else {
        "false"
    };
    for (name, value) in [
        ("opt_level", "speed"),
        ("is_pic", "false"),
        ("use_colocated_libcalls", "false"),
        ("enable_verifier", verify),
    ] {
        flags
            .set(name, value)
            .map_err(|e| NativeError::Setting(format!("{name}={value}: {e}")))?;
    }
    let isa = cranelift_native::builder()
        .map_err(|e| NativeError::Host(e.to_string()))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| NativeError::Host(e.to_string()))?;
    let mut module = JITModule::new(JITBuilder::with_isa(
        isa,
        cranelift_module::default_libcall_names(),
    ));
    let mut ctx = module.make_context();
    let pointer = module.target_config().pointer_type();
    ctx.func.signature.params.push(AbiParam::new(pointer));
    let mut fbc = FunctionBuilderContext::new();
    let config = module.target_config();
    build(FunctionBuilder::new(&mut ctx.func, &mut fbc), config, segs);
    let codegen = |e: cranelift_module::ModuleError| NativeError::Codegen(format!("{e:?}"));
    let id = module
        .declare_function("converged", Linkage::Local, &ctx.func.signature)
        .map_err(codegen)?;
    module.define_function(id, &mut ctx).map_err(codegen)?;
    module.clear_context(&mut ctx);
    module.finalize_definitions().map_err(codegen)?;
    let entry = Entry(module.get_finalized_function(id) as usize);
    Ok(Compiled { module, entry })
}

/// Frame fields, read through the frame pointer.
fn frame_flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// Which copy of the segments: for a full warp, or for a group of fewer
/// lanes (`Frame::active`), whose writes keep the other lanes' values.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Full = 0,
    Partial = 1,
}

/// What the segment bodies share.
struct Shared {
    frame: Value,
    issued: Value,
    lanes: Value,
    counters: Value,
    segment_lanes: Value,
    others: Value,
    /// The group's lanes, and their number (i64).
    active: Value,
    active_count: Value,
    steps: Variable,
    exit: Block,
    /// Each segment's block, per `Group`.
    blocks: [Vec<Block>; 2],
}

/// Builds the function body.
fn build(mut b: FunctionBuilder<'_>, config: TargetFrontendConfig, segs: &Segments) {
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
    let active = field(&mut b, types::I32, offset_of!(Frame, active));
    let active_count = b.ins().popcnt(active);
    let active_count = b.ins().uextend(types::I64, active_count);
    let steps0 = field(&mut b, types::I64, offset_of!(Frame, steps));
    let others = field(&mut b, types::I32, offset_of!(Frame, others));
    let entry = field(&mut b, types::I32, offset_of!(Frame, entry));
    let steps = b.declare_var(types::I64);
    b.def_var(steps, steps0);
    let preds: [Variable; 7] = std::array::from_fn(|n| {
        let v = b.declare_var(types::I32);
        let bits = b
            .ins()
            .load(types::I32, frame_flags(), preds_ptr, 4 * n as i32);
        b.def_var(v, bits);
        v
    });

    let exit = b.create_block();
    b.append_block_param(exit, types::I32);
    b.append_block_param(exit, types::I32);
    let blocks: [Vec<Block>; 2] =
        std::array::from_fn(|_| segs.list.iter().map(|_| b.create_block()).collect());
    let zero = b.ins().iconst(types::I32, 0);
    let args = [BlockArg::Value(zero), BlockArg::Value(zero)];
    let tables = [Group::Full, Group::Partial].map(|group| {
        let dispatch = b.create_block();
        let default = b.func.dfg.block_call(exit, &args);
        let table: Vec<_> = blocks[group as usize]
            .iter()
            .map(|&blk| b.func.dfg.block_call(blk, &[]))
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

    let shared = Shared {
        frame,
        issued,
        lanes,
        counters,
        segment_lanes,
        others,
        active,
        active_count,
        steps,
        exit,
        blocks,
    };
    for group in [Group::Full, Group::Partial] {
        for (j, seg) in segs.list.iter().enumerate() {
            let mut e = Emitter {
                b: &mut b,
                gpr,
                consts,
                preds,
                rows: Default::default(),
            };
            segment(&mut e, &shared, segs, group, j, seg);
        }
    }

    // The exit: steps, predicates and where the group stopped.
    b.switch_to_block(exit);
    let pc = b.block_params(exit)[0];
    let scheduler = b.block_params(exit)[1];
    let steps = b.use_var(shared.steps);
    let flags = frame_flags();
    b.ins()
        .store(flags, steps, frame, offset_of!(Frame, steps) as i32);
    b.ins()
        .store(flags, pc, frame, offset_of!(Frame, pc) as i32);
    b.ins()
        .store(flags, scheduler, frame, offset_of!(Frame, scheduler) as i32);
    for (n, &v) in preds.iter().enumerate() {
        let bits = b.use_var(v);
        b.ins().store(flags, bits, preds_ptr, 4 * n as i32);
    }
    b.ins().return_(&[]);
    b.seal_all_blocks();
    b.finalize(config);
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

/// Goes on at instruction `next`: leaves when the group reached the other
/// lanes' pc or the instruction starts no segment, else runs that segment.
fn goto(b: &mut FunctionBuilder<'_>, s: &Shared, segs: &Segments, group: Group, next: usize) {
    let pc_value = next as u32 * INSTR_BYTES;
    let pc = b.ins().iconst(types::I32, i64::from(pc_value as i32));
    let reached = b
        .ins()
        .icmp(IntCC::UnsignedGreaterThanOrEqual, pc, s.others);
    let scheduler = b.ins().uextend(types::I32, reached);
    match segs.at.get(next).copied().flatten() {
        Some(t) => {
            let stop = b.create_block();
            b.ins().brif(
                reached,
                stop,
                &[],
                s.blocks[group as usize][t as usize],
                &[],
            );
            b.switch_to_block(stop);
            leave(b, s, pc, scheduler);
        }
        None => leave(b, s, pc, scheduler),
    }
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
    e.b.switch_to_block(s.blocks[group as usize][j]);
    // The checks: the step limit for all of it, and the last instruction's
    // pc below the other lanes'.
    let n = seg.len();
    let start_pc = e.b.ins().iconst(types::I32, i64::from(seg.pc() as i32));
    let zero = e.b.ins().iconst(types::I32, 0);
    let steps = e.b.use_var(s.steps);
    let after = e.b.ins().iadd_imm_u(steps, n as i64);
    let max = e.b.ins().load(
        types::I64,
        frame_flags(),
        s.frame,
        offset_of!(Frame, max_steps) as i32,
    );
    let fits = e.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, after, max);
    let last_pc = seg.pc() + (n as u32 - 1) * INSTR_BYTES;
    let last = e.b.ins().iconst(types::I32, i64::from(last_pc as i32));
    let below = e.b.ins().icmp(IntCC::UnsignedLessThan, last, s.others);
    let go = e.b.ins().band(fits, below);
    let body = e.b.create_block();
    let stop = e.b.create_block();
    e.b.ins().brif(go, body, &[], stop, &[]);
    e.b.switch_to_block(stop);
    leave(e.b, s, start_pc, zero);
    e.b.switch_to_block(body);
    add_steps(e.b, s, seg.alu.len());
    let one = e.b.ins().iconst(types::I64, 1);
    add_at(e.b, s.counters, j, one);
    let group_lanes = match group {
        Group::Full => e.b.ins().iconst(types::I64, i64::from(WARP_LANES)),
        Group::Partial => s.active_count,
    };
    add_at(e.b, s.segment_lanes, j, group_lanes);

    for (index, op, guard) in &seg.alu {
        let exec = exec_mask(e, s, group, *guard);
        if !emit::always(*guard)
            && let Some(exec) = exec
        {
            let count = e.b.ins().popcnt(exec);
            let count = e.b.ins().uextend(types::I64, count);
            add_at(e.b, s.lanes, *index, count);
        }
        if op.dst == super::select::Dest::Drop {
            continue;
        }
        let r = emit::alu(e, op);
        emit::write(e, op.dst, r, exec);
    }
    emit::store_rows(e);

    match seg.bra {
        None => goto(e.b, s, segs, group, seg.next()),
        Some((index, target, guard)) => {
            let target = (target / INSTR_BYTES) as usize;
            let taken = e.b.create_block();
            let count = |b: &mut FunctionBuilder<'_>, lanes: Option<Value>| {
                add_steps(b, s, 1);
                let one = b.ins().iconst(types::I64, 1);
                add_at(b, s.issued, index, one);
                if let Some(l) = lanes {
                    add_at(b, s.lanes, index, l);
                }
            };
            let group_lanes = match group {
                Group::Full => e.b.ins().iconst(types::I64, i64::from(WARP_LANES)),
                Group::Partial => s.active_count,
            };
            match exec_mask(e, s, group, guard) {
                // Every lane of the group: taken.
                None => {
                    e.b.ins().jump(taken, &[]);
                }
                Some(exec) => {
                    let all = match group {
                        Group::Full => e.b.ins().icmp_imm_s(IntCC::Equal, exec, -1),
                        Group::Partial => e.b.ins().icmp(IntCC::Equal, exec, s.active),
                    };
                    let none_check = e.b.create_block();
                    e.b.ins().brif(all, taken, &[], none_check, &[]);
                    e.b.switch_to_block(none_check);
                    let none = e.b.ins().icmp_imm_u(IntCC::Equal, exec, 0);
                    let fall = e.b.create_block();
                    let split = e.b.create_block();
                    e.b.ins().brif(none, fall, &[], split, &[]);
                    e.b.switch_to_block(split);
                    let pc = (index as u32 * INSTR_BYTES) as i32;
                    let bra_pc = e.b.ins().iconst(types::I32, i64::from(pc));
                    let zero = e.b.ins().iconst(types::I32, 0);
                    leave(e.b, s, bra_pc, zero);
                    e.b.switch_to_block(fall);
                    count(e.b, None);
                    goto(e.b, s, segs, group, index + 1);
                }
            }
            e.b.switch_to_block(taken);
            count(e.b, Some(group_lanes));
            goto(e.b, s, segs, group, target);
        }
    }
}

/// The lanes an instruction under `guard` executes (`Warp::pred_mask` of
/// the group); `None` for every lane of a full warp.
fn exec_mask(e: &mut Emitter<'_, '_>, s: &Shared, group: Group, guard: PredSrc) -> Option<Value> {
    match (group, emit::always(guard)) {
        (Group::Full, true) => None,
        (Group::Full, false) => Some(emit::pred_bits(e, guard)),
        (Group::Partial, true) => Some(s.active),
        (Group::Partial, false) => {
            let held = emit::pred_bits(e, guard);
            Some(e.b.ins().band(held, s.active))
        }
    }
}
