//! Cranelift IR for one translated ALU op over one chunk of a warp: the
//! 32 lanes are eight i32x4 / f32x4 chunks of four lanes, and a segment
//! runs all its ops on one chunk before the next (`compile.rs`). Every op mirrors its
//! `eval` in the ISA crate step by step (source modifiers, .FTZ on inputs
//! and result, the canonical NaN 0x7fffffff, round to nearest even, the
//! total order FMNMX uses), so results are bit-identical; the
//! differential tests (`native/tests.rs`) hold the two to that. The ops
//! are those of `select::Translated`; which ops are left to the
//! interpreter is decided there alone.

use super::select::{Dest, NativeAlu, Operand, Translated};
use crate::warp::WARP_LANES;
use cranelift_codegen::ir::condcodes::{CondCode, FloatCC, IntCC};
use cranelift_codegen::ir::{ConstantData, Endianness, InstBuilder, MemFlagsData, Value, types};
use cranelift_frontend::{FunctionBuilder, Variable};
use spvsass_isa::isa::{
    ConvKind, FloatArith, FloatCmp, IntCmp, PredCombine, PredSrc, Reg, Round, Src,
};
use std::collections::BTreeMap;

/// Four-lane chunks of a row.
pub(crate) const CHUNKS: usize = WARP_LANES as usize / 4;
/// Bytes of one register row.
pub(crate) const ROW_BYTES: i32 = WARP_LANES as i32 * 4;

/// The values a translated function keeps while it runs.
pub(crate) struct Emitter<'f, 'b> {
    pub b: &'f mut FunctionBuilder<'b>,
    /// The current chunk of register row 0 (`Warp::gpr` plus 16 bytes per
    /// chunk): row `n`'s is `n` rows further.
    pub base: Value,
    /// The current chunk's first lane (an i32: 4 per chunk), the shift
    /// that brings its bits of a lane mask down to bits 0..4.
    pub shift: Value,
    /// Base of the constant-bank words read for the run.
    pub consts: Value,
    /// P0..P6 as lane masks, as they were when the segment began: a
    /// predicate the segment writes is set once its last chunk has run
    /// (`end_preds`); the chunks read their own writes from `pred_chunks`.
    pub preds: [Variable; 7],
    /// Where P0..P6 are kept (`Frame::preds`): the function's exit stores
    /// the masks there; `store_rows` stores the bits gathered so far of a
    /// predicate the segment writes too (see there).
    pub preds_ptr: Value,
    // The chunk the segment's ops are emitted for is `base` and `shift`:
    // a segment runs all its ops on chunk 0, then all on chunk 1, and so
    // on (every op is lane-wise; `compile.rs` emits them per chunk), so
    // only one chunk of each row is live at a time and the values fit the
    // host's vector registers.
    /// The current chunk of the register rows the segment has read or
    /// written so far, kept in vector values: each is loaded at most once
    /// and stored once, at the end of the chunk's ops (`store_rows`), if
    /// it was written.
    pub rows: BTreeMap<u8, Cached>,
    /// The current chunk of the predicates the chunk's ops have read or
    /// written so far, as i32x4 lane masks (all-ones / zero lanes).
    pub pred_chunks: BTreeMap<u8, CachedPred>,
    /// Each predicate the segment writes: its lane bits gathered over the
    /// chunks run so far, and whether they are inverted (`CachedPred`).
    pub pred_words: BTreeMap<u8, (Value, bool)>,
    /// Each predicate whose last write in the segment so far is an op of
    /// uniform sources computed once (`write_once`): its whole lane mask,
    /// all ones or zero, set without gathering chunks.
    pub pred_fixed: BTreeMap<u8, Value>,
    /// The rows `row` loaded (register, value) since this was last taken.
    pub loaded: Vec<(u8, Value)>,
}

/// A predicate's chunk held in a value during a segment.
pub(crate) struct CachedPred {
    value: Value,
    /// Each lane of `value` is the predicate's complement: an ISETP whose
    /// comparison the host makes as its inverse (`alu`) leaves it so, and
    /// the inversion is paid once per segment, on the gathered bits,
    /// rather than once per chunk. Every chunk runs the same ops, so every
    /// chunk of a predicate ends in the same state.
    inverted: bool,
    /// Written in this chunk: `store_rows` gathers its bits.
    dirty: bool,
}

/// A register row's chunk held in a value during a segment.
pub(crate) struct Cached {
    value: Value,
    /// Written since it was loaded: `store_rows` stores it.
    dirty: bool,
}

