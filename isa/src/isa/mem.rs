//! Memory ops: loads and stores to global (LDG/STG), shared (LDS/STS) and
//! local (LDL/STL) memory, atomics (ATOMG/ATOMS/RED) and constant-bank loads
//! (LDC). Opcodes and fields from NAK's SM70 encoder (docs/ISA.md, "Ops");
//! docs/ISA.md marks the few this project chose.
//!
//! Wide values live in aligned register groups: a 64-bit value in Rn:Rn+1
//! (n even), a 128-bit one in Rn..Rn+3 (n a multiple of 4). The operand
//! visitor passes the base register and the group's width; a virtual
//! register stands for the whole group.

use super::alu::{fin, fout};
use super::operand::{fmt_mem_addr, get_dst, set_dst, visit_dst, visit_src_n};
use super::reg::{Dst, RegFile, Src};
use super::word::{InstWord, field};
use super::{DecodeError, EncodeError, RegVisitor};
use std::fmt;
use std::ops::Range;

/// Which memory a load or store goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemSpace {
    /// Storage buffers: 64-bit addresses in a register pair.
    Global,
    /// Workgroup-shared memory: 32-bit offsets.
    Shared,
    /// Per-lane memory (spills, local arrays): 32-bit offsets.
    Local,
}

impl MemSpace {
    /// Registers in the address operand.
    pub fn addr_regs(self) -> u8 {
        match self {
            MemSpace::Global => 2,
            MemSpace::Shared | MemSpace::Local => 1,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            MemSpace::Global => "global",
            MemSpace::Shared => "shared",
            MemSpace::Local => "local",
        }
    }
}

/// Access size and, below 32 bits, how a load extends the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemSize {
    U8,
    S8,
    U16,
    S16,
    B32,
    B64,
    B128,
}

impl MemSize {
    pub const ALL: [MemSize; 7] = [
        MemSize::U8,
        MemSize::S8,
        MemSize::U16,
        MemSize::S16,
        MemSize::B32,
        MemSize::B64,
        MemSize::B128,
    ];
    pub fn bytes(self) -> u32 {
        match self {
            MemSize::U8 | MemSize::S8 => 1,
            MemSize::U16 | MemSize::S16 => 2,
            MemSize::B32 => 4,
            MemSize::B64 => 8,
            MemSize::B128 => 16,
        }
    }
    /// Registers the value occupies.
    pub fn regs(self) -> u8 {
        match self {
            MemSize::B64 => 2,
            MemSize::B128 => 4,
            _ => 1,
        }
    }
    /// The text suffix; 32 bits has none, as nvdisasm prints it.
    pub fn suffix(self) -> &'static str {
        match self {
            MemSize::U8 => ".U8",
            MemSize::S8 => ".S8",
            MemSize::U16 => ".U16",
            MemSize::S16 => ".S16",
            MemSize::B32 => "",
            MemSize::B64 => ".64",
            MemSize::B128 => ".128",
        }
    }
    /// NAK's memory type field (bits 73..76): U8 0 ... B128 6.
    fn bits(self) -> u64 {
        self as u64
    }
    fn decode(w: &InstWord) -> Result<MemSize, DecodeError> {
        let b = w.get(TYPE);
        MemSize::ALL
            .get(b as usize)
            .copied()
            .ok_or(DecodeError::BadField {
                field: "memory type",
                value: b,
            })
    }
    /// The register values a load of `bytes` (little-endian, `self.bytes()`
    /// long) produces: zero- or sign-extended below 32 bits.
    /// Inlined with a word count fixed per size, as the simulator runs
    /// this once per lane of every load.
    #[inline]
    pub fn load(self, bytes: &[u8]) -> [u32; 4] {
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let mut regs = [0u32; 4];
        match self {
            MemSize::U8 => regs[0] = u32::from(bytes[0]),
            MemSize::S8 => regs[0] = bytes[0] as i8 as i32 as u32,
            MemSize::U16 => regs[0] = u32::from(u16::from_le_bytes([bytes[0], bytes[1]])),
            MemSize::S16 => regs[0] = i16::from_le_bytes([bytes[0], bytes[1]]) as i32 as u32,
            MemSize::B32 => regs[0] = word(0),
            MemSize::B64 => regs[..2].copy_from_slice(&[word(0), word(4)]),
            MemSize::B128 => regs = [word(0), word(4), word(8), word(12)],
        }
        regs
    }
    /// The bytes a store of `regs` writes (the low bytes below 32 bits):
    /// the first `self.bytes()` of the array. A fixed array, as the
    /// simulator runs this once per lane of every store.
    #[inline]
    pub fn store(self, regs: [u32; 4]) -> [u8; 16] {
        let mut bytes = [0u8; 16];
        for (c, r) in bytes.chunks_exact_mut(4).zip(regs) {
            c.copy_from_slice(&r.to_le_bytes());
        }
        bytes
    }
}

