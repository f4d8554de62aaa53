//! Which function-local variables can live in SSA values instead of memory.

use rspirv::dr::{self, Operand};
use rustc_hash::FxHashSet;

/// The OpVariables of class Function in `function` whose pointer is only
/// ever the pointer operand of OpLoad and OpStore. Any other use — an
/// access chain into it, a call argument, a stored pointer, an OpCopyObject
/// or OpPhi of it — needs a real address, so the variable stays in memory.
pub(super) fn promotable_variables(function: &dr::Function) -> FxHashSet<u32> {
    let insts = || function.blocks.iter().flat_map(|b| &b.instructions);
    let mut vars: FxHashSet<u32> = insts()
        .filter(|i| {
            i.class.opcode == spirv::Op::Variable
                && i.operands.first() == Some(&Operand::StorageClass(spirv::StorageClass::Function))
        })
        .filter_map(|i| i.result_id)
        .collect();
    for inst in insts() {
        // Operand 0 of OpLoad and OpStore is the pointer.
        let pointer_operand = matches!(inst.class.opcode, spirv::Op::Load | spirv::Op::Store);
        for (index, operand) in inst.operands.iter().enumerate() {
            if let Operand::IdRef(id) = operand
                && !(pointer_operand && index == 0)
            {
                vars.remove(id);
            }
        }
    }
    vars
}
