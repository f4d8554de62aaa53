//! Executing one instruction for the lanes the scheduler picked. ALU ops
//! call the ISA's own `eval` (the semantic the constant folder shares), so
//! the simulator defines no op semantics of its own.

use crate::error::SimError;
use crate::isbe::{IsbeFault, IsbeRegion};
use crate::memory::{MemFault, Space};
use crate::warp::{
    Env, Launch, RZ, Row, WARP_LANES, WARPSYNC, WORKGROUP_BARRIER, Warp, gpr_index, lanes,
};
use spvsass_isa::isa::{
    Alu, AluVisitor, Dst, Instr, IsbeAccess, IsbeSize, OtherOp, PredSrc, RegFile, SpecialReg, Src,
    SrcRef, Target,
};

const WARP: usize = WARP_LANES as usize;

impl Warp<'_> {
    /// Executes `instr` at `pc` for the `active` lanes and moves them on.
    /// Lanes whose guard fails only advance. Returns the lanes whose guard
    /// held.
    pub(crate) fn execute(
        &mut self,
        instr: &Instr,
        pc: u32,
        active: u32,
        env: &mut Env<'_>,
    ) -> Result<u32, SimError> {
        let (launch, isbe) = (env.launch, &mut *env.isbe);
        let exec = self.pred_mask(active, &instr.guard);
        let other = match instr.op.split(General {
            warp: self,
            exec,
            pc,
        }) {
            Ok(done) => {
                done?;
                self.advance(active);
                return Ok(exec);
            }
            Err(other) => other,
        };
        match other {
            OtherOp::IAdd3X(o) => {
                let x = self.rows(exec, &o.srcs, pc)?;
                let carry_in = self.pred_mask(u32::MAX, &o.carry_in);
                let (mut sum, mut carry) = ([0; WARP], 0);
                for l in lanes(exec) {
                    let (s, c) = o.eval(column(&x, l), carry_in >> l & 1 != 0);
                    sum[l] = s;
                    carry |= u32::from(c) << l;
                }
                self.write_row(exec, o.dst, &sum);
                self.write_pred(exec, o.carry_out, carry);
            }
            OtherOp::IMadWide(o) => self.each(exec, |w, l| {
                let [a, b] = w.srcs(l, &[o.srcs[0], o.srcs[1]], pc)?;
                let c = w.src_group(l, &o.srcs[2], 2, pc)?;
                let c = u64::from(c[0]) | u64::from(c[1]) << 32;
                if o.hi {
                    w.set_gpr(l, o.dst, o.eval_hi(a, b, c));
                } else {
                    let r = o.eval_wide(a, b, c);
                    w.set_group(l, o.dst, &[r as u32, (r >> 32) as u32]);
                }
                Ok(())
            })?,
            OtherOp::PLop3(o) => {
                let [a, b, c] = o.srcs.map(|p| self.pred_mask(u32::MAX, &p));
                let mut r = 0;
                for l in lanes(exec) {
                    let bit = |m: u32| m >> l & 1 != 0;
                    r |= u32::from(o.eval(bit(a), bit(b), bit(c))) << l;
                }
                self.write_pred(exec, o.dst, r);
            }
            OtherOp::DArith(_)
            | OtherOp::DSetP(_)
            | OtherOp::F2F64(_)
            | OtherOp::Conv64(_)
            | OtherOp::Frnd64(_) => self.exec_f64(exec, &instr.op, pc)?,
            OtherOp::Shfl(o) => self.shfl(exec, o, pc)?,
            OtherOp::Vote(o) => self.vote(exec, o),
            OtherOp::Match(o) => self.match_(exec, o, pc)?,
            OtherOp::Redux(o) => self.redux(exec, o, pc)?,
            OtherOp::WarpSync(o) => {
                for l in lanes(exec) {
                    let mask = self.src(l, &o.mask, pc)?;
                    self.wait_mask[l] = mask | 1 << l;
                    self.wait_bar[l] = WARPSYNC;
                }
                self.waiting |= exec;
                self.advance(active & !exec);
                return Ok(exec);
            }
            OtherOp::S2R(o) => self.each(exec, |w, l| {
                let value = special(o.sr, l as u32, w.base + l as u32, launch, w.clock, pc)?;
                w.set_gpr(l, o.dst, value);
                Ok(())
            })?,
            OtherOp::Cs2r(o) => self.each(exec, |w, l| {
                let (lo, hi) = match o.sr {
                    SpecialReg::Zero => (0, 0),
                    _ => (w.clock as u32, (w.clock >> 32) as u32),
                };
                let n = if o.wide { 2 } else { 1 };
                w.set_group(l, o.dst, &[lo, hi][..n]);
                Ok(())
            })?,
            OtherOp::Ld(o) => self.load(exec, o, pc, env)?,
            OtherOp::St(o) => self.store(exec, o, pc, env)?,
            OtherOp::Atom(o) => self.atom(exec, o, pc, env)?,
            OtherOp::Red(o) => self.red(exec, o, pc, env)?,
            OtherOp::Ldc(o) => self.ldc(exec, o, pc)?,
            OtherOp::Tex(o) => self.tex(exec, *o, pc, env)?,
            OtherOp::Txq(o) => self.txq(exec, *o, pc, env)?,
            OtherOp::SuLd(o) => self.suld(exec, *o, pc, env)?,
            OtherOp::SuSt(o) => self.sust(exec, *o, pc, env)?,
            OtherOp::SuAtom(o) => self.suatom(exec, *o, pc, env)?,
            // Memory is sequentially consistent in the simulator.
            OtherOp::Membar(_) => {}
            OtherOp::Bar(_) => {
                // The hardware's BAR.SYNC counts a warp as one arrival:
                // lanes of a diverged warp would not wait for each other
                // there, so a warp must arrive converged.
                let elsewhere = self.live & !exec;
                if elsewhere != 0 {
                    return Err(SimError::DivergentBarrier {
                        pc,
                        lanes: exec,
                        elsewhere,
                    });
                }
                // Waiting lanes keep their pc; the scheduler releases them
                // when every live lane of the workgroup has arrived.
                self.waiting |= exec;
                for l in lanes(exec) {
                    self.wait_bar[l] = WORKGROUP_BARRIER;
                }
                self.advance(active & !exec);
                return Ok(exec);
            }
            OtherOp::IsbeWr(o) => {
                let region = match o.access {
                    IsbeAccess::Map => IsbeRegion::OutputMap,
                    IsbeAccess::Attr => IsbeRegion::OutputAttr,
                    IsbeAccess::Patch | IsbeAccess::Prim => {
                        return Err(SimError::UnsupportedIsbe {
                            pc,
                            what: "ISBEWR to the PATCH or PRIM region",
                        });
                    }
                };
                self.each(exec, |w, l| {
                    let addr = w.isbe_addr(l, &o.addr, o.imm, o.skew, pc)?;
                    let value = w.src(l, &o.data, pc)?;
                    isbe.write(region, addr, o.size, value)
                        .map_err(|f| fault(f, pc, l, region, addr, o.size))
                })?
            }
            OtherOp::IsbeRd(o) => {
                let region = match (o.output, o.access) {
                    (false, IsbeAccess::Attr) => IsbeRegion::InputAttr,
                    (true, IsbeAccess::Map) => IsbeRegion::OutputMap,
                    (true, IsbeAccess::Attr) => IsbeRegion::OutputAttr,
                    (false, _) => {
                        return Err(SimError::UnsupportedIsbe {
                            pc,
                            what: "ISBERD from an input region other than ATTR",
                        });
                    }
                    (true, _) => {
                        return Err(SimError::UnsupportedIsbe {
                            pc,
                            what: "ISBERD.O from the PATCH or PRIM region",
                        });
                    }
                };
                self.each(exec, |w, l| {
                    let addr = w.isbe_addr(l, &o.addr, o.imm, o.skew, pc)?;
                    let value = isbe
                        .read(region, addr, o.size)
                        .map_err(|f| fault(f, pc, l, region, addr, o.size))?;
                    w.set_gpr(l, o.dst, value);
                    Ok(())
                })?
            }
            OtherOp::Bra(o) => {
                // Targets were checked when the program was decoded.
                let Target::Addr(target) = o.target else {
                    return Err(SimError::UnresolvedTarget { pc });
                };
                for l in lanes(exec) {
                    self.pc[l] = target;
                }
                self.advance(active & !exec);
                return Ok(exec);
            }
            OtherOp::Bssy(o) => {
                // The barrier records the lanes present, whatever the guard.
                self.barriers[o.bar as usize] = active;
            }
            OtherOp::Bsync(o) => {
                // Waiting lanes keep their pc; the scheduler releases them.
                self.waiting |= exec;
                for l in lanes(exec) {
                    self.wait_bar[l] = o.bar;
                }
                self.advance(active & !exec);
                return Ok(exec);
            }
            OtherOp::Exit => {
                self.live &= !exec;
                self.advance(active & !exec);
                return Ok(exec);
            }
            OtherOp::Nop => {}
        }
        self.advance(active);
        Ok(exec)
    }

    /// Runs `f` for each lane of `mask`, in lane order.
    pub(crate) fn each(
        &mut self,
        mask: u32,
        mut f: impl FnMut(&mut Self, usize) -> Result<(), SimError>,
    ) -> Result<(), SimError> {
        lanes(mask).try_for_each(|l| f(self, l))
    }

    /// Source rows: a register's 32 lanes, or a value every lane shares.
    /// A constant-bank fault is found once, for the first lane of `mask`,
    /// before any lane runs, so the per-lane loops do no operand matching.
    pub(crate) fn rows<const N: usize>(
        &self,
        mask: u32,
        srcs: &[Src; N],
        pc: u32,
    ) -> Result<[Row; N], SimError> {
        let mut shared = [[0u32; WARP]; N];
        self.shared_rows(mask, srcs, pc, &mut shared)?;
        Ok(std::array::from_fn(|i| *self.src_row(&srcs[i], &shared[i])))
    }

    /// Fills `shared[i]` with the value of each source `i` that is not a
    /// register (an immediate or a constant-bank word, read for the first
    /// lane of `mask`).
    fn shared_rows<const N: usize>(
        &self,
        mask: u32,
        srcs: &[Src; N],
        pc: u32,
        shared: &mut [Row; N],
    ) -> Result<(), SimError> {
        let first = mask.trailing_zeros() as usize;
        for (row, s) in shared.iter_mut().zip(srcs) {
            if !matches!(s.src, SrcRef::Reg(_)) {
                *row = [self.src(first, s, pc)?; WARP];
            }
        }
        Ok(())
    }

    /// The row source `s` reads: its register's, or `shared`.
    fn src_row<'a>(&'a self, s: &Src, shared: &'a Row) -> &'a Row {
        match s.src {
            SrcRef::Reg(r) => &self.gpr[gpr_index(r)],
            _ => shared,
        }
    }

    /// An ALU op without predicate operands: `dst = eval(srcs)` per lane.
    /// With every lane executing, it is a straight loop over rows the
    /// compiler vectorises; sources are read in place, and the result
    /// lands in a row of its own first, as a destination may be a source.
    pub(crate) fn alu<const N: usize>(
        &mut self,
        mask: u32,
        dst: Dst,
        srcs: &[Src; N],
        pc: u32,
        eval: impl Fn([u32; N]) -> u32,
    ) -> Result<(), SimError> {
        if mask == 0 {
            return Ok(());
        }
        let mut shared = [[0u32; WARP]; N];
        self.shared_rows(mask, srcs, pc, &mut shared)?;
        let x: [&Row; N] = std::array::from_fn(|i| self.src_row(&srcs[i], &shared[i]));
        let mut out = [0u32; WARP];
        if mask == u32::MAX {
            for (l, v) in out.iter_mut().enumerate() {
                *v = eval(std::array::from_fn(|i| x[i][l]));
            }
        } else {
            // Inactive lanes are not evaluated: their stale values could
            // reach an op's edge cases that active lanes never meet.
            for l in lanes(mask) {
                out[l] = eval(std::array::from_fn(|i| x[i][l]));
            }
        }
        self.write_row(mask, dst, &out);
        Ok(())
    }

    /// An ALU op with one predicate source: `dst = eval(srcs, p)` per lane.
    fn alu_pred<const N: usize>(
        &mut self,
        mask: u32,
        dst: Dst,
        srcs: &[Src; N],
        p: &PredSrc,
        pc: u32,
        eval: impl Fn([u32; N], bool) -> u32,
    ) -> Result<(), SimError> {
        if mask == 0 {
            return Ok(());
        }
        let x = self.rows(mask, srcs, pc)?;
        let held = self.pred_mask(u32::MAX, p);
        let Some(row) = self.dst_row(dst) else {
            return Ok(());
        };
        for l in lanes(mask) {
            row[l] = eval(column(&x, l), held >> l & 1 != 0);
        }
        Ok(())
    }

    /// A set-predicate op: `dst = eval(srcs, accum)` per lane.
    fn setp<const N: usize>(
        &mut self,
        mask: u32,
        dst: Dst,
        srcs: &[Src; N],
        accum: &PredSrc,
        pc: u32,
        eval: impl Fn([u32; N], bool) -> bool,
    ) -> Result<(), SimError> {
        if mask == 0 {
            return Ok(());
        }
        let x = self.rows(mask, srcs, pc)?;
        let held = self.pred_mask(u32::MAX, accum);
        let mut r = 0;
        for l in lanes(mask) {
            r |= u32::from(eval(column(&x, l), held >> l & 1 != 0)) << l;
        }
        self.write_pred(mask, dst, r);
        Ok(())
    }

    /// The row `dst` names, or `None` for RZ (writes to it are dropped).
    pub(crate) fn dst_row(&mut self, dst: Dst) -> Option<&mut Row> {
        let Dst::Reg(r) = dst else { return None };
        let d = gpr_index(r);
        (d != RZ).then(|| &mut self.gpr[d])
    }

    /// Writes the lanes of `mask` of `values` to `dst`.
    fn write_row(&mut self, mask: u32, dst: Dst, values: &Row) {
        if let Some(row) = self.dst_row(dst) {
            if mask == u32::MAX {
                *row = *values;
            } else {
                for l in lanes(mask) {
                    row[l] = values[l];
                }
            }
        }
    }

    /// A source operand's raw bits; the op's `eval` applies its modifiers.
    pub(crate) fn src(&self, lane: usize, s: &Src, pc: u32) -> Result<u32, SimError> {
        match s.src {
            SrcRef::Reg(r) => Ok(self.gpr(lane, r)),
            SrcRef::Zero => Ok(0),
            SrcRef::Imm(v) => Ok(v),
            SrcRef::CBuf { bank, offset } => {
                let addr = u64::from(offset);
                let b = self
                    .consts
                    .read(bank, addr, 4)
                    .map_err(|fault| mem_error(fault, pc, lane, Space::Constant(bank), addr, 4))?;
                Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            }
        }
    }

    /// The `n` registers of a group source (a 64- or 128-bit operand).
    pub(crate) fn src_group(
        &self,
        lane: usize,
        s: &Src,
        n: u8,
        pc: u32,
    ) -> Result<[u32; 4], SimError> {
        let mut v = [0; 4];
        match s.src {
            SrcRef::Reg(r) => {
                for i in 0..n {
                    v[usize::from(i)] = self.gpr_in_group(lane, r, i);
                }
            }
            // A wide constant-bank operand is consecutive words.
            SrcRef::CBuf { bank, offset } => {
                for i in 0..u16::from(n) {
                    let word = Src {
                        src: SrcRef::CBuf {
                            bank,
                            offset: offset.wrapping_add(4 * i),
                        },
                        ..*s
                    };
                    v[usize::from(i)] = self.src(lane, &word, pc)?;
                }
            }
            // An immediate is zero-extended.
            _ => v[0] = self.src(lane, s, pc)?,
        }
        Ok(v)
    }

    pub(crate) fn srcs<const N: usize>(
        &self,
        lane: usize,
        s: &[Src; N],
        pc: u32,
    ) -> Result<[u32; N], SimError> {
        let mut x = [0; N];
        for (v, s) in x.iter_mut().zip(s) {
            *v = self.src(lane, s, pc)?;
        }
        Ok(x)
    }

    /// An ISBE address: register + immediate, plus `lane * 4` with SKEW (so
    /// each lane reaches its own slot of a 32-element line). Computed wide,
    /// so an overflowing address is out of bounds rather than wrapped.
    fn isbe_addr(
        &self,
        lane: usize,
        reg: &Src,
        imm: u32,
        skew: bool,
        pc: u32,
    ) -> Result<u64, SimError> {
        let skew = if skew { lane as u64 * 4 } else { 0 };
        Ok(u64::from(self.src(lane, reg, pc)?) + u64::from(imm) + skew)
    }
}