const TYPE: Range<usize> = 73..76;
/// Cache eviction priority of global accesses, bits 84..86: 0 evict
/// first (`.EF`), 1 normal (no suffix), 2 evict last, 3 evict unchanged
/// (`nvdisasm -b SM86` of single-bit probes; docs/ISA.md). Global loads,
/// stores, atomics and reductions use normal.
const EVICT: Range<usize> = 84..86;
const EVICT_NORMAL: u64 = 1;
/// The memory order and scope of global atomics: 7, which nvdisasm reads
/// as `.STRONG.GPU` on SM80+ (what nvcc writes) and as `.SYS` on SM75;
/// 0 (weak) is invalid on SM75 (docs/ISA.md, ATOMG).
const ATOM_ORDER: Range<usize> = 77..81;
const STRONG_GPU: u64 = 7;
/// Set for 64-bit (global) addresses.
const A64: usize = 72;
const ADDR: Range<usize> = 24..32;
/// LDG/STG: 32-bit signed offset.
const OFFSET32: Range<usize> = 32..64;
/// LDS/LDL/STS/STL/atomics: 24-bit signed offset.
const OFFSET24: Range<usize> = 40..64;
/// STG data (the 32..64 slot holds the offset).
const STG_DATA: Range<usize> = 64..72;
/// STS/STL/atomic data, and the CAS compare value.
const DATA: Range<usize> = 32..40;
/// CAS new value.
const CAS_DATA: Range<usize> = 64..72;
/// Local accesses set 84..87 to 1 (NAK; meaning not documented).
const LOCAL_MARK: Range<usize> = 84..87;

fn offset_field(space: MemSpace) -> Range<usize> {
    match space {
        MemSpace::Global => OFFSET32,
        MemSpace::Shared | MemSpace::Local => OFFSET24,
    }
}

fn set_offset(w: &mut InstWord, r: Range<usize>, offset: i32) -> Result<(), EncodeError> {
    let bits = r.len();
    let min = -(1i64 << (bits - 1));
    let max = (1i64 << (bits - 1)) - 1;
    if !(min..=max).contains(&i64::from(offset)) {
        return Err(EncodeError::ImmediateRange {
            what: "address offset",
            value: offset as u32,
        });
    }
    w.set(r.clone(), (offset as u32 as u64) & ((1u64 << bits) - 1));
    Ok(())
}

fn get_offset(w: &InstWord, r: Range<usize>) -> i32 {
    let bits = r.len();
    ((w.get(r) << (64 - bits)) as i64 >> (64 - bits)) as i32
}

/// Writes a register-group source, checking the group's alignment.
pub(crate) fn set_src_n(
    w: &mut InstWord,
    r: Range<usize>,
    s: &Src,
    n: u8,
) -> Result<(), EncodeError> {
    if let Some(reg) = s.as_reg().and_then(|r| r.phys())
        && reg % n != 0
    {
        return Err(EncodeError::UnalignedGroup { reg, width: n });
    }
    w.set_gpr_src(r, s)
}

pub(crate) fn get_src_n(w: &InstWord, r: Range<usize>, n: u8) -> Result<Src, DecodeError> {
    let s = w.get_gpr_src(r);
    match s.as_reg().and_then(|r| r.phys()) {
        Some(reg) if reg % n != 0 => Err(DecodeError::BadField {
            field: "register group alignment",
            value: u64::from(reg),
        }),
        _ => Ok(s),
    }
}