impl Emitter<'_, '_> {
    /// Byte offset of the current chunk of row `n` from `base`.
    fn offset(&self, n: u8) -> i32 {
        i32::from(n) * ROW_BYTES
    }

    /// The current chunk of register row `n`: the segment's value, or
    /// loaded.
    fn row(&mut self, n: u8) -> Value {
        if let Some(c) = self.rows.get(&n) {
            return c.value;
        }
        let offset = self.offset(n);
        let value = self.b.ins().load(types::I32X4, mem(), self.base, offset);
        self.loaded.push((n, value));
        self.rows.insert(
            n,
            Cached {
                value,
                dirty: false,
            },
        );
        value
    }

    /// The current chunk of predicate P`n` (n < 7) as a lane mask: the
    /// chunk's value, or its bits of the mask the segment began with.
    fn pred_chunk(&mut self, n: u8) -> Value {
        if let Some(c) = self.pred_chunks.get(&n) {
            if !c.inverted {
                return c.value;
            }
            let value = self.b.ins().bnot(c.value);
            let dirty = c.dirty;
            self.pred_chunks.insert(
                n,
                CachedPred {
                    value,
                    inverted: false,
                    dirty,
                },
            );
            return value;
        }
        let bits = self.b.use_var(self.preds[usize::from(n)]);
        let value = mask_chunk(self, bits);
        self.pred_chunks.insert(
            n,
            CachedPred {
                value,
                inverted: false,
                dirty: false,
            },
        );
        value
    }
}

/// Starts the current chunk with `rows` held (not to be stored): rows of
/// uniform registers as the segment found them, loaded once for all
/// chunks (`compile.rs`).
pub(crate) fn seed_rows(e: &mut Emitter<'_, '_>, rows: &[(u8, Value)]) {
    for &(n, value) in rows {
        e.rows.insert(
            n,
            Cached {
                value,
                dirty: false,
            },
        );
    }
}

/// Stores the current chunk of the rows the segment wrote, and gathers
/// the chunk's bits of the predicates it wrote; forgets both. Called where
/// the chunk's ops end, before any exit.
pub(crate) fn store_rows(e: &mut Emitter<'_, '_>) {
    e.loaded.clear();
    for (n, row) in std::mem::take(&mut e.rows) {
        if row.dirty {
            let offset = e.offset(n);
            e.b.ins().store(mem(), row.value, e.base, offset);
        }
    }
    for (n, pred) in std::mem::take(&mut e.pred_chunks) {
        if !pred.dirty {
            continue;
        }
        let four = e.b.ins().vhigh_bits(types::I32, pred.value);
        let bits = e.b.ins().ishl(four, e.shift);
        let word = match e.pred_words.get(&n) {
            Some(&(gathered, inverted)) => {
                debug_assert_eq!(inverted, pred.inverted, "every chunk runs the same ops");
                e.b.ins().bor(gathered, bits)
            }
            None => bits,
        };
        e.pred_words.insert(n, (word, pred.inverted));
        // Stored now, though only `end_preds` sets the predicate: the
        // comparison is pure, and Cranelift would otherwise compute every
        // chunk's where the mask is first needed (the segment's branch),
        // keeping all eight chunks of its operands alive there (spilled to
        // the stack); the store makes each chunk's comparison run with the
        // chunk's other ops. The exit stores the final masks over it.
        e.b.ins()
            .store(MemFlagsData::trusted(), word, e.preds_ptr, 4 * i32::from(n));
    }
}

/// Writes, in the current chunk, the result of an op computed once for
/// all chunks from uniform sources (`compile.rs`): every lane of `r` is
/// the same. A predicate's whole mask is then `word` (`uniform_word`),
/// with no bits to gather.
pub(crate) fn write_once(e: &mut Emitter<'_, '_>, dst: Dest, r: Result, word: Option<Value>) {
    match (dst, r, word) {
        (Dest::Pred(n), Result::Mask(value, inverted), Some(word)) => {
            e.pred_chunks.insert(
                n,
                CachedPred {
                    value,
                    inverted,
                    dirty: false,
                },
            );
            e.pred_fixed.insert(n, word);
        }
        _ => write(e, dst, r, None),
    }
}

/// The whole lane mask of a predicate result whose lanes are all the same
/// (all ones or zero), inversion undone; `None` for a row.
pub(crate) fn uniform_word(e: &mut Emitter<'_, '_>, r: Result) -> Option<Value> {
    let Result::Mask(value, inverted) = r else {
        return None;
    };
    let four = e.b.ins().vhigh_bits(types::I32, value);
    let one = e.b.ins().band_imm_u(four, 1);
    let word = e.b.ins().ineg(one);
    Some(if inverted { e.b.ins().bnot(word) } else { word })
}