/// Lane `l` of each row.
fn column<const N: usize>(x: &[Row; N], l: usize) -> [u32; N] {
    std::array::from_fn(|i| x[i][l])
}

/// The value of a special register for `lane`, whose local invocation
/// index is `invocation`; the invocation id unpacks it over the workgroup
/// size.
fn special(
    sr: SpecialReg,
    lane: u32,
    invocation: u32,
    launch: &Launch,
    clock: u64,
    pc: u32,
) -> Result<u32, SimError> {
    let [sx, sy, _] = launch.workgroup_size;
    let eq = 1u32 << lane;
    Ok(match sr {
        SpecialReg::LaneId => lane,
        SpecialReg::TidX => invocation % sx,
        SpecialReg::TidY => invocation / sx % sy,
        SpecialReg::TidZ => invocation / (sx * sy),
        SpecialReg::CtaIdX => launch.workgroup_id[0],
        SpecialReg::CtaIdY => launch.workgroup_id[1],
        SpecialReg::CtaIdZ => launch.workgroup_id[2],
        SpecialReg::EqMask => eq,
        SpecialReg::LtMask => eq - 1,
        SpecialReg::LeMask => eq | (eq - 1),
        SpecialReg::GtMask => !(eq | (eq - 1)),
        SpecialReg::GeMask => !(eq - 1),
        SpecialReg::ClockLo => clock as u32,
        SpecialReg::ClockHi => (clock >> 32) as u32,
        SpecialReg::Zero => 0,
        SpecialReg::VirtCfg
        | SpecialReg::VirtId
        | SpecialReg::InvocationId
        | SpecialReg::InvocationInfo
        | SpecialReg::Tid => {
            return Err(SimError::UnsupportedSpecialReg {
                pc,
                name: sr.name(),
            });
        }
    })
}