pub(crate) fn set_dst_n(w: &mut InstWord, d: &Dst, n: u8) -> Result<(), EncodeError> {
    if let Dst::Reg(r) = d
        && let Some(reg) = r.phys()
        && reg % n != 0
    {
        return Err(EncodeError::UnalignedGroup { reg, width: n });
    }
    set_dst(w, d)
}

pub(crate) fn get_dst_n(w: &InstWord, n: u8) -> Result<Dst, DecodeError> {
    let d = get_dst(w, field::DST, RegFile::Gpr);
    match d {
        Dst::Reg(r) if r.phys().is_some_and(|p| p % n != 0) => Err(DecodeError::BadField {
            field: "register group alignment",
            value: u64::from(r.phys().unwrap_or(0)),
        }),
        _ => Ok(d),
    }
}

/// `LDG.E{size} Rd, [Ra.64+imm]`, `LDS{size} Rd, [Ra+imm]`,
/// `LDL{size} Rd, [Ra+imm]`: loads `size` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpLd {
    pub dst: Dst,
    pub addr: Src,
    pub offset: i32,
    pub space: MemSpace,
    pub size: MemSize,
}

impl OpLd {
    pub const OPCODE_LDG: u16 = 0x980;
    pub const OPCODE_LDL: u16 = 0x983;
    pub const OPCODE_LDS: u16 = 0x984;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        let opcode = match self.space {
            MemSpace::Global => Self::OPCODE_LDG,
            MemSpace::Local => Self::OPCODE_LDL,
            MemSpace::Shared => Self::OPCODE_LDS,
        };
        w.set(field::OPCODE, u64::from(opcode));
        set_dst_n(w, &self.dst, self.size.regs())?;
        set_src_n(w, ADDR, &self.addr, self.space.addr_regs())?;
        set_offset(w, offset_field(self.space), self.offset)?;
        w.set(TYPE, self.size.bits());
        w.set_bit(A64, self.space == MemSpace::Global);
        if self.space == MemSpace::Global {
            w.set(EVICT, EVICT_NORMAL);
        }
        if self.space == MemSpace::Local {
            w.set(LOCAL_MARK, 1);
        }
        Ok(())
    }
    pub fn decode(w: &InstWord, space: MemSpace) -> Result<Self, DecodeError> {
        let size = MemSize::decode(w)?;
        Ok(OpLd {
            dst: get_dst_n(w, size.regs())?,
            addr: get_src_n(w, ADDR, space.addr_regs())?,
            offset: get_offset(w, offset_field(space)),
            space,
            size,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src_n(&mut self.addr, self.space.addr_regs(), v);
        visit_dst(&mut self.dst, RegFile::Gpr, self.size.regs(), v);
    }
    pub fn mnemonic(&self) -> &'static str {
        match self.space {
            MemSpace::Global => "LDG",
            MemSpace::Shared => "LDS",
            MemSpace::Local => "LDL",
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = if self.space == MemSpace::Global {
            ".E"
        } else {
            ""
        };
        write!(f, "{}{e}{} ", self.mnemonic(), self.size.suffix())?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        fmt_mem_addr(f, &self.addr, self.space == MemSpace::Global, self.offset)
    }
}

/// `STG.E{size} [Ra.64+imm], Rb`, `STS{size} [Ra+imm], Rb`,
/// `STL{size} [Ra+imm], Rb`: stores the low `size` bytes of Rb (a group for
/// 64 and 128 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpSt {
    pub addr: Src,
    pub offset: i32,
    pub data: Src,
    pub space: MemSpace,
    pub size: MemSize,
}

impl OpSt {
    pub const OPCODE_STG: u16 = 0x385;
    pub const OPCODE_STL: u16 = 0x387;
    pub const OPCODE_STS: u16 = 0x388;