/// Sets each predicate the segment wrote to the bits gathered over its
/// chunks (inverted back where they were gathered inverted), in the lanes
/// of the group `act` where the segment ran for fewer lanes (the others
/// keep their bits: `write` did not blend them); called after the last
/// chunk, before the segment's branch reads them.
pub(crate) fn end_preds(e: &mut Emitter<'_, '_>, act: Option<Value>) {
    for (n, word) in std::mem::take(&mut e.pred_fixed) {
        debug_assert!(act.is_none(), "only the full-warp copy computes ops once");
        e.b.def_var(e.preds[usize::from(n)], word);
    }
    for (n, (word, inverted)) in std::mem::take(&mut e.pred_words) {
        let var = e.preds[usize::from(n)];
        let word = if inverted { e.b.ins().bnot(word) } else { word };
        let word = match act {
            Some(act) => {
                let old = e.b.use_var(var);
                let keep = e.b.ins().band_not(old, act);
                let put = e.b.ins().band(word, act);
                e.b.ins().bor(keep, put)
            }
            None => word,
        };
        e.b.def_var(var, word);
    }
}

/// Plain loads and stores of the register rows: never trapping (the rows
/// are always there), not assumed 16-byte aligned.
fn mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Lane-preserving reinterpretation between i32x4 and f32x4.
fn lanes_le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// The lanes where the predicate source holds, as a mask (the scalar twin
/// of `Warp::pred_mask`): P0..P6, else PT.
pub(crate) fn pred_bits(e: &mut Emitter<'_, '_>, p: PredSrc) -> Value {
    let held = match p.reg.and_then(Reg::phys) {
        Some(n) if n < 7 => e.b.use_var(e.preds[usize::from(n)]),
        _ => e.b.ins().iconst(types::I32, -1),
    };
    if p.neg { e.b.ins().bnot(held) } else { held }
}

/// The current chunk's lanes where the predicate source holds, as an
/// i32x4 lane mask (`pred_bits` for one chunk, seeing the chunk's own
/// writes).
pub(crate) fn pred_vec(e: &mut Emitter<'_, '_>, p: PredSrc) -> Value {
    let held = match p.reg.and_then(Reg::phys) {
        Some(n) if n < 7 => e.pred_chunk(n),
        _ => splat(e, u32::MAX),
    };
    if p.neg { e.b.ins().bnot(held) } else { held }
}

/// Whether a predicate source holds in every lane whatever the state (PT).
pub(crate) fn always(p: PredSrc) -> bool {
    !p.neg && !matches!(p.reg.and_then(Reg::phys), Some(n) if n < 7)
}

/// The current chunk of the lane mask `bits` as an i32x4 of all-ones /
/// zero lanes.
pub(crate) fn mask_chunk(e: &mut Emitter<'_, '_>, bits: Value) -> Value {
    let weights: Vec<u8> = [1u32, 2, 4, 8]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let handle = e.b.func.dfg.constants.insert(ConstantData::from(weights));
    let weights = e.b.ins().vconst(types::I32X4, handle);
    let shifted = e.b.ins().ushr(bits, e.shift);
    let lanes = e.b.ins().splat(types::I32X4, shifted);
    let picked = e.b.ins().band(lanes, weights);
    let zero = splat(e, 0);
    e.b.ins().icmp(IntCC::NotEqual, picked, zero)
}

/// An integer vector of four copies of `v`.
fn splat(e: &mut Emitter<'_, '_>, v: u32) -> Value {
    let c = e.b.ins().iconst(types::I32, i64::from(v as i32));
    e.b.ins().splat(types::I32X4, c)
}

/// The current chunk of a source operand.
fn source(e: &mut Emitter<'_, '_>, s: Operand) -> Value {
    match s {
        Operand::Gpr(n) => e.row(n),
        Operand::Zero => splat(e, 0),
        Operand::Imm(v) => splat(e, v),
        Operand::Const(slot) => {
            // The run's constant words never change while the code runs:
            // a read-only, movable load, which Cranelift merges and lifts
            // out of loops (one load per segment, not one per chunk).
            let fixed = mem().with_readonly().with_can_move();
            let word =
                e.b.ins()
                    .load(types::I32, fixed, e.consts, i32::from(slot) * 4);
            e.b.ins().splat(types::I32X4, word)
        }
    }
}

/// `float_src`: |abs| then -neg on the raw bits.
fn float_mods(e: &mut Emitter<'_, '_>, s: &Src, x: Value) -> Value {
    let mut x = x;
    if s.abs {
        let m = splat(e, 0x7fff_ffff);
        x = e.b.ins().band(x, m);
    }
    if s.neg {
        let m = splat(e, 0x8000_0000);
        x = e.b.ins().bxor(x, m);
    }
    x
}

