//! The shader program header (SPH), version 4: 32 words in front of a
//! graphics stage's code. Field positions from NAK's header writer
//! (docs/HARDWARE.md, "Shader program header"); this project fills the fields its shaders need and
//! leaves the rest zero.

use crate::binary::{MeshState, MeshTopology};
use crate::isbe_layout::addr;

/// The hardware stage a program is bound as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderType {
    Vertex = 1,
    TessellationInit = 2,
    Tessellation = 3,
    Geometry = 4,
    Pixel = 5,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sph(pub [u32; 32]);

pub mod bits {
    use std::ops::Range;
    pub const SPH_TYPE: Range<usize> = 0..5;
    pub const VERSION: Range<usize> = 5..10;
    pub const SHADER_TYPE: Range<usize> = 10..14;
    pub const DOES_GLOBAL_STORE: usize = 16;
    pub const SASS_VERSION: Range<usize> = 17..21;
    pub const GS_PASSTHROUGH: usize = 24;
    pub const DOES_LOAD_OR_STORE: usize = 26;
    pub const LOCAL_MEMORY_LOW: Range<usize> = 32..56;
    pub const THREADS_PER_INPUT_PRIMITIVE: Range<usize> = 88..96;
    pub const OUTPUT_TOPOLOGY: Range<usize> = 120..124;
    pub const MAX_OUTPUT_VERTICES: Range<usize> = 128..140;
    pub const STORE_REQ_START: Range<usize> = 140..148;
    pub const STORE_REQ_END: Range<usize> = 152..160;
    /// Output map: system values A/B (attribute bytes 0x000..0x080).
    pub const OMAP_SYSTEM_AB: usize = 400;
    /// Output map: generic attributes (bytes 0x080..0x280).
    pub const OMAP_GENERIC: usize = 432;
    /// Output map: system values C (bytes 0x2c0..0x300: clip/cull distances).
    pub const OMAP_SYSTEM_C: usize = 576;
}

pub const SPH_TYPE_VTG: u32 = 1;
pub const SPH_VERSION: u32 = 4;

impl Sph {
    pub fn get(&self, r: std::ops::Range<usize>) -> u32 {
        r.clone()
            .fold(0, |acc, b| acc | (u32::from(self.bit(b)) << (b - r.start)))
    }

    pub fn bit(&self, b: usize) -> bool {
        self.0[b / 32] & (1 << (b % 32)) != 0
    }

    fn set(&mut self, r: std::ops::Range<usize>, v: u32) {
        for (i, b) in r.enumerate() {
            self.set_bit(b, v & (1 << i) != 0);
        }
    }

    fn set_bit(&mut self, b: usize, v: bool) {
        if v {
            self.0[b / 32] |= 1 << (b % 32);
        } else {
            self.0[b / 32] &= !(1 << (b % 32));
        }
    }

    /// The bit of the output map for attribute byte address `a`.
    pub fn output_map_bit(a: u16) -> Option<usize> {
        let a = usize::from(a);
        match a {
            0x000..0x080 => Some(bits::OMAP_SYSTEM_AB + a / 4),
            0x080..0x280 => Some(bits::OMAP_GENERIC + (a - 0x80) / 4),
            0x2c0..0x300 => Some(bits::OMAP_SYSTEM_C + (a - 0x2c0) / 4),
            _ => None,
        }
    }

    /// The common words of a VTG header bound as `shader_type`.
    fn vtg(shader_type: ShaderType) -> Sph {
        let mut s = Sph([0; 32]);
        s.set(bits::SPH_TYPE, SPH_TYPE_VTG);
        s.set(bits::VERSION, SPH_VERSION);
        s.set(bits::SHADER_TYPE, shader_type as u32);
        s.set(bits::SASS_VERSION, 1);
        s
    }

    /// The header of a task or mesh stage: every such shader adds its
    /// pipeline statistics to global memory (`backend/src/lower_statistics.rs`).
    fn task_mesh(shader_type: ShaderType) -> Sph {
        let mut s = Sph::vtg(shader_type);
        s.set_bit(bits::DOES_GLOBAL_STORE, true);
        s.set_bit(bits::DOES_LOAD_OR_STORE, true);
        s
    }

    /// Sets the local memory per invocation (SHADER_LOCAL_MEMORY_LOW_SIZE,
    /// in bytes, as Mesa NAK's `set_local_memory_allocation` writes it).
    pub fn set_local_memory(&mut self, bytes: u32) {
        self.set(bits::LOCAL_MEMORY_LOW, bytes);
    }