fn fault(
    f: IsbeFault,
    pc: u32,
    lane: usize,
    region: IsbeRegion,
    addr: u64,
    size: IsbeSize,
) -> SimError {
    let (lane, bytes) = (lane as u32, size.bytes());
    match f {
        IsbeFault::OutOfBounds { region_size } => SimError::IsbeOutOfBounds {
            pc,
            lane,
            region,
            addr,
            bytes,
            region_size,
        },
        IsbeFault::Unaligned => SimError::IsbeUnaligned {
            pc,
            lane,
            region,
            addr,
            bytes,
        },
    }
}

pub(crate) fn mem_error(
    fault: MemFault,
    pc: u32,
    lane: usize,
    space: Space,
    addr: u64,
    bytes: u32,
) -> SimError {
    SimError::Memory {
        pc,
        lane: lane as u32,
        space,
        addr,
        bytes,
        fault,
    }
}

/// Runs an ALU op for the lanes of `exec`: each op's `lane`, in the loop
/// for its result and predicate shape.
struct General<'w, 'p> {
    warp: &'w mut Warp<'p>,
    exec: u32,
    pc: u32,
}

impl AluVisitor<'_> for General<'_, '_> {
    type Out = Result<(), SimError>;
    #[inline(always)]
    fn visit<const N: usize, O: Alu<N>>(self, o: &O) -> Result<(), SimError> {
        let General { warp, exec, pc } = self;
        match (O::DST, O::HAS_PRED) {
            (RegFile::Gpr, false) => warp.alu(exec, o.dst(), o.srcs(), pc, |x| o.lane(x, true)),
            (RegFile::Gpr, true) => {
                warp.alu_pred(exec, o.dst(), o.srcs(), &o.pred(), pc, |x, p| o.lane(x, p))
            }
            (RegFile::Pred, _) => warp.setp(exec, o.dst(), o.srcs(), &o.pred(), pc, |x, p| {
                o.lane(x, p) != 0
            }),
        }
    }
}
