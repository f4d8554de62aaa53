//! Which SPIR-V arithmetic, comparison and conversion opcodes (and
//! GLSL.std.450 instructions) map onto which IR operation. All of them work
//! component-wise on vectors, as in SPIR-V.

use crate::ir::{BinaryOp, CmpOp, ConvOp, UnaryOp};
use spirv::{GlslStd450Op as G, Op as O};

pub(super) fn unary(op: O) -> Option<UnaryOp> {
    Some(match op {
        O::SNegate => UnaryOp::INeg,
        O::FNegate => UnaryOp::FNeg,
        O::Not => UnaryOp::Not,
        O::LogicalNot => UnaryOp::LogicalNot,
        O::BitCount => UnaryOp::BitCount,
        O::BitReverse => UnaryOp::BitReverse,
        _ => return None,
    })
}

pub(super) fn binary(op: O) -> Option<BinaryOp> {
    Some(match op {
        O::IAdd => BinaryOp::IAdd,
        O::ISub => BinaryOp::ISub,
        O::IMul => BinaryOp::IMul,
        O::UDiv => BinaryOp::UDiv,
        O::SDiv => BinaryOp::SDiv,
        O::UMod => BinaryOp::UMod,
        O::SRem => BinaryOp::SRem,
        O::SMod => BinaryOp::SMod,
        O::FAdd => BinaryOp::FAdd,
        O::FSub => BinaryOp::FSub,
        O::FMul => BinaryOp::FMul,
        O::FDiv => BinaryOp::FDiv,
        O::FRem => BinaryOp::FRem,
        O::FMod => BinaryOp::FMod,
        O::BitwiseAnd => BinaryOp::And,
        O::BitwiseOr => BinaryOp::Or,
        O::BitwiseXor => BinaryOp::Xor,
        O::ShiftLeftLogical => BinaryOp::Shl,
        O::ShiftRightLogical => BinaryOp::ShrLogical,
        O::ShiftRightArithmetic => BinaryOp::ShrArithmetic,
        O::LogicalAnd => BinaryOp::LogicalAnd,
        O::LogicalOr => BinaryOp::LogicalOr,
        _ => return None,
    })
}

pub(super) fn compare(op: O) -> Option<CmpOp> {
    Some(match op {
        O::IEqual => CmpOp::IEq,
        O::INotEqual => CmpOp::INe,
        O::ULessThan => CmpOp::ULt,
        O::ULessThanEqual => CmpOp::ULe,
        O::UGreaterThan => CmpOp::UGt,
        O::UGreaterThanEqual => CmpOp::UGe,
        O::SLessThan => CmpOp::SLt,
        O::SLessThanEqual => CmpOp::SLe,
        O::SGreaterThan => CmpOp::SGt,
        O::SGreaterThanEqual => CmpOp::SGe,
        O::FOrdEqual => CmpOp::FOrdEq,
        O::FOrdNotEqual => CmpOp::FOrdNe,
        O::FOrdLessThan => CmpOp::FOrdLt,
        O::FOrdLessThanEqual => CmpOp::FOrdLe,
        O::FOrdGreaterThan => CmpOp::FOrdGt,
        O::FOrdGreaterThanEqual => CmpOp::FOrdGe,
        O::FUnordEqual => CmpOp::FUnordEq,
        O::FUnordNotEqual => CmpOp::FUnordNe,
        O::FUnordLessThan => CmpOp::FUnordLt,
        O::FUnordLessThanEqual => CmpOp::FUnordLe,
        O::FUnordGreaterThan => CmpOp::FUnordGt,
        O::FUnordGreaterThanEqual => CmpOp::FUnordGe,
        O::LogicalEqual => CmpOp::LogicalEq,
        O::LogicalNotEqual => CmpOp::LogicalNe,
        _ => return None,
    })
}

pub(super) fn convert(op: O) -> Option<ConvOp> {
    Some(match op {
        O::ConvertUToF => ConvOp::UToF,
        O::ConvertSToF => ConvOp::SToF,
        O::ConvertFToU => ConvOp::FToU,
        O::ConvertFToS => ConvOp::FToS,
        O::FConvert => ConvOp::FToF,
        O::UConvert => ConvOp::UConvert,
        O::SConvert => ConvOp::SConvert,
        O::Bitcast => ConvOp::Bitcast,
        _ => return None,
    })
}

/// A GLSL.std.450 instruction the IR has an operation for.
pub(super) enum Glsl {
    Unary(UnaryOp),
    Binary(BinaryOp),
}

pub(super) fn glsl_std_450(op: G) -> Option<Glsl> {
    Some(match op {
        G::FAbs => Glsl::Unary(UnaryOp::FAbs),
        G::Floor => Glsl::Unary(UnaryOp::FFloor),
        G::Ceil => Glsl::Unary(UnaryOp::FCeil),
        G::Trunc => Glsl::Unary(UnaryOp::FTrunc),
        // Round may pick either neighbour at .5; rounding to even is one
        // of the allowed results.
        G::Round | G::RoundEven => Glsl::Unary(UnaryOp::FRound),
        G::Fract => Glsl::Unary(UnaryOp::FFract),
        G::Sqrt => Glsl::Unary(UnaryOp::FSqrt),
        G::InverseSqrt => Glsl::Unary(UnaryOp::FRsqrt),
        G::Exp2 => Glsl::Unary(UnaryOp::FExp2),
        G::Log2 => Glsl::Unary(UnaryOp::FLog2),
        G::Sin => Glsl::Unary(UnaryOp::FSin),
        G::Cos => Glsl::Unary(UnaryOp::FCos),
        G::FMin | G::NMin => Glsl::Binary(BinaryOp::FMin),
        G::FMax | G::NMax => Glsl::Binary(BinaryOp::FMax),
        G::UMin => Glsl::Binary(BinaryOp::UMin),
        G::UMax => Glsl::Binary(BinaryOp::UMax),
        G::SMin => Glsl::Binary(BinaryOp::SMin),
        G::SMax => Glsl::Binary(BinaryOp::SMax),
        _ => return None,
    })
}