    /// The header of a task shader: always bound as VERTEX
    /// (docs/HARDWARE.md, "Shader program header"). Its
    /// outputs (counts and payload) are raw ATTR words, not SPH attributes.
    pub fn task() -> Sph {
        Sph::task_mesh(ShaderType::Vertex)
    }

    /// The header of a mesh shader (bound as VERTEX, or TESSELLATION when a
    /// task shader feeds it).
    pub fn mesh(m: &MeshState, shader_type: ShaderType) -> Sph {
        let mut s = Sph::task_mesh(shader_type);
        s.set(
            bits::OUTPUT_TOPOLOGY,
            match m.topology {
                MeshTopology::Points => 1,
                MeshTopology::Lines => 6,
                MeshTopology::Triangles => 7,
            },
        );
        s.set(bits::MAX_OUTPUT_VERTICES, m.max_vertices);
        for &a in &m.vertex_attrs {
            if let Some(b) = Sph::output_map_bit(a) {
                s.set_bit(b, true);
            }
        }
        if let (Some(first), Some(last)) = (m.vertex_attrs.first(), m.vertex_attrs.last()) {
            s.set(bits::STORE_REQ_START, u32::from(*first) / 4);
            s.set(bits::STORE_REQ_END, u32::from(*last) / 4);
        }
        s
    }

    /// The GEOMETRY header of the passthrough stage that carries a mesh
    /// shader's per-primitive outputs (docs/HARDWARE.md): passthrough, one thread
    /// per input primitive, POINTLIST, one output vertex, output map = the
    /// per-primitive attributes (those the map covers: VIEWPORT_MASK and
    /// the shading rate have no known map bit and are left out).
    pub fn passthrough_gs(primitive_attrs: &[u16]) -> Sph {
        let mut s = Sph::vtg(ShaderType::Geometry);
        s.set_bit(bits::GS_PASSTHROUGH, true);
        s.set(bits::THREADS_PER_INPUT_PRIMITIVE, 1);
        s.set(bits::OUTPUT_TOPOLOGY, 1);
        s.set(bits::MAX_OUTPUT_VERTICES, 1);
        for &a in primitive_attrs {
            if let Some(b) = Sph::output_map_bit(a) {
                s.set_bit(b, true);
            }
        }
        s
    }

    /// A one-line summary for the listing header.
    pub fn summary(&self) -> String {
        let ty = match self.get(bits::SHADER_TYPE) {
            1 => "VERTEX",
            2 => "TESSELLATION_INIT",
            3 => "TESSELLATION",
            4 => "GEOMETRY",
            5 => "PIXEL",
            _ => "?",
        };
        let topo = match self.get(bits::OUTPUT_TOPOLOGY) {
            1 => "POINTLIST",
            6 => "LINESTRIP",
            7 => "TRIANGLESTRIP",
            _ => "-",
        };
        let outputs: Vec<String> = (0u16..0x300)
            .step_by(4)
            .filter(|&a| Sph::output_map_bit(a).is_some_and(|b| self.bit(b)))
            .map(attr_name)
            .collect();
        let passthrough = if self.bit(bits::GS_PASSTHROUGH) {
            " passthrough"
        } else {
            ""
        };
        format!(
            "SPH v{} type {ty}{passthrough}, topology {topo}, max vertices {}, outputs [{}]",
            self.get(bits::VERSION),
            self.get(bits::MAX_OUTPUT_VERTICES),
            outputs.join(" ")
        )
    }
}

/// A readable name for an attribute byte address.
pub fn attr_name(a: u16) -> String {
    const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];
    match a {
        addr::PRIMITIVE_ID => "PrimitiveId".into(),
        addr::LAYER => "Layer".into(),
        addr::VIEWPORT_INDEX => "ViewportIndex".into(),
        addr::POINT_SIZE => "PointSize".into(),
        addr::VIEWPORT_MASK => "ViewportMask".into(),
        addr::SHADING_RATE => "ShadingRate".into(),
        0x70..0x80 => format!("Position.{}", XYZW[usize::from((a - 0x70) / 4)]),
        addr::GENERIC..addr::GENERIC_END => {
            let g = a - addr::GENERIC;
            format!("Generic{}.{}", g / 16, XYZW[usize::from((g % 16) / 4)])
        }
        // Clip distances, then cull distances (from_ir/output_slots.rs).
        0x2c0..0x2e0 => format!("ClipCull{}", (a - addr::CLIP_DISTANCE) / 4),
        _ => format!("{a:#x}"),
    }
}
