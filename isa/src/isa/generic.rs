//! The generic ALU interface: what the constant folder, the optimisation
//! passes, instruction selection and both paths of the simulator ask of an
//! ALU op, so that none of them lists the ALU ops. An ALU op (marked `alu`
//! in the op table of `isa/mod.rs`) computes one result, lane by lane,
//! from `N` 32-bit sources and at most one predicate source.

use super::reg::{Dst, PredSrc, RegFile, Src};

/// One ALU op with `N` sources (1 to 3).
pub trait Alu<const N: usize>: Copy {
    /// The register file of the result: a GPR, or a predicate (ISETP,
    /// FSETP).
    const DST: RegFile;
    /// Pairs of source slots that may be swapped without changing the
    /// result.
    const COMMUTING: &'static [(usize, usize)];
    /// Whether the op reads a predicate source ([`Alu::pred`]).
    const HAS_PRED: bool;
    /// The sources, in operand order.
    fn srcs(&self) -> &[Src; N];
    fn srcs_mut(&mut self) -> &mut [Src; N];
    /// How many of the sources, from the first, the op reads (FADD and
    /// FMUL leave the third unread).
    fn live_srcs(&self) -> usize;
    /// Whether the sources are floats (a negated immediate flips the sign
    /// bit rather than negating the integer).
    fn float_srcs(&self) -> bool;
    fn dst(&self) -> Dst;
    fn dst_mut(&mut self) -> &mut Dst;
    /// The predicate source (ISETP/FSETP accumulator, SEL/FSEL condition,
    /// IMNMX/FMNMX min), or PT.
    fn pred(&self) -> PredSrc;
    /// One lane: the result from the source values `x` (their modifiers
    /// not yet applied) and the predicate `p`; a predicate result is 0 or
    /// 1. The same semantic the op's own `eval` has.
    fn lane(&self, x: [u32; N], p: bool) -> u32;
}

/// Something done with an ALU op whatever its type (see [`super::Op::split`]):
/// each op's call is compiled for its own type, so `lane` inlines.
pub trait AluVisitor<'a> {
    type Out;
    fn visit<const N: usize, O: Alu<N>>(self, op: &'a O) -> Self::Out;
}

/// [`AluVisitor`] for a mutable op (see [`super::Op::alu_mut`]).
pub trait AluVisitorMut<'a> {
    type Out;
    fn visit<const N: usize, O: Alu<N>>(self, op: &'a mut O) -> Self::Out;
}

/// Implements [`Alu`] for an op struct whose result is `dst` and whose
/// sources are `srcs: [Src; N]` (or one `src`):
///
/// ```text
/// impl_alu!(OpX, N, srcs|src, Gpr|Pred, pred: none|field, float: bool,
///           commuting: &[...], live: |o| expr, lane: |o, x, p| expr);
/// ```
macro_rules! impl_alu {
    (@srcs srcs, $o:ident) => { &$o.srcs };
    (@srcs src, $o:ident) => { std::array::from_ref(&$o.src) };
    (@srcs_mut srcs, $o:ident) => { &mut $o.srcs };
    (@srcs_mut src, $o:ident) => { std::array::from_mut(&mut $o.src) };
    (@pred none, $o:ident) => { $crate::isa::PredSrc::TRUE };
    (@pred $f:ident, $o:ident) => { $o.$f };
    (@has_pred none) => { false };
    (@has_pred $f:ident) => { true };
    (
        $T:ty, $n:literal, $srcs:ident, $file:ident, pred: $pred:ident,
        float: |$fo:ident| $float:expr, commuting: $comm:expr,
        live: |$lo:ident| $live:expr, lane: |$o:ident, $x:pat_param, $p:pat_param| $e:expr
    ) => {
        impl $crate::isa::Alu<$n> for $T {
            const DST: $crate::isa::RegFile = $crate::isa::RegFile::$file;
            const COMMUTING: &'static [(usize, usize)] = $comm;
            const HAS_PRED: bool = impl_alu!(@has_pred $pred);
            #[inline(always)]
            fn srcs(&self) -> &[$crate::isa::Src; $n] {
                impl_alu!(@srcs $srcs, self)
            }
            #[inline(always)]
            fn srcs_mut(&mut self) -> &mut [$crate::isa::Src; $n] {
                impl_alu!(@srcs_mut $srcs, self)
            }
            #[inline(always)]
            fn live_srcs(&self) -> usize {
                let $lo = self;
                $live
            }
            #[inline(always)]
            fn float_srcs(&self) -> bool {
                let $fo = self;
                $float
            }
            #[inline(always)]
            fn dst(&self) -> $crate::isa::Dst {
                self.dst
            }
            #[inline(always)]
            fn dst_mut(&mut self) -> &mut $crate::isa::Dst {
                &mut self.dst
            }
            #[inline(always)]
            fn pred(&self) -> $crate::isa::PredSrc {
                impl_alu!(@pred $pred, self)
            }
            #[inline(always)]
            fn lane(&self, $x: [u32; $n], $p: bool) -> u32 {
                let $o = self;
                $e
            }
        }
    };
}
