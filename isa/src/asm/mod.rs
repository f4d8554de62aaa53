//! The assembler: the listing's own syntax back into instructions, so tests
//! and users can write SASS-like code directly.
//!
//! A line holds at most one instruction, as the listing prints it:
//! `/*0040*/ @!P0 IADD3 R1, R2, 0x4, RZ ; [B------:R-:W-:-:S01]`. The
//! address comment and the control bits are optional (without them an
//! instruction gets the default control bits); `//` starts a comment.
//! Branch targets are byte addresses, or labels defined by a `name:` line.
//! Directives (`header.rs`; docs/ISA.md, "Assembler directives") set the
//! binary container's fields: `.arch`, `.workgroup`, `.stage`,
//! `.registers`, `.mesh`, `.vertex_attrs`, `.primitive_attrs`, `.compute`,
//! `.task`, `.sph`, `.gs_sph`, `.resource`. `disasm --ctrl` prints them, so
//! its output assembles to the same binary byte for byte.

mod header;
mod operand;
mod ops;

pub use header::{Header, directives};

use crate::binary::{Binary, Stage};
use crate::isa::{Ctrl, Instr, PredSrc, RegFile};
use crate::program::INSTR_BYTES;
use crate::target::Arch;
use operand::{Args, Operand};
use rustc_hash::FxHashMap;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct AsmError {
    pub line: usize,
    pub column: usize,
    pub kind: AsmErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AsmErrorKind {
    #[error("unknown instruction `{0}`")]
    UnknownOp(String),
    #[error("`{op}` does not take the modifier `.{modifier}`")]
    BadModifier { op: String, modifier: String },
    #[error("`{op}` needs one of the modifiers {choices}")]
    MissingModifier { op: String, choices: &'static str },
    #[error("`{op}` takes {want} operands, found {found}")]
    OperandCount {
        op: String,
        want: usize,
        found: usize,
    },
    #[error("expected {what}, found `{found}`")]
    Expected { what: &'static str, found: String },
    #[error("cannot read the operand `{0}`")]
    BadOperand(String),
    #[error("missing `;` at the end of the instruction")]
    MissingSemicolon,
    #[error("bad control bits `{0}` (expected the form [B------:R-:W-:-:S01])")]
    BadCtrl(String),
    #[error("unknown label `{0}`")]
    UnknownLabel(String),
    #[error("label `{0}` is defined twice")]
    DuplicateLabel(String),
    #[error(
        "bad directive `{0}` (known: .arch, .workgroup, .stage, .registers, .mesh, \
         .vertex_attrs, .primitive_attrs, .compute, .task, .sph, .gs_sph, .resource)"
    )]
    BadDirective(String),
    #[error("`{directive}` expects {expected}, found `{found}`")]
    BadDirectiveValue {
        directive: String,
        expected: &'static str,
        found: String,
    },
    #[error("`{directive}` must follow `{after}`")]
    DirectiveOrder {
        directive: String,
        after: &'static str,
    },
    #[error("`{directive}` needs `.stage {needs}` (the stage is {stage})")]
    StageMismatch {
        directive: &'static str,
        needs: &'static str,
        stage: &'static str,
    },
    #[error("the instruction cannot be encoded: {0}")]
    Encode(crate::isa::EncodeError),
}

/// The modifiers after a mnemonic's base name; a builder takes those it
/// knows and the rest are errors.
pub(crate) struct Mods {
    list: Vec<String>,
    used: Vec<bool>,
}

impl Mods {
    /// Takes `m` if present.
    pub fn take(&mut self, m: &str) -> bool {
        // The first unused occurrence: `TLD4.B.B` is bindless and the blue
        // component, one `.B` each.
        let unused = (0..self.list.len()).find(|&i| !self.used[i] && self.list[i] == m);
        match unused {
            Some(i) => {
                self.used[i] = true;
                true
            }
            None => false,
        }
    }
    /// Takes the first of `choices` present, as its index.
    pub fn one_of(&mut self, choices: &[&str]) -> Option<usize> {
        choices.iter().position(|c| self.take(c))
    }
}

/// Why an assembled program is no binary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToBinaryError {
    #[error(transparent)]
    Encode(#[from] crate::program::ProgramEncodeError),
    /// The directives describe a container that `Binary::from_bytes`
    /// refuses (a field past the hardware's limits, say).
    #[error("the directives describe a binary that does not read back: {0}")]
    Unreadable(#[from] crate::binary::BinaryError),
}

/// Where an instruction is and the context its builder needs.
pub(crate) struct Ctx<'a> {
    pub base: &'a str,
    pub mods: Mods,
    pub args: Args,
    pub labels: &'a dyn Fn(&str) -> Option<u32>,
}

impl Ctx<'_> {
    pub fn err(&self, kind: AsmErrorKind) -> AsmError {
        AsmError {
            line: self.args.line,
            column: self.args.column,
            kind,
        }
    }
    pub fn missing(&self, choices: &'static str) -> AsmError {
        self.err(AsmErrorKind::MissingModifier {
            op: self.base.to_string(),
            choices,
        })
    }
}

