//! Warp-wide ops: SHFL, VOTE, MATCH, REDUX and WARPSYNC. Their semantics
//! take the values of every executing lane; the simulator gathers them.
//! Opcodes from NAK's SM70 encoder, see docs/ISA.md (REDUX's
//! fields are the project's own, see docs/ISA.md).

use super::operand::{get_dst, set_dst, set_pdst, visit_dst, visit_pred, visit_src};
use super::reg::{Dst, PredSrc, RegFile, Src, SrcRef};
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, RegVisitor};
use std::fmt;
use std::ops::Range;

/// How SHFL picks its source lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

impl ShflMode {
    pub const ALL: [ShflMode; 4] = [ShflMode::Idx, ShflMode::Up, ShflMode::Down, ShflMode::Bfly];
    pub fn name(self) -> &'static str {
        match self {
            ShflMode::Idx => "IDX",
            ShflMode::Up => "UP",
            ShflMode::Down => "DOWN",
            ShflMode::Bfly => "BFLY",
        }
    }
}

/// `SHFL.mode Pd, Rd, Ra, b, c`: Rd = Ra of the source lane that `mode`,
/// b and c give (c packs the clamp in bits 0..5 and the segment mask in
/// bits 8..13, as PTX's shfl.sync); Pd says whether that lane was in
/// range (out of range, a lane reads its own Ra).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpShfl {
    pub dst: Dst,
    pub in_bounds: Dst,
    pub src: Src,
    /// A register or an immediate below 32.
    pub lane: Src,
    /// A register or an immediate below 0x2000.
    pub c: Src,
    pub mode: ShflMode,
}

