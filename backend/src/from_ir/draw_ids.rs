//! The workgroup built-ins of task and mesh shaders: gl_WorkGroupID,
//! gl_NumWorkGroups, gl_GlobalInvocationID, gl_LocalInvocationID of a
//! multi-dimensional workgroup, and gl_DrawID.
//!
//! The hardware gives a task or mesh workgroup only a linear index
//! (VERTEX_ID) and the draw only a count (DRAW_VERTEX_ARRAY's COUNT;
//! docs/HARDWARE.md, "ISBE" and "Methods"). The x/y/z split of a `vkCmdDrawMeshTasksEXT(x, y, z)`
//! grid is the project's choice, the order compute dispatches use: x
//! fastest, then y, then z (`index = x + X * (y + Y * z)`), decoded in the
//! shader with the grid the driver wrote into the root table
//! (`abi::NUM_WORKGROUPS`). A mesh shader behind a task shader splits its
//! index by the counts the task emitted (input ISBE 0x8..0x10) the same way.

use super::{Comp, Isel};
use crate::abi;
use crate::error::BackendError;
use crate::isa::{SpecialReg, Src};
use crate::isbe_layout::task as task_attr;
use spvsass_frontend::ir::Stage;

impl Isel<'_> {
    /// The grid the workgroup index is split by: the task's emitted counts
    /// for a mesh shader behind a task shader, else the draw's grid in the
    /// root table.
    fn grid_count(&mut self, axis: usize) -> Comp {
        if self.sh.stage == Stage::Mesh && self.task_present {
            let at = [task_attr::GROUP_X, task_attr::GROUP_Y, task_attr::GROUP_Z][axis];
            Comp::Reg(self.isbe_read(Src::ZERO, at, false, false))
        } else {
            self.root_word(abi::NUM_WORKGROUPS + 4 * axis as u16)
        }
    }

    /// gl_NumWorkGroups of a task or mesh shader.
    pub(super) fn draw_num_workgroups(&mut self) -> Vec<Comp> {
        (0..3).map(|axis| self.grid_count(axis)).collect()
    }

    /// gl_WorkGroupID of a task or mesh shader: the linear index split by
    /// the grid (x = i % X, y = i / X % Y, z = i / X / Y). `want_yz` is
    /// false when only .x is read (one division instead of two). Computed
    /// once per MIR block.
    pub(super) fn draw_workgroup_id(&mut self, want_yz: bool) -> Vec<Comp> {
        if let Some(c) = self.cache.workgroup_ids.get(&(self.cur, want_yz)) {
            return c.clone();
        }
        let index = Comp::Reg(self.workgroup_index());
        let cx = self.grid_count(0);
        let (q, x) = self.udiv_rem(index, cx);
        let comps = if want_yz {
            let cy = self.grid_count(1);
            let (z, y) = self.udiv_rem(q, cy);
            vec![x, y, z]
        } else {
            vec![x, Comp::Const(0), Comp::Const(0)]
        };
        self.cache
            .workgroup_ids
            .insert((self.cur, want_yz), comps.clone());
        comps
    }

    /// gl_LocalInvocationID of a task or mesh workgroup of any shape: the
    /// invocation index (the lane, or lane + 32i in logical subgroup i)
    /// split by the constant workgroup size.
    pub(super) fn draw_local_id(&mut self) -> Result<Vec<Comp>, BackendError> {
        use spvsass_frontend::ir::BuiltIn;
        if let Some(id) = self.subgroup_builtin(BuiltIn::LocalInvocationId)? {
            return Ok(id);
        }
        let lane = Comp::Reg(self.special_reg(SpecialReg::LaneId));
        let [sx, sy, sz] = self.sh.workgroup_size;
        if sy == 1 && sz == 1 {
            return Ok(vec![lane, Comp::Const(0), Comp::Const(0)]);
        }
        let (q, x) = self.udiv_rem(lane, Comp::Const(sx));
        if sz == 1 {
            return Ok(vec![x, q, Comp::Const(0)]);
        }
        let (z, y) = self.udiv_rem(q, Comp::Const(sy));
        Ok(vec![x, y, z])
    }

    /// gl_GlobalInvocationID of a task or mesh shader: WorkgroupId *
    /// WorkgroupSize + LocalInvocationId, per axis.
    pub(super) fn draw_global_id(&mut self, want_yz: bool) -> Result<Vec<Comp>, BackendError> {
        let group = self.draw_workgroup_id(want_yz);
        let local = self.draw_local_id()?;
        let size = self.sh.workgroup_size;
        Ok(group
            .into_iter()
            .zip(local)
            .zip(size)
            .map(|((g, l), n)| self.mad(g, n, l))
            .collect())
    }
}