/// .FTZ: a denormal (or zero) becomes the zero of its sign.
fn flush(e: &mut Emitter<'_, '_>, x: Value) -> Value {
    let exp = splat(e, 0x7f80_0000);
    let sign = splat(e, 0x8000_0000);
    let e_bits = e.b.ins().band(x, exp);
    let zero = splat(e, 0);
    let denormal = e.b.ins().icmp(IntCC::Equal, e_bits, zero);
    let zero = e.b.ins().band(x, sign);
    e.b.ins().bitselect(denormal, zero, x)
}

/// `fin`: a float operand's bits after its modifiers and .FTZ, as f32x4.
fn float_in(e: &mut Emitter<'_, '_>, s: &Src, ftz: bool, x: Value) -> Value {
    let mut x = float_mods(e, s, x);
    if ftz {
        x = flush(e, x);
    }
    e.b.ins().bitcast(types::F32X4, lanes_le(), x)
}

/// `fout`: a float result's bits: any NaN is 0x7fffffff, then .FTZ.
fn float_out(e: &mut Emitter<'_, '_>, ftz: bool, r: Value) -> Value {
    let nan = e.b.ins().fcmp(FloatCC::Unordered, r, r);
    let bits = e.b.ins().bitcast(types::I32X4, lanes_le(), r);
    let canonical = splat(e, 0x7fff_ffff);
    let out = e.b.ins().bitselect(nan, canonical, bits);
    if ftz { flush(e, out) } else { out }
}

