//! Checking a decoded stream against the shaders bound for its draw: the
//! stage state it sets must be the binaries' own.

use super::{DrawState, MethodError, threads, topology_code};
use crate::binary::{Binary, MeshState};

impl DrawState {
    /// Checks the stream against the shaders bound for the draw.
    pub fn check(
        &self,
        task: Option<&Binary>,
        mesh: &MeshState,
        mesh_threads: u32,
    ) -> Result<(), MethodError> {
        let mismatch = |what, stream, binary, shader| {
            Err(MethodError::Mismatch {
                what,
                stream,
                binary,
                shader,
            })
        };
        let [topo, max_v, max_p] = self.mesh_shader_a.unwrap_or_default();
        if topo != topology_code(mesh.topology) {
            return mismatch(
                "SET_MESH_SHADER_A.OUTPUT_TOPOLOGY",
                topo,
                topology_code(mesh.topology),
                "mesh",
            );
        }
        if max_v != mesh.max_vertices {
            return mismatch(
                "SET_MESH_SHADER_A.MAX_VERTEX",
                max_v,
                mesh.max_vertices,
                "mesh",
            );
        }
        if max_p != mesh.max_primitives {
            return mismatch(
                "SET_MESH_SHADER_A.MAX_PRIMITIVE",
                max_p,
                mesh.max_primitives,
                "mesh",
            );
        }
        let [_, threads_b] = self.mesh_shader_b.unwrap_or_default();
        if threads_b != mesh_threads {
            return mismatch(
                "SET_MESH_SHADER_B.THREAD_COUNT",
                threads_b,
                mesh_threads,
                "mesh",
            );
        }
        match (task, self.init_shader) {
            (Some(t), Some([threads_i, ..])) if threads_i != threads(t) => mismatch(
                "SET_MESH_INIT_SHADER.THREAD_COUNT",
                threads_i,
                threads(t),
                "task",
            ),
            (Some(_), None) => Err(MethodError::Missing(
                "SET_MESH_INIT_SHADER (a task shader is bound)",
            )),
            (None, Some([t, ..])) => {
                mismatch("SET_MESH_INIT_SHADER.THREAD_COUNT", t, 0, "(absent) task")
            }
            _ if self.start != 0 => mismatch(
                "DRAW_VERTEX_ARRAY_BEGIN_END_A.START",
                self.start,
                0,
                "mesh draw's",
            ),
            _ => Ok(()),
        }
    }
}