/// Strips `/*...*/` and `//` comments, keeping columns (comments become
/// spaces).
fn strip_comments(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while !rest.is_empty() {
        if rest.starts_with("//") {
            break;
        }
        if let Some(after) = rest.strip_prefix("/*") {
            let end = after.find("*/").map_or(after.len(), |e| e + 2);
            out.extend(std::iter::repeat_n(' ', 2 + end));
            rest = &after[end.min(after.len())..];
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Splits at top-level commas, with each piece's 1-based column.
fn split_operands(s: &str, start_col: usize) -> Vec<(String, usize)> {
    let mut parts = Vec::new();
    let (mut depth, mut begin) = (0i32, 0);
    for (i, c) in s.char_indices().chain(std::iter::once((s.len(), ','))) {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                let piece = &s[begin..i];
                let lead = piece.len() - piece.trim_start().len();
                if !piece.trim().is_empty() {
                    parts.push((piece.trim().to_string(), start_col + begin + lead));
                }
                begin = i + 1;
            }
            _ => {}
        }
    }
    parts
}

fn parse_ctrl(t: &str) -> Option<Ctrl> {
    let inner = t.strip_prefix("[B")?.strip_suffix(']')?;
    let parts: Vec<&str> = inner.split(':').collect();
    let [wait, rd, wr, y, s] = parts[..] else {
        return None;
    };
    if wait.len() != 6 {
        return None;
    }
    let mut mask = 0u8;
    for (i, c) in wait.chars().enumerate() {
        match c {
            '-' => {}
            c if c.to_digit(10) == Some(i as u32) => mask |= 1 << i,
            _ => return None,
        }
    }
    let sb = |p: &str, prefix: char| -> Option<u8> {
        match p.strip_prefix(prefix)? {
            "-" => Some(7),
            d => d.parse().ok().filter(|&n: &u8| n < 6),
        }
    };
    Some(Ctrl {
        stall: s.strip_prefix('S')?.parse().ok().filter(|&n: &u8| n < 16)?,
        yield_: match y {
            "Y" => true,
            "-" => false,
            _ => return None,
        },
        write_sb: sb(wr, 'W')?,
        read_sb: sb(rd, 'R')?,
        wait: mask,
        reuse: 0,
    })
}

/// One source line, classified.
enum Line<'a> {
    Empty,
    Label(&'a str),
    Directive(&'a str),
    Instr,
}

fn classify(code: &str) -> Line<'_> {
    let t = code.trim();
    if t.is_empty() {
        Line::Empty
    } else if t.starts_with('.') && !t.contains(';') {
        Line::Directive(t)
    } else if let Some(l) = t.strip_suffix(':')
        && !l.contains(' ')
    {
        Line::Label(l)
    } else {
        Line::Instr
    }
}

/// Assembles one instruction's text (everything but labels and
/// directives) at byte address `pc`.
fn instruction(
    code: &str,
    line: usize,
    pc: u32,
    labels: &dyn Fn(&str) -> Option<u32>,
) -> Result<Instr, AsmError> {
    let err = |column: usize, kind| AsmError { line, column, kind };
    let Some(semi) = code.find(';') else {
        let end = code.trim_end().len() + 1;
        return Err(err(end, AsmErrorKind::MissingSemicolon));
    };
    let (body, after) = (&code[..semi], &code[semi + 1..]);
    let ctrl_text = after.trim();
    let ctrl = if ctrl_text.is_empty() {
        Ctrl::default()
    } else {
        let col = semi + 2 + (after.len() - after.trim_start().len());
        parse_ctrl(ctrl_text).ok_or_else(|| err(col, AsmErrorKind::BadCtrl(ctrl_text.into())))?
    };
    let mut pos = body.len() - body.trim_start().len();
    let mut rest = body.trim_start();
    let mut guard = PredSrc::TRUE;
    if let Some(g) = rest.strip_prefix('@') {
        let end = g.find(char::is_whitespace).unwrap_or(g.len());
        guard = match operand::parse(&g[..end]) {
            Some(Operand::Pred(p)) => p,
            _ => {
                return Err(err(
                    pos + 2,
                    AsmErrorKind::Expected {
                        what: "a guard predicate",
                        found: g[..end].into(),
                    },
                ));
            }
        };
        let skipped = 1 + end + (g[end..].len() - g[end..].trim_start().len());
        pos += skipped;
        rest = &rest[skipped..];
    }
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let mnemonic = &rest[..end];
    let column = pos + 1;
    let operands_col = pos + end + 1;
    let mut args = Vec::new();
    for (text, col) in split_operands(&rest[end..], operands_col) {
        let op = operand::parse(&text)
            .ok_or_else(|| err(col, AsmErrorKind::BadOperand(text.clone())))?;
        args.push((op, col, text));
    }
    let mut parts = mnemonic.split('.');
    let base = parts.next().unwrap_or("");
    let list: Vec<String> = parts.map(str::to_string).collect();
    let mut ctx = Ctx {
        base,
        mods: Mods {
            used: vec![false; list.len()],
            list,
        },
        args: Args {
            ops: args,
            line,
            column,
            mnemonic: mnemonic.to_string(),
        },
        labels,
    };
    let op = ops::build(&mut ctx)?;
    if let Some(i) = ctx.mods.used.iter().position(|u| !u) {
        return Err(ctx.err(AsmErrorKind::BadModifier {
            op: base.into(),
            modifier: ctx.mods.list[i].clone(),
        }));
    }
    let ins = Instr { guard, op, ctrl };
    ins.encode(pc)
        .map_err(|e| err(column, AsmErrorKind::Encode(e)))?;
    Ok(ins)
}

/// What a source file holds: its instructions and directives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembled {
    pub instrs: Vec<Instr>,
    pub arch: Arch,
    pub workgroup_size: [u32; 3],
    /// The container fields the directives set.
    pub header: Header,
}

