//! Which SPIR-V arithmetic, comparison and conversion opcodes (and
//! GLSL.std.450 instructions) map onto which IR operation. All of them work
//! component-wise on vectors, as in SPIR-V.

use crate::ir::{BinaryOp, CmpOp, ConvOp, MathOp, UnaryOp};
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
        O::ConvertUToPtr => ConvOp::UToPtr,
        O::ConvertPtrToU => ConvOp::PtrToU,
        _ => return None,
    })
}

/// The core SPIR-V instructions that become an `Op::Math`.
pub(super) fn math(op: O) -> Option<MathOp> {
    Some(match op {
        O::Dot => MathOp::Dot,
        O::IsNan => MathOp::IsNan,
        O::IsInf => MathOp::IsInf,
        O::QuantizeToF16 => MathOp::QuantizeToF16,
        O::Any => MathOp::Any,
        O::All => MathOp::All,
        O::BitFieldInsert => MathOp::BitFieldInsert,
        O::BitFieldSExtract => MathOp::BitFieldSExtract,
        O::BitFieldUExtract => MathOp::BitFieldUExtract,
        O::IAddCarry => MathOp::IAddCarry,
        O::ISubBorrow => MathOp::ISubBorrow,
        O::UMulExtended => MathOp::UMulExtended,
        O::SMulExtended => MathOp::SMulExtended,
        O::Transpose => MathOp::Transpose,
        O::OuterProduct => MathOp::OuterProduct,
        O::MatrixTimesScalar => MathOp::MatrixTimesScalar,
        O::MatrixTimesVector => MathOp::MatrixTimesVector,
        O::VectorTimesMatrix => MathOp::VectorTimesMatrix,
        O::MatrixTimesMatrix => MathOp::MatrixTimesMatrix,
        _ => return None,
    })
}

/// What a GLSL.std.450 instruction becomes.
pub(super) enum Glsl {
    Unary(UnaryOp),
    Binary(BinaryOp),
    Math(MathOp),
    /// Modf / Frexp: the struct form, whose second member is stored
    /// through the pointer operand, and whose first is the result.
    WithPointer(MathOp),
    /// An instruction that task, mesh and compute shaders cannot use.
    Invalid(&'static str),
}

pub(super) fn glsl_std_450(op: G) -> Glsl {
    match op {
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
        G::FMin => Glsl::Binary(BinaryOp::FMin),
        G::FMax => Glsl::Binary(BinaryOp::FMax),
        G::UMin => Glsl::Binary(BinaryOp::UMin),
        G::UMax => Glsl::Binary(BinaryOp::UMax),
        G::SMin => Glsl::Binary(BinaryOp::SMin),
        G::SMax => Glsl::Binary(BinaryOp::SMax),
        G::NMin => Glsl::Math(MathOp::NMin),
        G::NMax => Glsl::Math(MathOp::NMax),
        G::SAbs => Glsl::Math(MathOp::SAbs),
        G::FSign => Glsl::Math(MathOp::FSign),
        G::SSign => Glsl::Math(MathOp::SSign),
        G::Radians => Glsl::Math(MathOp::Radians),
        G::Degrees => Glsl::Math(MathOp::Degrees),
        G::Tan => Glsl::Math(MathOp::Tan),
        G::Asin => Glsl::Math(MathOp::Asin),
        G::Acos => Glsl::Math(MathOp::Acos),
        G::Atan => Glsl::Math(MathOp::Atan),
        G::Sinh => Glsl::Math(MathOp::Sinh),
        G::Cosh => Glsl::Math(MathOp::Cosh),
        G::Tanh => Glsl::Math(MathOp::Tanh),
        G::Asinh => Glsl::Math(MathOp::Asinh),
        G::Acosh => Glsl::Math(MathOp::Acosh),
        G::Atanh => Glsl::Math(MathOp::Atanh),
        G::Atan2 => Glsl::Math(MathOp::Atan2),
        G::Pow => Glsl::Math(MathOp::Pow),
        G::Exp => Glsl::Math(MathOp::Exp),
        G::Log => Glsl::Math(MathOp::Log),
        G::Determinant => Glsl::Math(MathOp::Determinant),
        G::MatrixInverse => Glsl::Math(MathOp::MatrixInverse),
        G::ModfStruct => Glsl::Math(MathOp::ModfStruct),
        G::Modf => Glsl::WithPointer(MathOp::ModfStruct),
        G::FrexpStruct => Glsl::Math(MathOp::FrexpStruct),
        G::Frexp => Glsl::WithPointer(MathOp::FrexpStruct),
        G::Ldexp => Glsl::Math(MathOp::Ldexp),
        G::FClamp => Glsl::Math(MathOp::FClamp),
        G::UClamp => Glsl::Math(MathOp::UClamp),
        G::SClamp => Glsl::Math(MathOp::SClamp),
        G::NClamp => Glsl::Math(MathOp::NClamp),
        G::FMix => Glsl::Math(MathOp::FMix),
        G::Step => Glsl::Math(MathOp::Step),
        G::SmoothStep => Glsl::Math(MathOp::SmoothStep),
        G::Fma => Glsl::Math(MathOp::Fma),
        G::PackSnorm4x8 => Glsl::Math(MathOp::PackSnorm4x8),
        G::PackUnorm4x8 => Glsl::Math(MathOp::PackUnorm4x8),
        G::PackSnorm2x16 => Glsl::Math(MathOp::PackSnorm2x16),
        G::PackUnorm2x16 => Glsl::Math(MathOp::PackUnorm2x16),
        G::PackHalf2x16 => Glsl::Math(MathOp::PackHalf2x16),
        G::PackDouble2x32 => Glsl::Math(MathOp::PackDouble2x32),
        G::UnpackSnorm2x16 => Glsl::Math(MathOp::UnpackSnorm2x16),
        G::UnpackUnorm2x16 => Glsl::Math(MathOp::UnpackUnorm2x16),
        G::UnpackHalf2x16 => Glsl::Math(MathOp::UnpackHalf2x16),
        G::UnpackSnorm4x8 => Glsl::Math(MathOp::UnpackSnorm4x8),
        G::UnpackUnorm4x8 => Glsl::Math(MathOp::UnpackUnorm4x8),
        G::UnpackDouble2x32 => Glsl::Math(MathOp::UnpackDouble2x32),
        G::Length => Glsl::Math(MathOp::Length),
        G::Distance => Glsl::Math(MathOp::Distance),
        G::Cross => Glsl::Math(MathOp::Cross),
        G::Normalize => Glsl::Math(MathOp::Normalize),
        G::FaceForward => Glsl::Math(MathOp::FaceForward),
        G::Reflect => Glsl::Math(MathOp::Reflect),
        G::Refract => Glsl::Math(MathOp::Refract),
        G::FindILsb => Glsl::Math(MathOp::FindILsb),
        G::FindSMsb => Glsl::Math(MathOp::FindSMsb),
        G::FindUMsb => Glsl::Math(MathOp::FindUMsb),
        G::InterpolateAtCentroid | G::InterpolateAtSample | G::InterpolateAtOffset => {
            Glsl::Invalid("interpolation exists only in fragment shaders")
        }
        // IMix is reserved in GLSL.std.450: no valid module uses it.
        G::IMix => Glsl::Invalid("IMix is reserved"),
    }
}
