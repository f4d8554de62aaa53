//! Pipeline statistics counted by the shaders themselves
//! (docs/HARDWARE.md, "Workgroups": the
//! hardware does not count task and mesh invocations). Each workgroup adds,
//! from one lane, with `RED.E.ADD.64` to the 64-bit counters (Vulkan's
//! query results are 64-bit, so a long draw cannot wrap them) at the root table's
//! query address (`abi::query`): its API invocation count (the
//! workgroup size, whatever lanes it runs on) at the top of the shader,
//! and, in a mesh shader, the primitive count it passes to
//! SetMeshOutputsEXT, culled primitives included, as the H100 counts
//! MESH_PRIMITIVES_GENERATED. In-shader culling (`mesh_cull`) keeps that
//! count: the RED is emitted where the shader calls SetMeshOutputsEXT, in
//! the part that runs before the culling epilogue, and the epilogue
//! rewrites only the MAP primitive count, so statistics stay pre-cull.

use super::{Comp, Isel};
use crate::abi::{self, query};
use crate::isa::{AtomOp, AtomType, Instr, Op, OpMov, OpRed, RegFile, Src, SrcRef};
use crate::mir::VReg;
use spvsass_frontend::ir::Stage;

impl Isel<'_> {
    /// Adds `value` to the counter at `offset` of the query block, from
    /// lane 0 only.
    fn count_statistic(&mut self, offset: u32, value: Comp) {
        let pair = self.query_address();
        let data = self.pair_group([value, Comp::Const(0)]);
        let guard = self.lane0_guard();
        self.emit(Instr::guarded(
            guard,
            Op::Red(OpRed {
                addr: pair.src(),
                offset: offset as i32,
                data,
                op: AtomOp::Add,
                ty: AtomType::U64,
            }),
        ));
    }

    /// The query address in a register pair, loaded once per MIR block.
    fn query_address(&mut self) -> VReg {
        if let Some(&pair) = self.cache.query_address.get(&self.cur) {
            return pair;
        }
        let pair = self.f.new_vreg(RegFile::Gpr);
        let high = self.f.new_vreg(RegFile::Gpr);
        debug_assert_eq!(high, pair.offset(1), "a register group is consecutive");
        for (r, at) in [(pair, abi::QUERY_ADDRESS), (high, abi::QUERY_ADDRESS + 4)] {
            self.emit(Instr::new(Op::Mov(OpMov {
                dst: r.dst(),
                src: Src {
                    src: SrcRef::CBuf {
                        bank: abi::ROOT_BANK,
                        offset: at,
                    },
                    neg: false,
                    abs: false,
                },
            })));
        }
        self.cache.query_address.insert(self.cur, pair);
        pair
    }

    /// Counts the workgroup's invocations; called once, at the top of the
    /// entry block.
    pub(super) fn count_invocations(&mut self) {
        let counter = match self.sh.stage {
            Stage::Task => query::TASK_INVOCATIONS,
            Stage::Mesh => query::MESH_INVOCATIONS,
            _ => return,
        };
        self.count_statistic(counter, Comp::Const(self.sh.invocations()));
    }

    /// Counts the primitives a mesh workgroup emits (SetMeshOutputsEXT).
    pub(super) fn count_primitives(&mut self, primitive_count: Comp) {
        self.count_statistic(query::MESH_PRIMITIVES, primitive_count);
    }
}