    fn data_field(space: MemSpace) -> Range<usize> {
        match space {
            MemSpace::Global => STG_DATA,
            MemSpace::Shared | MemSpace::Local => DATA,
        }
    }

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        let opcode = match self.space {
            MemSpace::Global => Self::OPCODE_STG,
            MemSpace::Local => Self::OPCODE_STL,
            MemSpace::Shared => Self::OPCODE_STS,
        };
        w.set(field::OPCODE, u64::from(opcode));
        set_src_n(w, ADDR, &self.addr, self.space.addr_regs())?;
        set_src_n(
            w,
            Self::data_field(self.space),
            &self.data,
            self.size.regs(),
        )?;
        set_offset(w, offset_field(self.space), self.offset)?;
        w.set(TYPE, self.size.bits());
        w.set_bit(A64, self.space == MemSpace::Global);
        if self.space == MemSpace::Global {
            w.set(EVICT, EVICT_NORMAL);
        }
        if self.space == MemSpace::Local {
            w.set(LOCAL_MARK, 1);
        }
        Ok(())
    }
    pub fn decode(w: &InstWord, space: MemSpace) -> Result<Self, DecodeError> {
        let size = MemSize::decode(w)?;
        Ok(OpSt {
            addr: get_src_n(w, ADDR, space.addr_regs())?,
            offset: get_offset(w, offset_field(space)),
            data: get_src_n(w, Self::data_field(space), size.regs())?,
            space,
            size,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src_n(&mut self.addr, self.space.addr_regs(), v);
        visit_src_n(&mut self.data, self.size.regs(), v);
    }
    pub fn mnemonic(&self) -> &'static str {
        match self.space {
            MemSpace::Global => "STG",
            MemSpace::Shared => "STS",
            MemSpace::Local => "STL",
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = if self.space == MemSpace::Global {
            ".E"
        } else {
            ""
        };
        write!(f, "{}{e}{} ", self.mnemonic(), self.size.suffix())?;
        fmt_mem_addr(f, &self.addr, self.space == MemSpace::Global, self.offset)?;
        write!(f, ", ")?;
        self.data.fmt_src(f)
    }
}

/// The read-modify-write an atomic performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    /// `old >= data ? 0 : old + 1` (unsigned).
    Inc,
    /// `old == 0 || old > data ? data : old - 1` (unsigned).
    Dec,
    And,
    Or,
    Xor,
    Exch,
    /// Compare and swap: `old == cmp ? data : old`.
    CmpExch,
}

impl AtomOp {
    pub const ALL: [AtomOp; 10] = [
        AtomOp::Add,
        AtomOp::Min,
        AtomOp::Max,
        AtomOp::Inc,
        AtomOp::Dec,
        AtomOp::And,
        AtomOp::Or,
        AtomOp::Xor,
        AtomOp::Exch,
        AtomOp::CmpExch,
    ];
    /// NAK's op field (bits 87..91); CAS has its own opcode instead.
    pub(crate) fn bits(self) -> u64 {
        match self {
            AtomOp::CmpExch => 0,
            op => AtomOp::ALL.iter().position(|o| *o == op).unwrap_or(0) as u64,
        }
    }
    pub(crate) fn decode(bits: u64) -> Result<AtomOp, DecodeError> {
        AtomOp::ALL[..9]
            .get(bits as usize)
            .copied()
            .ok_or(DecodeError::BadField {
                field: "atomic op",
                value: bits,
            })
    }
    pub fn name(self) -> &'static str {
        match self {
            AtomOp::Add => "ADD",
            AtomOp::Min => "MIN",
            AtomOp::Max => "MAX",
            AtomOp::Inc => "INC",
            AtomOp::Dec => "DEC",
            AtomOp::And => "AND",
            AtomOp::Or => "OR",
            AtomOp::Xor => "XOR",
            AtomOp::Exch => "EXCH",
            AtomOp::CmpExch => "CAS",
        }
    }
}

/// The type an atomic operates on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomType {
    U32,
    S32,
    U64,
    F32,
    S64,
}

