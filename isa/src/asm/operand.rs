//! Operands of the listing syntax and the typed accessors the op builders
//! use: each failure names what was expected and where it was found.

use super::{AsmError, AsmErrorKind};
use crate::isa::{Dst, PredSrc, Reg, RegFile, SpecialReg, Src, SrcRef};

/// One parsed operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    /// A GPR source: register, RZ, immediate or `c[bank][offset]`, with
    /// its modifiers.
    Src(Src),
    Pred(PredSrc),
    /// `[Ra{.64}{+-imm}]` or `[imm]`.
    Mem {
        reg: Src,
        wide: bool,
        offset: i64,
    },
    /// `c[bank][Ra+imm]`: a constant bank at a register offset (LDC).
    CMem {
        bank: u8,
        reg: Src,
        offset: i64,
    },
    Special(SpecialReg),
    Barrier(u8),
    /// A name, for branch targets.
    Label(String),
}

/// Parses a number: `0x` hex or decimal, optionally negative.
pub(crate) fn number(t: &str) -> Option<i64> {
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None if t.chars().next()?.is_ascii_digit() => t.parse().ok()?,
        None => return None,
    };
    Some(if neg { -v } else { v })
}

fn index(t: &str, prefix: &str, max: u32) -> Option<u8> {
    let n: u32 = t.strip_prefix(prefix)?.parse().ok()?;
    (n <= max && t.len() > prefix.len()).then_some(n as u8)
}

/// A register of `file` by name (`R5`, `P2`, `%r7`, `%p1`); `RZ` and `PT`
/// give `None` inside `Some`.
fn register(t: &str, file: RegFile) -> Option<Option<Reg>> {
    let (zero, phys, virt, max) = match file {
        RegFile::Gpr => ("RZ", "R", "%r", 254),
        RegFile::Pred => ("PT", "P", "%p", 6),
    };
    if t == zero {
        return Some(None);
    }
    if let Some(v) = t.strip_prefix(virt) {
        return v.parse().ok().map(|n| Some(Reg::Virt(n)));
    }
    index(t, phys, max).map(|n| Some(Reg::Phys(n)))
}

fn src_ref(t: &str) -> Option<SrcRef> {
    if let Some(r) = register(t, RegFile::Gpr) {
        return Some(r.map_or(SrcRef::Zero, SrcRef::Reg));
    }
    if let Some(rest) = t.strip_prefix("c[") {
        let (bank, rest) = rest.split_once("][")?;
        let offset = rest.strip_suffix(']')?;
        let bank = u8::try_from(number(bank)?).ok()?;
        let offset = u16::try_from(number(offset)?).ok()?;
        return Some(SrcRef::CBuf { bank, offset });
    }
    let v = number(t)?;
    u32::try_from(v).ok().map(SrcRef::Imm)
}

/// `Ra{.64}{+-imm}`, `imm`, as inside `[...]`.
fn address(inner: &str) -> Option<(Src, bool, i64)> {
    let inner = inner.trim();
    if let Some(v) = number(inner) {
        return Some((Src::ZERO, false, v));
    }
    let split = inner.find(['+', '-']).unwrap_or(inner.len());
    let (reg, off) = inner.split_at(split);
    let (reg, wide) = match reg.trim().strip_suffix(".64") {
        Some(r) => (r, true),
        None => (reg.trim(), false),
    };
    let src = match register(reg, RegFile::Gpr)? {
        Some(r) => Src::reg(r),
        None => Src::ZERO,
    };
    let off = off.trim();
    let offset = if off.is_empty() {
        0
    } else {
        let v = number(off.trim_start_matches('+').trim())?;
        if off.starts_with('+') && v < 0 {
            return None;
        }
        v
    };
    Some((src, wide, offset))
}

pub(crate) fn parse(t: &str) -> Option<Operand> {
    if let Some(inner) = t.strip_prefix('[') {
        let (reg, wide, offset) = address(inner.strip_suffix(']')?)?;
        return Some(Operand::Mem { reg, wide, offset });
    }
    if t.starts_with("c[") {
        if let Some(r) = src_ref(t) {
            return Some(Operand::Src(Src {
                src: r,
                neg: false,
                abs: false,
            }));
        }
        let rest = t.strip_prefix("c[")?;
        let (bank, rest) = rest.split_once("][")?;
        let (reg, wide, offset) = address(rest.strip_suffix(']')?)?;
        if wide {
            return None;
        }
        return Some(Operand::CMem {
            bank: u8::try_from(number(bank)?).ok()?,
            reg,
            offset,
        });
    }
    if let Some(rest) = t.strip_prefix('!') {
        let reg = register(rest, RegFile::Pred)?;
        return Some(Operand::Pred(PredSrc { reg, neg: true }));
    }
    if let Some(reg) = register(t, RegFile::Pred) {
        return Some(Operand::Pred(PredSrc { reg, neg: false }));
    }
    if let Some(sr) = SpecialReg::ALL.into_iter().find(|s| s.name() == t) {
        return Some(Operand::Special(sr));
    }
    if let Some(b) = index(t, "B", 15) {
        return Some(Operand::Barrier(b));
    }
    // Source modifiers: -x, |x|, -|x|. A negative number is an immediate
    // only where a builder asks for one (it prints as hex without sign).
    let (neg, rest) = match t.strip_prefix('-') {
        Some(r) if !r.starts_with(|c: char| c.is_ascii_digit()) => (true, r),
        _ => (false, t),
    };
    let (abs, rest) = match rest.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        Some(r) => (true, r),
        None => (false, rest),
    };
    if let Some(src) = src_ref(rest) {
        return Some(Operand::Src(Src { src, neg, abs }));
    }
    let ident = t
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    (ident && t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '.'))
        .then(|| Operand::Label(t.to_string()))
}

