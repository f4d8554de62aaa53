//! OpGroupNonUniform* → `Op::Subgroup`. Only subgroup scope is accepted:
//! workgroup-scope group operations need cross-warp communication that
//! no Vulkan driver exposes for these stages either.

use super::Translator;
use super::operands::{Operands, malformed, unsupported};
use crate::FrontendError;
use crate::ir::{Block, GroupOperation, Op, ReduceOp, SubgroupOp};
use rspirv::dr::{Instruction, Operand};

/// Vulkan's Subgroup scope (SPIR-V "Scope" enumerant 3).
const SUBGROUP_SCOPE: u32 = 3;

/// What an opcode becomes, before its group operation (if it has one) is
/// read.
pub(super) enum Kind {
    Plain(SubgroupOp),
    BitCount,
    Arithmetic(ReduceOp),
}

pub(super) fn subgroup_op(op: spirv::Op) -> Option<Kind> {
    use SubgroupOp as S;
    use spirv::Op as O;
    let arith = |r| Some(Kind::Arithmetic(r));
    Some(Kind::Plain(match op {
        O::GroupNonUniformElect => S::Elect,
        O::GroupNonUniformAll => S::All,
        O::GroupNonUniformAny => S::Any,
        O::GroupNonUniformAllEqual => S::AllEqual,
        O::GroupNonUniformBroadcast => S::Broadcast,
        O::GroupNonUniformBroadcastFirst => S::BroadcastFirst,
        O::GroupNonUniformBallot => S::Ballot,
        O::GroupNonUniformInverseBallot => S::InverseBallot,
        O::GroupNonUniformBallotBitExtract => S::BallotBitExtract,
        O::GroupNonUniformBallotBitCount => return Some(Kind::BitCount),
        O::GroupNonUniformBallotFindLSB => S::BallotFindLsb,
        O::GroupNonUniformBallotFindMSB => S::BallotFindMsb,
        O::GroupNonUniformShuffle => S::Shuffle,
        O::GroupNonUniformShuffleXor => S::ShuffleXor,
        O::GroupNonUniformShuffleUp => S::ShuffleUp,
        O::GroupNonUniformShuffleDown => S::ShuffleDown,
        O::GroupNonUniformQuadBroadcast => S::QuadBroadcast,
        O::GroupNonUniformQuadSwap => S::QuadSwap,
        O::GroupNonUniformIAdd => return arith(ReduceOp::IAdd),
        O::GroupNonUniformFAdd => return arith(ReduceOp::FAdd),
        O::GroupNonUniformIMul => return arith(ReduceOp::IMul),
        O::GroupNonUniformFMul => return arith(ReduceOp::FMul),
        O::GroupNonUniformSMin => return arith(ReduceOp::SMin),
        O::GroupNonUniformUMin => return arith(ReduceOp::UMin),
        O::GroupNonUniformFMin => return arith(ReduceOp::FMin),
        O::GroupNonUniformSMax => return arith(ReduceOp::SMax),
        O::GroupNonUniformUMax => return arith(ReduceOp::UMax),
        O::GroupNonUniformFMax => return arith(ReduceOp::FMax),
        O::GroupNonUniformBitwiseAnd => return arith(ReduceOp::And),
        O::GroupNonUniformBitwiseOr => return arith(ReduceOp::Or),
        O::GroupNonUniformBitwiseXor => return arith(ReduceOp::Xor),
        O::GroupNonUniformLogicalAnd => return arith(ReduceOp::LogicalAnd),
        O::GroupNonUniformLogicalOr => return arith(ReduceOp::LogicalOr),
        O::GroupNonUniformLogicalXor => return arith(ReduceOp::LogicalXor),
        _ => return None,
    }))
}

impl Translator<'_> {
    pub(super) fn subgroup(
        &mut self,
        block: Block,
        inst: &Instruction,
        kind: Kind,
    ) -> Result<(), FrontendError> {
        let mut ops = Operands::new(inst);
        let scope = self.constant_scope(inst, &mut ops, "execution scope")?;
        if self.info.u32_constant(scope) != Some(SUBGROUP_SCOPE) {
            return Err(unsupported(inst, "group operations wider than a subgroup"));
        }
        let op = match kind {
            Kind::Plain(op) => op,
            Kind::BitCount => SubgroupOp::BallotBitCount(group_operation(&mut ops)?),
            Kind::Arithmetic(r) => SubgroupOp::Arithmetic(r, group_operation(&mut ops)?),
        };
        let args = self.rest_values(inst, &mut ops, "operand")?;
        if args.len() != op.arity() {
            return Err(malformed(
                inst,
                format!("takes {} operands, not {}", op.arity(), args.len()),
            ));
        }
        self.emit(block, inst, Op::Subgroup(op, args))
    }
}

fn group_operation(ops: &mut Operands) -> Result<GroupOperation, FrontendError> {
    use spirv::GroupOperation as G;
    match ops.any("group operation")? {
        Operand::GroupOperation(G::Reduce) => Ok(GroupOperation::Reduce),
        Operand::GroupOperation(G::InclusiveScan) => Ok(GroupOperation::InclusiveScan),
        Operand::GroupOperation(G::ExclusiveScan) => Ok(GroupOperation::ExclusiveScan),
        Operand::GroupOperation(G::ClusteredReduce) => Ok(GroupOperation::ClusteredReduce),
        other => Err(ops.wrong_kind("group operation", other)),
    }
}