impl AtomType {
    pub const ALL: [AtomType; 5] = [
        AtomType::U32,
        AtomType::S32,
        AtomType::U64,
        AtomType::F32,
        AtomType::S64,
    ];
    /// NAK's type field (bits 73..76): U32 0, S32 1, U64 2, F32 3, S64 5.
    pub(crate) fn bits(self) -> u64 {
        match self {
            AtomType::U32 => 0,
            AtomType::S32 => 1,
            AtomType::U64 => 2,
            AtomType::F32 => 3,
            AtomType::S64 => 5,
        }
    }
    pub(crate) fn decode(w: &InstWord) -> Result<AtomType, DecodeError> {
        let b = w.get(TYPE);
        AtomType::ALL
            .into_iter()
            .find(|t| t.bits() == b)
            .ok_or(DecodeError::BadField {
                field: "atomic type",
                value: b,
            })
    }
    pub fn regs(self) -> u8 {
        match self {
            AtomType::U64 | AtomType::S64 => 2,
            _ => 1,
        }
    }
    pub fn bytes(self) -> u32 {
        u32::from(self.regs()) * 4
    }
    pub fn suffix(self) -> &'static str {
        match self {
            AtomType::U32 => "",
            AtomType::S32 => ".S32",
            AtomType::U64 => ".64",
            AtomType::F32 => ".F32.FTZ.RN",
            AtomType::S64 => ".S64",
        }
    }

    /// The value an atomic stores, given the old memory value, its data and
    /// (for CAS) the compare value; 32-bit types use the low halves. Float
    /// add flushes denormals and rounds to nearest even, as `.F32.FTZ.RN`
    /// says; float min/max follow IEEE minNum/maxNum.
    pub fn apply(self, op: AtomOp, old: u64, data: u64, cmp: u64) -> u64 {
        let wide = self.regs() == 2;
        let mask = if wide { u64::MAX } else { u64::from(u32::MAX) };
        let (old, data, cmp) = (old & mask, data & mask, cmp & mask);
        let signed = |v: u64| {
            if wide {
                v as i64
            } else {
                i64::from(v as u32 as i32)
            }
        };
        let r = match (op, self) {
            (AtomOp::Add, AtomType::F32) => {
                let f = |v: u64| fin(true, v as u32);
                u64::from(fout(true, f(old) + f(data)))
            }
            (AtomOp::Min | AtomOp::Max, AtomType::F32) => {
                let (a, b) = (f32::from_bits(old as u32), f32::from_bits(data as u32));
                let v = if op == AtomOp::Min {
                    a.min(b)
                } else {
                    a.max(b)
                };
                u64::from(fout(false, v))
            }
            (AtomOp::Add, _) => old.wrapping_add(data),
            (AtomOp::Min, AtomType::S32 | AtomType::S64) => signed(old).min(signed(data)) as u64,
            (AtomOp::Max, AtomType::S32 | AtomType::S64) => signed(old).max(signed(data)) as u64,
            (AtomOp::Min, _) => old.min(data),
            (AtomOp::Max, _) => old.max(data),
            (AtomOp::Inc, _) => {
                if old >= data {
                    0
                } else {
                    old + 1
                }
            }
            (AtomOp::Dec, _) => {
                if old == 0 || old > data {
                    data
                } else {
                    old - 1
                }
            }
            (AtomOp::And, _) => old & data,
            (AtomOp::Or, _) => old | data,
            (AtomOp::Xor, _) => old ^ data,
            (AtomOp::Exch, _) => data,
            (AtomOp::CmpExch, _) => {
                if old == cmp {
                    data
                } else {
                    old
                }
            }
        };
        r & mask
    }
}

/// `ATOMG.E.op{type} Rd, [Ra.64+imm], Rb` and `ATOMS.op{type} Rd, [Ra+imm],
/// Rb` (CAS: `..., Rcmp, Rnew`): atomically replaces the memory value with
/// `ty.apply(op, old, data, cmp)` and returns the old one in Rd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpAtom {
    pub dst: Dst,
    pub addr: Src,
    pub offset: i32,
    /// The operand; for CAS, the new value.
    pub data: Src,
    /// The compare value of CAS (RZ otherwise).
    pub cmp: Src,
    pub op: AtomOp,
    pub ty: AtomType,
    /// Global or shared (local memory has no atomics).
    pub space: MemSpace,
}