impl OpShfl {
    /// The four forms: lane and c in registers or immediates.
    pub const OPCODES: [u16; 4] = [0x389, 0x589, 0x989, 0xf89];
    const LANE_REG: Range<usize> = 32..40;
    const C_REG: Range<usize> = 64..72;
    const C_IMM: Range<usize> = 40..53;
    const LANE_IMM: Range<usize> = 53..58;
    const MODE: Range<usize> = 58..60;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        let lane_imm = match self.lane.src {
            SrcRef::Imm(v) if v < 32 => Some(v),
            SrcRef::Reg(_) | SrcRef::Zero => None,
            _ => {
                return Err(EncodeError::OperandForm(
                    "a SHFL lane below 32 or a register",
                ));
            }
        };
        let c_imm = match self.c.src {
            SrcRef::Imm(v) if v < 0x2000 => Some(v),
            SrcRef::Reg(_) | SrcRef::Zero => None,
            _ => {
                return Err(EncodeError::OperandForm(
                    "a SHFL c below 0x2000 or a register",
                ));
            }
        };
        if [&self.src, &self.lane, &self.c]
            .iter()
            .any(|s| s.neg || s.abs)
        {
            return Err(EncodeError::OperandForm("SHFL sources without modifiers"));
        }
        let form = usize::from(c_imm.is_some()) | usize::from(lane_imm.is_some()) << 1;
        w.set(field::OPCODE, u64::from(Self::OPCODES[form]));
        set_dst(w, &self.dst)?;
        set_pdst(w, field::PDST0, &self.in_bounds)?;
        w.set_gpr_src(field::SRC0, &self.src)?;
        match lane_imm {
            Some(v) => w.set(Self::LANE_IMM, u64::from(v)),
            None => w.set_gpr_src(Self::LANE_REG, &self.lane)?,
        }
        match c_imm {
            Some(v) => w.set(Self::C_IMM, u64::from(v)),
            None => w.set_gpr_src(Self::C_REG, &self.c)?,
        }
        w.set(Self::MODE, self.mode as u64);
        Ok(())
    }
    pub fn decode(w: &InstWord, opcode: u16) -> Result<Self, DecodeError> {
        let form = Self::OPCODES.iter().position(|&o| o == opcode).unwrap_or(0);
        let lane = if form & 2 != 0 {
            Src::imm(w.get(Self::LANE_IMM) as u32)
        } else {
            w.get_gpr_src(Self::LANE_REG)
        };
        let c = if form & 1 != 0 {
            Src::imm(w.get(Self::C_IMM) as u32)
        } else {
            w.get_gpr_src(Self::C_REG)
        };
        Ok(OpShfl {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            in_bounds: get_dst(w, field::PDST0, RegFile::Pred),
            src: w.get_gpr_src(field::SRC0),
            lane,
            c,
            mode: ShflMode::ALL[w.get(Self::MODE) as usize],
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src(&mut self.src, v);
        visit_src(&mut self.lane, v);
        visit_src(&mut self.c, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
        visit_dst(&mut self.in_bounds, RegFile::Pred, 1, v);
    }
    /// The lane `lane` reads from, and whether it was in range (PTX's
    /// shfl.sync rules).
    pub fn source(&self, lane: u32, b: u32, c: u32) -> (u32, bool) {
        let (b, clamp, seg) = (b & 0x1f, c & 0x1f, c >> 8 & 0x1f);
        let max_lane = (lane & seg) | (clamp & !seg);
        let min_lane = lane & seg;
        let (j, ok) = match self.mode {
            ShflMode::Idx => {
                let j = min_lane | (b & !seg);
                (j, j <= max_lane)
            }
            ShflMode::Up => {
                let j = lane.wrapping_sub(b);
                (j, j as i32 >= max_lane as i32)
            }
            ShflMode::Down => {
                let j = lane + b;
                (j, j <= max_lane)
            }
            ShflMode::Bfly => {
                let j = lane ^ b;
                (j, j <= max_lane)
            }
        };
        if ok { (j, true) } else { (lane, false) }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SHFL.{} ", self.mode.name())?;
        self.in_bounds.fmt_in(RegFile::Pred, f)?;
        write!(f, ", ")?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        for s in [&self.src, &self.lane, &self.c] {
            write!(f, ", ")?;
            s.fmt_src(f)?;
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoteMode {
    All,
    Any,
    Eq,
}

impl VoteMode {
    pub const ALL: [VoteMode; 3] = [VoteMode::All, VoteMode::Any, VoteMode::Eq];
    pub fn name(self) -> &'static str {
        match self {
            VoteMode::All => "ALL",
            VoteMode::Any => "ANY",
            VoteMode::Eq => "EQ",
        }
    }
}

/// `VOTE.mode Rd, Pd, Pa`: Rd gets the ballot (the executing lanes whose
/// Pa holds), Pd whether all / any of them hold it, or (EQ) whether they
/// agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpVote {
    pub dst: Dst,
    pub pdst: Dst,
    pub src: PredSrc,
    pub mode: VoteMode,
}

impl OpVote {
    pub const OPCODE: u16 = 0x806;
    const MODE: Range<usize> = 72..74;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        set_dst(w, &self.dst)?;
        set_pdst(w, field::PDST0, &self.pdst)?;
        w.set_pred_src(field::PSRC, field::PSRC_NEG, &self.src)?;
        w.set(Self::MODE, self.mode as u64);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let m = w.get(Self::MODE);
        let mode = *VoteMode::ALL.get(m as usize).ok_or(DecodeError::BadField {
            field: "VOTE mode",
            value: m,
        })?;
        Ok(OpVote {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            pdst: get_dst(w, field::PDST0, RegFile::Pred),
            src: w.get_pred_src(field::PSRC, field::PSRC_NEG),
            mode,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_pred(&mut self.src, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
        visit_dst(&mut self.pdst, RegFile::Pred, 1, v);
    }
    /// The predicate result from the ballot over the executing lanes.
    pub fn eval(&self, ballot: u32, exec: u32) -> bool {
        match self.mode {
            VoteMode::All => ballot == exec,
            VoteMode::Any => ballot != 0,
            VoteMode::Eq => ballot == 0 || ballot == exec,
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VOTE.{} ", self.mode.name())?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        self.pdst.fmt_in(RegFile::Pred, f)?;
        write!(f, ", {}", self.src)
    }
}

/// `MATCH.ANY Rd, Ra`: Rd = the executing lanes whose Ra equals this
/// lane's. `MATCH.ALL Pd, Rd, Ra`: if every executing lane has the same
/// Ra, Rd = those lanes and Pd true; else Rd = 0 and Pd false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpMatch {
    pub dst: Dst,
    /// MATCH.ALL's predicate (PT for ANY).
    pub pdst: Dst,
    pub src: Src,
    pub all: bool,
}

impl OpMatch {
    pub const OPCODE: u16 = 0x3a1;
    const ANY: usize = 79;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        if !self.all && self.pdst != Dst::None {
            return Err(EncodeError::OperandForm("MATCH.ANY without a predicate"));
        }
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        set_dst(w, &self.dst)?;
        set_pdst(w, field::PDST0, &self.pdst)?;
        w.set_gpr_src(field::SRC0, &self.src)?;
        w.set_bit(Self::ANY, !self.all);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        Ok(OpMatch {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            pdst: get_dst(w, field::PDST0, RegFile::Pred),
            src: w.get_gpr_src(field::SRC0),
            all: !w.bit(Self::ANY),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src(&mut self.src, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
        visit_dst(&mut self.pdst, RegFile::Pred, 1, v);
    }
    /// Lane `lane`'s result from every lane's value (`values[l]`) over the
    /// executing lanes `exec`.
    pub fn eval(&self, values: &[u32; 32], exec: u32, lane: usize) -> (u32, bool) {
        let same = (0..32)
            .filter(|&l| exec >> l & 1 != 0 && values[l] == values[lane])
            .fold(0u32, |m, l| m | 1 << l);
        if !self.all {
            (same, true)
        } else if same == exec {
            (exec, true)
        } else {
            (0, false)
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MATCH.{} ", if self.all { "ALL" } else { "ANY" })?;
        if self.all {
            self.pdst.fmt_in(RegFile::Pred, f)?;
            write!(f, ", ")?;
        }
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        self.src.fmt_src(f)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduxOp {
    And,
    Or,
    Xor,
    Sum,
    Min,
    Max,
}

impl ReduxOp {
    pub const ALL: [ReduxOp; 6] = [
        ReduxOp::And,
        ReduxOp::Or,
        ReduxOp::Xor,
        ReduxOp::Sum,
        ReduxOp::Min,
        ReduxOp::Max,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ReduxOp::And => "AND",
            ReduxOp::Or => "OR",
            ReduxOp::Xor => "XOR",
            ReduxOp::Sum => "SUM",
            ReduxOp::Min => "MIN",
            ReduxOp::Max => "MAX",
        }
    }
}

/// `REDUX.op{.S32} Rd, Ra`: every executing lane gets the reduction of Ra
/// over the executing lanes (SUM wraps; MIN/MAX unsigned unless .S32).
/// The hardware writes a uniform register; this ISA writes a GPR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpRedux {
    pub dst: Dst,
    pub src: Src,
    pub op: ReduxOp,
    pub signed: bool,
}

impl OpRedux {
    /// (inferred) from nvdisasm listings of sm_80+ code.
    pub const OPCODE: u16 = 0x3c4;
    /// Project-defined positions (docs/ISA.md).
    const SIGNED: usize = 73;
    const OP: Range<usize> = 78..81;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        set_dst(w, &self.dst)?;
        w.set_gpr_src(field::SRC0, &self.src)?;
        w.set_bit(Self::SIGNED, self.signed);
        w.set(Self::OP, self.op as u64);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let b = w.get(Self::OP);
        let op = *ReduxOp::ALL.get(b as usize).ok_or(DecodeError::BadField {
            field: "REDUX op",
            value: b,
        })?;
        Ok(OpRedux {
            dst: get_dst(w, field::DST, RegFile::Gpr),
            src: w.get_gpr_src(field::SRC0),
            op,
            signed: w.bit(Self::SIGNED),
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src(&mut self.src, v);
        visit_dst(&mut self.dst, RegFile::Gpr, 1, v);
    }
    /// The reduction of `values` (the executing lanes' Ra; at least one).
    pub fn eval(&self, values: impl Iterator<Item = u32>) -> u32 {
        let s = self.signed;
        values
            .reduce(|a, b| match self.op {
                ReduxOp::And => a & b,
                ReduxOp::Or => a | b,
                ReduxOp::Xor => a ^ b,
                ReduxOp::Sum => a.wrapping_add(b),
                ReduxOp::Min if s => (a as i32).min(b as i32) as u32,
                ReduxOp::Max if s => (a as i32).max(b as i32) as u32,
                ReduxOp::Min => a.min(b),
                ReduxOp::Max => a.max(b),
            })
            .unwrap_or(0)
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.signed { ".S32" } else { "" };
        write!(f, "REDUX.{}{s} ", self.op.name())?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        self.src.fmt_src(f)
    }
}

/// `WARPSYNC mask`: the lanes of `mask` (an immediate or a register) wait
/// for each other here before going on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpWarpSync {
    pub mask: Src,
}

impl OpWarpSync {
    pub const OPCODE: u16 = 0x148;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        w.set_alu_srcs(Self::OPCODE, None, &self.mask, None, false)?;
        w.set(field::PSRC, 7);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let (_, mask, _) = w.get_alu_srcs(false)?;
        Ok(OpWarpSync { mask })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src(&mut self.mask, v);
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WARPSYNC ")?;
        self.mask.fmt_src(f)
    }
}