/// The Cranelift comparison `IntCmp::eval` makes on signed or unsigned
/// values.
fn int_cc(cmp: IntCmp, signed: bool) -> IntCC {
    match (cmp, signed) {
        (IntCmp::Eq, _) => IntCC::Equal,
        (IntCmp::Ne, _) => IntCC::NotEqual,
        (IntCmp::Lt, true) => IntCC::SignedLessThan,
        (IntCmp::Le, true) => IntCC::SignedLessThanOrEqual,
        (IntCmp::Gt, true) => IntCC::SignedGreaterThan,
        (IntCmp::Ge, true) => IntCC::SignedGreaterThanOrEqual,
        (IntCmp::Lt, false) => IntCC::UnsignedLessThan,
        (IntCmp::Le, false) => IntCC::UnsignedLessThanOrEqual,
        (IntCmp::Gt, false) => IntCC::UnsignedGreaterThan,
        (IntCmp::Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
    }
}

/// The Cranelift comparison with `FloatCmp::eval`'s truth table: the
/// ordered forms are false on NaN, the unordered ones true.
fn float_cc(cmp: FloatCmp) -> FloatCC {
    match cmp {
        FloatCmp::OrdLt => FloatCC::LessThan,
        FloatCmp::OrdEq => FloatCC::Equal,
        FloatCmp::OrdLe => FloatCC::LessThanOrEqual,
        FloatCmp::OrdGt => FloatCC::GreaterThan,
        FloatCmp::OrdNe => FloatCC::OrderedNotEqual,
        FloatCmp::OrdGe => FloatCC::GreaterThanOrEqual,
        FloatCmp::UnordLt => FloatCC::UnorderedOrLessThan,
        FloatCmp::UnordEq => FloatCC::UnorderedOrEqual,
        FloatCmp::UnordLe => FloatCC::UnorderedOrLessThanOrEqual,
        FloatCmp::UnordGt => FloatCC::UnorderedOrGreaterThan,
        FloatCmp::UnordNe => FloatCC::NotEqual,
        FloatCmp::UnordGe => FloatCC::UnorderedOrGreaterThanOrEqual,
    }
}

/// `fcmp` on four lanes; the two conditions the x64 backend has no vector
/// form for are made of two it has.
fn vector_fcmp(e: &mut Emitter<'_, '_>, cc: FloatCC, a: Value, b: Value) -> Value {
    let (first, second, join_and) = match cc {
        FloatCC::OrderedNotEqual => (FloatCC::Ordered, FloatCC::NotEqual, true),
        FloatCC::UnorderedOrEqual => (FloatCC::Unordered, FloatCC::Equal, false),
        _ => return e.b.ins().fcmp(cc, a, b),
    };
    let x = e.b.ins().fcmp(first, a, b);
    let y = e.b.ins().fcmp(second, a, b);
    if join_and {
        e.b.ins().band(x, y)
    } else {
        e.b.ins().bor(x, y)
    }
}

/// `PredCombine::apply` on lane masks.
fn combine(e: &mut Emitter<'_, '_>, how: PredCombine, c: Value, accum: Value) -> Value {
    match how {
        PredCombine::And => e.b.ins().band(c, accum),
        PredCombine::Or => e.b.ins().bor(c, accum),
        PredCombine::Xor => e.b.ins().bxor(c, accum),
    }
}

/// A partial LOP3 result: a constant, or a value.
#[derive(Clone, Copy, PartialEq)]
enum Bits {
    Zero,
    Ones,
    V(Value),
}

/// `mux(s, t, f)` of the LOP3 `eval` (each bit from `t` where `s` has a
/// one, else from `f`), simplified where `t` or `f` is a constant.
fn mux(e: &mut Emitter<'_, '_>, s: Value, t: Bits, f: Bits) -> Bits {
    match (t, f) {
        _ if t == f => t,
        (Bits::Ones, Bits::Zero) => Bits::V(s),
        (Bits::Zero, Bits::Ones) => Bits::V(e.b.ins().bnot(s)),
        (Bits::V(t), Bits::Zero) => Bits::V(e.b.ins().band(s, t)),
        (Bits::Zero, Bits::V(f)) => Bits::V(e.b.ins().band_not(f, s)),
        (Bits::Ones, Bits::V(f)) => Bits::V(e.b.ins().bor(s, f)),
        (Bits::V(t), Bits::Ones) => Bits::V(e.b.ins().bor_not(t, s)),
        (Bits::V(t), Bits::V(f)) => Bits::V(e.b.ins().bitselect(s, t, f)),
        // Equal constants were the first arm.
        (Bits::Zero, Bits::Zero) | (Bits::Ones, Bits::Ones) => t,
    }
}

/// LOP3's truth table over three chunks (`eval`: bit `4a + 2b + c` of
/// the table). Operands known to be all zeros or all ones (RZ, such
/// immediates) are folded into the table first; what is left of it over
/// one or two operands, and the three-way XOR, becomes the one or two
/// vector ops that compute it, anything else the tree of `eval`.
fn lop3(e: &mut Emitter<'_, '_>, lut: u8, srcs: [Operand; 3], x: [Value; 3]) -> Value {
    let known = |s: Operand| match s {
        Operand::Zero | Operand::Imm(0) => Some(false),
        Operand::Imm(u32::MAX) => Some(true),
        Operand::Imm(_) | Operand::Gpr(_) | Operand::Const(_) => None,
    };
    // The operands left, and the table over them (bit i: the left
    // operands' values are the bits of i, the first the highest; for two,
    // bit 2x + y).
    let vars: Vec<usize> = (0..3).filter(|&i| known(srcs[i]).is_none()).collect();
    let k = vars.len();
    let table: u8 = (0..1u8 << k).fold(0, |t, i| {
        let mut index = 0;
        for (slot, s) in srcs.iter().enumerate() {
            let bit = match known(*s) {
                Some(v) => v,
                None => {
                    let at = vars.iter().position(|&v| v == slot).unwrap_or(0);
                    i >> (k - 1 - at) & 1 != 0
                }
            };
            index |= u8::from(bit) << (2 - slot);
        }
        t | (lut >> index & 1) << i
    });
    let v = |n: usize| x[vars[n]];
    match (k, table) {
        (_, 0) => splat(e, 0),
        (0, _) => splat(e, u32::MAX),
        (1, 0b10) => v(0),
        (1, 0b01) => e.b.ins().bnot(v(0)),
        (1, _) => splat(e, u32::MAX),
        (2, 0b1111) => splat(e, u32::MAX),
        (2, 0b1000) => e.b.ins().band(v(0), v(1)),
        (2, 0b1110) => e.b.ins().bor(v(0), v(1)),
        (2, 0b0110) => e.b.ins().bxor(v(0), v(1)),
        (2, 0b1001) => e.b.ins().bxor_not(v(0), v(1)),
        (2, 0b0100) => e.b.ins().band_not(v(0), v(1)),
        (2, 0b0010) => e.b.ins().band_not(v(1), v(0)),
        (2, 0b1101) => e.b.ins().bor_not(v(0), v(1)),
        (2, 0b1011) => e.b.ins().bor_not(v(1), v(0)),
        (2, 0b1100) => v(0),
        (2, 0b1010) => v(1),
        (2, 0b0011) => e.b.ins().bnot(v(0)),
        (2, 0b0101) => e.b.ins().bnot(v(1)),
        (2, 0b0111) => {
            let and = e.b.ins().band(v(0), v(1));
            e.b.ins().bnot(and)
        }
        (2, _) => {
            let or = e.b.ins().bor(v(0), v(1));
            e.b.ins().bnot(or)
        }
        (_, 0x96) => {
            let ab = e.b.ins().bxor(v(0), v(1));
            e.b.ins().bxor(ab, v(2))
        }
        _ => lop3_tree(e, lut, x),
    }
}

/// LOP3's truth table over three chunks, the tree of its `eval`.
fn lop3_tree(e: &mut Emitter<'_, '_>, lut: u8, [a, b, c]: [Value; 3]) -> Value {
    let entry = |i: u8| {
        if lut >> i & 1 != 0 {
            Bits::Ones
        } else {
            Bits::Zero
        }
    };
    let by_bc = |e: &mut Emitter<'_, '_>, base: u8| {
        let hi = mux(e, c, entry(base + 3), entry(base + 2));
        let lo = mux(e, c, entry(base + 1), entry(base));
        mux(e, b, hi, lo)
    };
    let high = by_bc(e, 4);
    let low = by_bc(e, 0);
    match mux(e, a, high, low) {
        Bits::Zero => splat(e, 0),
        Bits::Ones => splat(e, u32::MAX),
        Bits::V(v) => v,
    }
}

/// SHF of the pair `hi:lo` by the fixed amount `s` (0..=32), as its
/// `eval` computes it on 64 bits; a half known to be zero (`zero`: RZ or
/// an immediate 0) adds nothing to the other's shifted bits.
fn shf(
    e: &mut Emitter<'_, '_>,
    right: bool,
    high: bool,
    s: u32,
    [lo, hi]: [Value; 2],
    [lo_zero, hi_zero]: [bool; 2],
) -> Value {
    let shl = |e: &mut Emitter<'_, '_>, v: Value, n: u32| e.b.ins().ishl_imm_u(v, i64::from(n));
    let shr = |e: &mut Emitter<'_, '_>, v: Value, n: u32| e.b.ins().ushr_imm_u(v, i64::from(n));
    match (right, high, s) {
        (true, false, s @ 1..32) if hi_zero => shr(e, lo, s),
        (false, true, s @ 1..32) if lo_zero => shl(e, hi, s),
        (_, false, 0) => lo,
        (_, true, 0) => hi,
        (true, false, 32) => hi,
        (false, true, 32) => lo,
        (true, true, 32) | (false, false, 32) => splat(e, 0),
        (true, false, s) => {
            let l = shr(e, lo, s);
            let h = shl(e, hi, 32 - s);
            e.b.ins().bor(l, h)
        }
        (true, true, s) => shr(e, hi, s),
        (false, false, s) => shl(e, lo, s),
        (false, true, s) => {
            let h = shl(e, hi, s);
            let l = shr(e, lo, 32 - s);
            e.b.ins().bor(h, l)
        }
    }
}

/// The total order `f32::total_cmp` uses, as signed integer keys (valid
/// for the non-NaN values FMNMX compares).
fn total_key(e: &mut Emitter<'_, '_>, bits: Value) -> Value {
    let sign = e.b.ins().sshr_imm_u(bits, 31);
    let magnitude_flip = e.b.ins().ushr_imm_u(sign, 1);
    e.b.ins().bxor(bits, magnitude_flip)
}

/// `x` times the constant `c` (`splat`: `c` in every lane), wrapping: a
/// shift, or a shift and an add or subtract, where `c` is a power of two
/// or one away from one (the same bits as the multiply, which takes
/// several times as long on the host), else the multiply.
fn times(e: &mut Emitter<'_, '_>, x: Value, c: u32, splat: Value) -> Value {
    let shl = |e: &mut Emitter<'_, '_>, n: u32| e.b.ins().ishl_imm_u(x, i64::from(n));
    match c {
        0 => splat,
        1 => x,
        _ if c.is_power_of_two() => shl(e, c.trailing_zeros()),
        _ if (c - 1).is_power_of_two() => {
            let s = shl(e, (c - 1).trailing_zeros());
            e.b.ins().iadd(s, x)
        }
        _ if c.checked_add(1).is_some_and(u32::is_power_of_two) => {
            let s = shl(e, (c + 1).trailing_zeros());
            e.b.ins().isub(s, x)
        }
        _ => e.b.ins().imul(x, splat),
    }
}

/// What one translated op produces for the current chunk.
#[derive(Clone, Copy)]
pub(crate) enum Result {
    /// The chunk of a register row.
    Row(Value),
    /// The current chunk of a predicate (before the guard), as an i32x4
    /// lane mask; its complement where the flag says so (`CachedPred`).
    Mask(Value, bool),
}

/// The op over the current chunk's four lanes.
pub(crate) fn alu(e: &mut Emitter<'_, '_>, n: &NativeAlu) -> Result {
    let x = n.srcs.map(|s| source(e, s));
    let row = match &n.op {
        Translated::Mov => x[0],
        // Zero terms (RZ, or an immediate 0, negated or not) are left out.
        Translated::IAdd3(o) => {
            let mut sum = None;
            for ((&v, s), operand) in x.iter().zip(&o.srcs).zip(n.srcs) {
                if matches!(operand, Operand::Zero | Operand::Imm(0)) {
                    continue;
                }
                sum = Some(match (sum, s.neg) {
                    (None, false) => v,
                    (None, true) => e.b.ins().ineg(v),
                    (Some(acc), false) => e.b.ins().iadd(acc, v),
                    (Some(acc), true) => e.b.ins().isub(acc, v),
                });
            }
            match sum {
                Some(v) => v,
                None => splat(e, 0),
            }
        }
        Translated::IMad => {
            // An immediate is the second source (the encoding's one
            // immediate slot).
            let p = match n.srcs[1] {
                Operand::Imm(c) => times(e, x[0], c, x[1]),
                _ => e.b.ins().imul(x[0], x[1]),
            };
            if matches!(n.srcs[2], Operand::Zero | Operand::Imm(0)) {
                p
            } else {
                e.b.ins().iadd(p, x[2])
            }
        }
        Translated::Lop3(o) => lop3(e, o.lut, n.srcs, x),
        Translated::Shf { op: o, amount } => {
            let zero = |i: usize| matches!(n.srcs[i], Operand::Zero | Operand::Imm(0));
            shf(
                e,
                o.right,
                o.high,
                *amount,
                [x[0], x[2]],
                [zero(0), zero(2)],
            )
        }
        Translated::Sel => {
            let m = pred_vec(e, n.pred);
            e.b.ins().bitselect(m, x[0], x[1])
        }
        Translated::IMnMx(o) => {
            let m = pred_vec(e, n.pred);
            let (a, b) = (x[0], x[1]);
            let (lo, hi) = if o.signed {
                (e.b.ins().smin(a, b), e.b.ins().smax(a, b))
            } else {
                (e.b.ins().umin(a, b), e.b.ins().umax(a, b))
            };
            e.b.ins().bitselect(m, lo, hi)
        }
        Translated::Conv(o) => match o.kind {
            ConvKind::IntToFloat => {
                let f = if o.signed {
                    e.b.ins().fcvt_from_sint(types::F32X4, x[0])
                } else {
                    e.b.ins().fcvt_from_uint(types::F32X4, x[0])
                };
                e.b.ins().bitcast(types::I32X4, lanes_le(), f)
            }
            ConvKind::FloatToInt => {
                let f = e.b.ins().bitcast(types::F32X4, lanes_le(), x[0]);
                let r = if o.signed {
                    e.b.ins().fcvt_to_sint_sat(types::I32X4, f)
                } else {
                    e.b.ins().fcvt_to_uint_sat(types::I32X4, f)
                };
                // A NaN gives 0x80000000 (`OpConv::eval`), not the
                // saturating conversion's 0.
                let nan = e.b.ins().fcmp(FloatCC::Unordered, f, f);
                let min = splat(e, 0x8000_0000);
                e.b.ins().bitselect(nan, min, r)
            }
        },
        Translated::FArith(o) => {
            let a = float_in(e, &o.srcs[0], o.ftz, x[0]);
            let b = float_in(e, &o.srcs[1], o.ftz, x[1]);
            let r = match o.kind {
                FloatArith::Add => e.b.ins().fadd(a, b),
                FloatArith::Mul => e.b.ins().fmul(a, b),
                FloatArith::Fma => {
                    let c = float_in(e, &o.srcs[2], o.ftz, x[2]);
                    e.b.ins().fma(a, b, c)
                }
            };
            float_out(e, o.ftz, r)
        }
        // The source's modifiers are not applied, as in its `eval`.
        Translated::Frnd(o) => {
            let v = if o.ftz { flush(e, x[0]) } else { x[0] };
            let v = e.b.ins().bitcast(types::F32X4, lanes_le(), v);
            let r = match o.rnd {
                Round::Rn => e.b.ins().nearest(v),
                Round::Rm => e.b.ins().floor(v),
                Round::Rp => e.b.ins().ceil(v),
                Round::Rz => e.b.ins().trunc(v),
            };
            float_out(e, o.ftz, r)
        }
        // Wrapping: |i32::MIN| is i32::MIN, as in its `eval`.
        Translated::IAbs => e.b.ins().iabs(x[0]),
        Translated::FMnMx(o) => {
            let m = pred_vec(e, n.pred);
            let a = float_in(e, &o.srcs[0], o.ftz, x[0]);
            let b = float_in(e, &o.srcs[1], o.ftz, x[1]);
            let ai = e.b.ins().bitcast(types::I32X4, lanes_le(), a);
            let bi = e.b.ins().bitcast(types::I32X4, lanes_le(), b);
            let (ka, kb) = (total_key(e, ai), total_key(e, bi));
            let lt = e.b.ins().icmp(IntCC::SignedLessThan, ka, kb);
            // a where (a < b) == min.
            let differ = e.b.ins().bxor(lt, m);
            let pick = e.b.ins().bitselect(differ, bi, ai);
            let a_nan = e.b.ins().fcmp(FloatCC::Unordered, a, a);
            let b_nan = e.b.ins().fcmp(FloatCC::Unordered, b, b);
            let r = e.b.ins().bitselect(a_nan, bi, pick);
            let r = e.b.ins().bitselect(b_nan, ai, r);
            let r = e.b.ins().bitcast(types::F32X4, lanes_le(), r);
            float_out(e, o.ftz, r)
        }
        Translated::FSel(o) => {
            let m = pred_vec(e, n.pred);
            let a = float_mods(e, &o.srcs[0], x[0]);
            let b = float_mods(e, &o.srcs[1], x[1]);
            e.b.ins().bitselect(m, a, b)
        }
        Translated::ISetP(o) => {
            let cc = int_cc(o.cmp, o.signed);
            // The x64 backend makes !=, unsigned < and unsigned > of an
            // inverted ==, >= or <= (three vector instructions and a
            // constant): the inverse here, and its four bits inverted.
            let invert = matches!(
                cc,
                IntCC::NotEqual | IntCC::UnsignedLessThan | IntCC::UnsignedGreaterThan
            );
            let cc = if invert { cc.complement() } else { cc };
            let c = e.b.ins().icmp(cc, x[0], x[1]);
            // Combined with PT by AND, the comparison is the result: it
            // stays inverted, and the segment inverts the gathered bits.
            if invert && o.combine == PredCombine::And && always(n.pred) {
                return Result::Mask(c, true);
            }
            let c = if invert { e.b.ins().bnot(c) } else { c };
            let accum = pred_vec(e, n.pred);
            return Result::Mask(combine(e, o.combine, c, accum), false);
        }
        Translated::FSetP(o) => {
            let cc = float_cc(o.cmp);
            let a = float_in(e, &o.srcs[0], o.ftz, x[0]);
            let b = float_in(e, &o.srcs[1], o.ftz, x[1]);
            let c = vector_fcmp(e, cc, a, b);
            let accum = pred_vec(e, n.pred);
            return Result::Mask(combine(e, o.combine, c, accum), false);
        }
    };
    Result::Row(row)
}

/// Writes the current chunk of a result under the guard `exec` (the
/// chunk's executing lanes as an i32x4 lane mask; `None`: every lane): a
/// row to the segment's value of its register chunk (stored by
/// `store_rows`), a mask to the chunk's value of its predicate (gathered
/// by `store_rows`; `Warp::write_pred`).
pub(crate) fn write(e: &mut Emitter<'_, '_>, dst: Dest, r: Result, exec: Option<Value>) {
    match (dst, r) {
        (Dest::Gpr(n), Result::Row(value)) => {
            let value = match exec {
                Some(mask) => {
                    let old = e.row(n);
                    e.b.ins().bitselect(mask, value, old)
                }
                None => value,
            };
            e.rows.insert(n, Cached { value, dirty: true });
        }
        (Dest::Pred(n), Result::Mask(m, inverted)) => {
            e.pred_fixed.remove(&n);
            let (value, inverted) = match exec {
                None => (m, inverted),
                Some(mask) => {
                    let m = if inverted { e.b.ins().bnot(m) } else { m };
                    let old = e.pred_chunk(n);
                    (e.b.ins().bitselect(mask, m, old), false)
                }
            };
            e.pred_chunks.insert(
                n,
                CachedPred {
                    value,
                    inverted,
                    dirty: true,
                },
            );
        }
        // RZ / PT, or a shape the op table rules out (a row op with a
        // predicate destination): dropped, as `Warp` drops them.
        (Dest::Drop, _) | (Dest::Gpr(_), Result::Mask(..)) | (Dest::Pred(_), Result::Row(_)) => {}
    }
}