impl OpAtom {
    /// NAK's form (docs/ISA.md, ATOMG). nvcc writes 0x9a8, a form that also
    /// reads a memory descriptor from a uniform register (bits 64..70),
    /// which our programs never load: the H200 faults on it.
    pub const OPCODE_ATOMG: u16 = 0x3a8;
    pub const OPCODE_ATOMG_CAS: u16 = 0x3a9;
    pub const OPCODE_ATOMS: u16 = 0x38c;
    pub const OPCODE_ATOMS_CAS: u16 = 0x38d;
    const OP: Range<usize> = 87..91;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        let cas = self.op == AtomOp::CmpExch;
        let opcode = match (self.space, cas) {
            (MemSpace::Global, false) => Self::OPCODE_ATOMG,
            (MemSpace::Global, true) => Self::OPCODE_ATOMG_CAS,
            (MemSpace::Shared, false) => Self::OPCODE_ATOMS,
            (MemSpace::Shared, true) => Self::OPCODE_ATOMS_CAS,
            (MemSpace::Local, _) => {
                return Err(EncodeError::OperandForm("a global or shared atomic"));
            }
        };
        w.set(field::OPCODE, u64::from(opcode));
        let n = self.ty.regs();
        set_dst_n(w, &self.dst, n)?;
        set_src_n(w, ADDR, &self.addr, self.space.addr_regs())?;
        set_offset(w, OFFSET24, self.offset)?;
        if cas {
            set_src_n(w, DATA, &self.cmp, n)?;
            set_src_n(w, CAS_DATA, &self.data, n)?;
        } else {
            set_src_n(w, DATA, &self.data, n)?;
            w.set(Self::OP, self.op.bits());
        }
        w.set(TYPE, self.ty.bits());
        w.set_bit(A64, self.space == MemSpace::Global);
        if self.space == MemSpace::Global {
            w.set(EVICT, EVICT_NORMAL);
            w.set(ATOM_ORDER, STRONG_GPU);
        }
        w.set(field::PDST0, 7);
        Ok(())
    }
    pub fn decode(w: &InstWord, space: MemSpace, cas: bool) -> Result<Self, DecodeError> {
        let ty = AtomType::decode(w)?;
        let n = ty.regs();
        let (op, data, cmp) = if cas {
            (
                AtomOp::CmpExch,
                get_src_n(w, CAS_DATA, n)?,
                get_src_n(w, DATA, n)?,
            )
        } else {
            (
                AtomOp::decode(w.get(Self::OP))?,
                get_src_n(w, DATA, n)?,
                Src::ZERO,
            )
        };
        Ok(OpAtom {
            dst: get_dst_n(w, n)?,
            addr: get_src_n(w, ADDR, space.addr_regs())?,
            offset: get_offset(w, OFFSET24),
            data,
            cmp,
            op,
            ty,
            space,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        let n = self.ty.regs();
        visit_src_n(&mut self.addr, self.space.addr_regs(), v);
        if self.op == AtomOp::CmpExch {
            visit_src_n(&mut self.cmp, n, v);
        }
        visit_src_n(&mut self.data, n, v);
        visit_dst(&mut self.dst, RegFile::Gpr, n, v);
    }
    pub fn mnemonic(&self) -> &'static str {
        match self.space {
            MemSpace::Global => "ATOMG",
            _ => "ATOMS",
        }
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let global = self.space == MemSpace::Global;
        let e = if global { ".E" } else { "" };
        write!(
            f,
            "{}{e}.{}{} ",
            self.mnemonic(),
            self.op.name(),
            self.ty.suffix()
        )?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", ")?;
        fmt_mem_addr(f, &self.addr, global, self.offset)?;
        if self.op == AtomOp::CmpExch {
            write!(f, ", ")?;
            self.cmp.fmt_src(f)?;
        }
        write!(f, ", ")?;
        self.data.fmt_src(f)
    }
}

/// `RED.E.op{type} [Ra.64+imm], Rb`: a global atomic whose old value is not
/// returned (no CAS or exchange).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpRed {
    pub addr: Src,
    pub offset: i32,
    pub data: Src,
    pub op: AtomOp,
    pub ty: AtomType,
}