/// The operands of one instruction with their columns, and the accessors
/// the op builders read them through.
pub(crate) struct Args {
    pub ops: Vec<(Operand, usize, String)>,
    pub line: usize,
    /// Column of the mnemonic, for count errors.
    pub column: usize,
    pub mnemonic: String,
}

impl Args {
    fn err(&self, i: usize, what: &'static str) -> AsmError {
        let (column, found) = self
            .ops
            .get(i)
            .map_or((self.column, String::new()), |(_, c, t)| (*c, t.clone()));
        AsmError {
            line: self.line,
            column,
            kind: AsmErrorKind::Expected { what, found },
        }
    }
    pub fn count(&self, n: usize) -> Result<(), AsmError> {
        if self.ops.len() == n {
            Ok(())
        } else {
            Err(AsmError {
                line: self.line,
                column: self.column,
                kind: AsmErrorKind::OperandCount {
                    op: self.mnemonic.clone(),
                    want: n,
                    found: self.ops.len(),
                },
            })
        }
    }
    pub fn len(&self) -> usize {
        self.ops.len()
    }
    pub fn src(&self, i: usize) -> Result<Src, AsmError> {
        match &self.ops.get(i) {
            Some((Operand::Src(s), ..)) => Ok(*s),
            _ => Err(self.err(i, "a register, immediate or constant-bank operand")),
        }
    }
    /// A register or RZ without modifiers.
    pub fn reg(&self, i: usize) -> Result<Src, AsmError> {
        match self.src(i) {
            Ok(s) if s.is_reg_or_zero() && !s.neg && !s.abs => Ok(s),
            _ => Err(self.err(i, "a register")),
        }
    }
    pub fn dst(&self, i: usize) -> Result<Dst, AsmError> {
        match self.reg(i) {
            Ok(s) => Ok(s.as_reg().map_or(Dst::None, Dst::Reg)),
            Err(_) => Err(self.err(i, "a destination register")),
        }
    }
    pub fn pred(&self, i: usize) -> Result<PredSrc, AsmError> {
        match &self.ops.get(i) {
            Some((Operand::Pred(p), ..)) => Ok(*p),
            _ => Err(self.err(i, "a predicate")),
        }
    }
    pub fn pdst(&self, i: usize) -> Result<Dst, AsmError> {
        match self.pred(i) {
            Ok(p) if !p.neg => Ok(p.reg.map_or(Dst::None, Dst::Reg)),
            _ => Err(self.err(i, "a destination predicate")),
        }
    }
    /// The fixed `PT` (or, with `neg`, `!PT`) some forms carry.
    pub fn pt(&self, i: usize, neg: bool) -> Result<(), AsmError> {
        match self.pred(i) {
            Ok(p) if p.reg.is_none() && p.neg == neg => Ok(()),
            _ => Err(self.err(i, if neg { "!PT" } else { "PT" })),
        }
    }
    pub fn imm(&self, i: usize) -> Result<u32, AsmError> {
        match self.src(i) {
            Ok(Src {
                src: SrcRef::Imm(v),
                neg: false,
                abs: false,
            }) => Ok(v),
            _ => Err(self.err(i, "an immediate")),
        }
    }
    pub fn mem(&self, i: usize, wide: bool) -> Result<(Src, i32), AsmError> {
        match &self.ops.get(i) {
            Some((
                Operand::Mem {
                    reg,
                    wide: w,
                    offset,
                },
                ..,
            )) if (*w == wide || reg.as_reg().is_none()) => {
                let offset = i32::try_from(*offset).map_err(|_| self.err(i, "a 32-bit offset"))?;
                Ok((*reg, offset))
            }
            _ => Err(self.err(
                i,
                if wide {
                    "a 64-bit address [Ra.64+imm]"
                } else {
                    "an address [Ra+imm]"
                },
            )),
        }
    }
    /// `c[bank][Ra+imm]` or `c[bank][imm]`.
    pub fn cmem(&self, i: usize) -> Result<(u8, Src, i64), AsmError> {
        match &self.ops.get(i) {
            Some((Operand::CMem { bank, reg, offset }, ..)) => Ok((*bank, *reg, *offset)),
            Some((
                Operand::Src(Src {
                    src: SrcRef::CBuf { bank, offset },
                    neg: false,
                    abs: false,
                }),
                ..,
            )) => Ok((*bank, Src::ZERO, i64::from(*offset))),
            _ => Err(self.err(i, "a constant-bank address c[bank][Ra+imm]")),
        }
    }
    pub fn special(&self, i: usize) -> Result<SpecialReg, AsmError> {
        match &self.ops.get(i) {
            Some((Operand::Special(s), ..)) => Ok(*s),
            _ => Err(self.err(i, "a special register")),
        }
    }
    pub fn barrier(&self, i: usize) -> Result<u8, AsmError> {
        match &self.ops.get(i) {
            Some((Operand::Barrier(b), ..)) => Ok(*b),
            _ => Err(self.err(i, "a convergence barrier B0..B15")),
        }
    }
    /// A branch target: an address or a label's.
    pub fn target(&self, i: usize, labels: &dyn Fn(&str) -> Option<u32>) -> Result<u32, AsmError> {
        match &self.ops.get(i) {
            Some((Operand::Label(l), c, _)) => labels(l).ok_or(AsmError {
                line: self.line,
                column: *c,
                kind: AsmErrorKind::UnknownLabel(l.clone()),
            }),
            _ => self.imm(i).map_err(|_| self.err(i, "a branch target")),
        }
    }
}
