//! Pipeline statistics and VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT.
//! Both queries are begun and ended outside the render pass: inside a
//! multiview pass a query would take one slot per view, with the counts
//! spread over them as the implementation likes.

use super::device::Gpu;
use super::error::{ReferenceError, vk_err};
use super::result::Statistics;
use ash::vk;

type Flags = vk::QueryPipelineStatisticFlags;

pub struct Queries {
    statistics: Option<(vk::QueryPool, Vec<Flags>)>,
    primitives: Option<vk::QueryPool>,
}

impl Queries {
    /// The queries the device can answer for a compute or a mesh run; task
    /// invocations only with a task stage (a count of 0 would be read as a
    /// measurement).
    pub fn new(gpu: &mut Gpu, mesh: bool, task: bool) -> Result<Queries, ReferenceError> {
        // In bit order: results come back ordered by flag bit.
        let mut counted = Vec::new();
        if gpu.enabled.pipeline_statistics {
            if mesh {
                counted.extend([Flags::CLIPPING_INVOCATIONS, Flags::CLIPPING_PRIMITIVES]);
                counted.push(Flags::FRAGMENT_SHADER_INVOCATIONS);
                if gpu.enabled.mesh_queries {
                    counted.push(Flags::MESH_SHADER_INVOCATIONS_EXT);
                    if task {
                        counted.push(Flags::TASK_SHADER_INVOCATIONS_EXT);
                    }
                }
            } else {
                counted.push(Flags::COMPUTE_SHADER_INVOCATIONS);
            }
        }
        counted.sort_by_key(|f| f.as_raw());
        let statistics = if counted.is_empty() {
            None
        } else {
            let all = counted.iter().fold(Flags::empty(), |a, f| a | *f);
            let info = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::PIPELINE_STATISTICS)
                .query_count(1)
                .pipeline_statistics(all);
            Some((pool(gpu, &info)?, counted))
        };
        let primitives = if mesh && gpu.enabled.mesh_queries {
            let info = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::MESH_PRIMITIVES_GENERATED_EXT)
                .query_count(1);
            Some(pool(gpu, &info)?)
        } else {
            None
        };
        Ok(Queries {
            statistics,
            primitives,
        })
    }

    fn pools(&self) -> impl Iterator<Item = vk::QueryPool> + '_ {
        self.statistics.iter().map(|s| s.0).chain(self.primitives)
    }

    /// Resets and begins the queries; outside any render pass.
    pub fn begin(&self, gpu: &Gpu, cmd: vk::CommandBuffer) {
        for p in self.pools() {
            // SAFETY: `cmd` is recording, outside a render pass; one query per pool.
            unsafe {
                gpu.device.cmd_reset_query_pool(cmd, p, 0, 1);
                gpu.device
                    .cmd_begin_query(cmd, p, 0, vk::QueryControlFlags::empty());
            }
        }
    }

    pub fn end(&self, gpu: &Gpu, cmd: vk::CommandBuffer) {
        for p in self.pools() {
            // SAFETY: the query was begun in this command buffer.
            unsafe { gpu.device.cmd_end_query(cmd, p, 0) };
        }
    }

    /// The counts, after the command buffer has finished.
    pub fn read(&self, gpu: &Gpu) -> Result<Statistics, ReferenceError> {
        let mut s = Statistics::default();
        if let Some((p, counted)) = &self.statistics {
            let values = results(gpu, *p, counted.len(), "vkGetQueryPoolResults (statistics)")?;
            for (f, v) in counted.iter().zip(values) {
                let slot = match *f {
                    Flags::COMPUTE_SHADER_INVOCATIONS => &mut s.compute_shader_invocations,
                    Flags::TASK_SHADER_INVOCATIONS_EXT => &mut s.task_shader_invocations,
                    Flags::MESH_SHADER_INVOCATIONS_EXT => &mut s.mesh_shader_invocations,
                    Flags::CLIPPING_INVOCATIONS => &mut s.clipping_invocations,
                    Flags::CLIPPING_PRIMITIVES => &mut s.clipping_primitives,
                    Flags::FRAGMENT_SHADER_INVOCATIONS => &mut s.fragment_shader_invocations,
                    _ => continue,
                };
                *slot = Some(v);
            }
        }
        if let Some(p) = self.primitives {
            let value = results(gpu, p, 1, "vkGetQueryPoolResults (mesh primitives)")?;
            s.mesh_primitives_generated = Some(value[0]);
        }
        Ok(s)
    }
}

/// The `n` 64-bit values of query 0 of `pool`, waiting until available.
/// (ash's wrapper takes one slice element per query; here one query has
/// several values.)
fn results(
    gpu: &Gpu,
    pool: vk::QueryPool,
    n: usize,
    call: &'static str,
) -> Result<Vec<u64>, ReferenceError> {
    let mut values = vec![0u64; n];
    let bytes = std::mem::size_of_val(values.as_slice());
    // SAFETY: query 0 exists and yields `n` values; `values` holds exactly
    // that many 64-bit words, and the stride covers one query's values.
    unsafe {
        (gpu.device.fp_v1_0().get_query_pool_results)(
            gpu.device.handle(),
            pool,
            0,
            1,
            bytes,
            values.as_mut_ptr().cast(),
            bytes as u64,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
        )
    }
    .result()
    .map_err(vk_err(call))?;
    Ok(values)
}

fn pool(gpu: &mut Gpu, info: &vk::QueryPoolCreateInfo) -> Result<vk::QueryPool, ReferenceError> {
    // SAFETY: valid device; the query type's feature was enabled.
    Ok(gpu.own(
        unsafe { gpu.device.create_query_pool(info, None) }.map_err(vk_err("vkCreateQueryPool"))?,
    ))
}