impl OpRed {
    /// (inferred) NAK's SM70 RED opcode.
    pub const OPCODE: u16 = 0x98e;
    const OP: Range<usize> = 87..91;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        if matches!(self.op, AtomOp::CmpExch | AtomOp::Exch) {
            return Err(EncodeError::OperandForm("a RED op other than EXCH or CAS"));
        }
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        set_src_n(w, ADDR, &self.addr, 2)?;
        set_src_n(w, DATA, &self.data, self.ty.regs())?;
        set_offset(w, OFFSET24, self.offset)?;
        w.set(Self::OP, self.op.bits());
        w.set(TYPE, self.ty.bits());
        w.set_bit(A64, true);
        w.set(EVICT, EVICT_NORMAL);
        w.set(ATOM_ORDER, STRONG_GPU);
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let ty = AtomType::decode(w)?;
        let op = AtomOp::decode(w.get(Self::OP))?;
        if op == AtomOp::Exch {
            return Err(DecodeError::BadField {
                field: "RED op",
                value: w.get(Self::OP),
            });
        }
        Ok(OpRed {
            addr: get_src_n(w, ADDR, 2)?,
            offset: get_offset(w, OFFSET24),
            data: get_src_n(w, DATA, ty.regs())?,
            op,
            ty,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src_n(&mut self.addr, 2, v);
        visit_src_n(&mut self.data, self.ty.regs(), v);
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RED.E.{}{} ", self.op.name(), self.ty.suffix())?;
        fmt_mem_addr(f, &self.addr, true, self.offset)?;
        write!(f, ", ")?;
        self.data.fmt_src(f)
    }
}

/// `LDC{size} Rd, c[bank][Ra+imm]`: loads from a constant bank at a
/// register offset (uniform buffers indexed dynamically, push and driver
/// constants). A constant offset alone is better an ALU `c[b][o]` operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpLdc {
    pub dst: Dst,
    pub bank: u8,
    pub addr: Src,
    /// Byte offset added to `addr`.
    pub offset: u16,
    pub size: MemSize,
}

impl OpLdc {
    /// NAK's ALU opcode 0x182 in the constant-bank form (5).
    pub const OPCODE: u16 = 0xb82;
    const CB_OFFSET: Range<usize> = 38..54;
    pub const BANKS: u8 = 18;

    pub fn encode(&self, w: &mut InstWord) -> Result<(), EncodeError> {
        if self.bank >= Self::BANKS {
            return Err(EncodeError::ImmediateRange {
                what: "constant bank",
                value: u32::from(self.bank),
            });
        }
        w.set(field::OPCODE, u64::from(Self::OPCODE));
        set_dst_n(w, &self.dst, self.size.regs())?;
        w.set_gpr_src(ADDR, &self.addr)?;
        w.set(Self::CB_OFFSET, u64::from(self.offset));
        w.set(field::CBUF_BANK, u64::from(self.bank));
        w.set(TYPE, self.size.bits());
        Ok(())
    }
    pub fn decode(w: &InstWord) -> Result<Self, DecodeError> {
        let size = MemSize::decode(w)?;
        let bank = w.get(field::CBUF_BANK);
        if bank >= u64::from(Self::BANKS) {
            return Err(DecodeError::BadField {
                field: "constant bank",
                value: bank,
            });
        }
        Ok(OpLdc {
            dst: get_dst_n(w, size.regs())?,
            bank: bank as u8,
            addr: w.get_gpr_src(ADDR),
            offset: w.get(Self::CB_OFFSET) as u16,
            size,
        })
    }
    pub fn visit(&mut self, v: &mut impl RegVisitor) {
        visit_src_n(&mut self.addr, 1, v);
        visit_dst(&mut self.dst, RegFile::Gpr, self.size.regs(), v);
    }
    pub fn fmt_op(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LDC{} ", self.size.suffix())?;
        self.dst.fmt_in(RegFile::Gpr, f)?;
        write!(f, ", c[{:#x}]", self.bank)?;
        fmt_mem_addr(f, &self.addr, false, i32::from(self.offset))
    }
}