/// Assembles a whole source text.
pub fn assemble(src: &str) -> Result<Assembled, AsmError> {
    let lines: Vec<String> = src.lines().map(strip_comments).collect();
    // First pass: label addresses.
    let mut labels = FxHashMap::default();
    let mut pc = 0u32;
    for (i, code) in lines.iter().enumerate() {
        match classify(code) {
            Line::Label(l) if labels.insert(l.to_string(), pc).is_some() => {
                let column = code.len() - code.trim_start().len() + 1;
                return Err(AsmError {
                    line: i + 1,
                    column,
                    kind: AsmErrorKind::DuplicateLabel(l.into()),
                });
            }
            Line::Instr => pc += INSTR_BYTES,
            _ => {}
        }
    }
    let lookup = |l: &str| labels.get(l).copied();
    let mut out = Assembled {
        instrs: Vec::new(),
        arch: Arch::DEFAULT,
        workgroup_size: [1, 1, 1],
        header: Header::default(),
    };
    // Where each stage-specific directive was, for the check below.
    let mut state_lines: Vec<(&'static str, Stage, usize, usize)> = Vec::new();
    for (i, code) in lines.iter().enumerate() {
        match classify(code) {
            Line::Instr => {
                let pc = out.instrs.len() as u32 * INSTR_BYTES;
                out.instrs.push(instruction(code, i + 1, pc, &lookup)?);
            }
            Line::Directive(d) => {
                let column = code.len() - code.trim_start().len() + 1;
                let (name, value) = d.split_once(char::is_whitespace).unwrap_or((d, ""));
                out.header
                    .directive(name, value, &mut out.arch, &mut out.workgroup_size)
                    .map_err(|kind| AsmError {
                        line: i + 1,
                        column,
                        kind,
                    })?;
                for (directive, stage) in [
                    (".mesh", Stage::Mesh),
                    (".task", Stage::Task),
                    (".compute", Stage::Compute),
                ] {
                    if name == directive {
                        state_lines.push((directive, stage, i + 1, column));
                    }
                }
            }
            Line::Empty | Line::Label(_) => {}
        }
    }
    // The container holds mesh, task and compute state only for its own
    // stage (docs/BINARY.md): elsewhere it would be dropped unwritten.
    let stage = out.header.stage.unwrap_or(Stage::Compute);
    for (directive, needs, line, column) in state_lines {
        if needs != stage {
            return Err(AsmError {
                line,
                column,
                kind: AsmErrorKind::StageMismatch {
                    directive,
                    needs: needs.name(),
                    stage: stage.name(),
                },
            });
        }
    }
    Ok(out)
}

impl Assembled {
    /// The program as a binary: the fields the directives set, the others
    /// those of a compute program (the register count covering every
    /// register the code names, groups included; no shared or local
    /// memory).
    /// The binary is checked as `disasm` and `run` read it.
    pub fn to_binary(&self) -> Result<Binary, ToBinaryError> {
        let mut max = None::<u32>;
        for ins in &self.instrs {
            let mut copy = *ins;
            copy.visit_regs(&mut |r, file, _, width| {
                if let (RegFile::Gpr, Some(n)) = (file, r.phys())
                    && n != RegFile::Gpr.zero_index()
                {
                    let last = u32::from(n) + u32::from(width) - 1;
                    max = Some(max.map_or(last, |m| m.max(last)));
                }
            });
        }
        let h = &self.header;
        let binary = Binary {
            arch: self.arch,
            stage: h.stage.unwrap_or(Stage::Compute),
            workgroup_size: self.workgroup_size,
            num_gprs: h.registers.unwrap_or(max.map_or(0, |m| m + 1)),
            mesh: h.mesh.clone(),
            task: h.task.clone(),
            compute: h.compute,
            sph: h.sph,
            gs_sph: h.gs_sph,
            code: crate::program::encode(&self.instrs, self.arch)?,
            resources: h.resources.clone(),
        };
        Binary::from_bytes(&binary.to_bytes())?;
        Ok(binary)
    }
}
