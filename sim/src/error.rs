//! Everything that can stop a simulation. Each message says what went wrong
//! and where: the instruction as `/*0040*/` (its byte address, as in the
//! listing), the lane, the ISBE address and, for draws, the workgroup.

use crate::isbe::IsbeRegion;
use crate::memory::{MemFault, Space};
use spvsass_isa::isa::DecodeError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    #[error("{0}")]
    Images(#[from] crate::texture::host::HostError),

    #[error("/*{pc:04x}*/: cannot decode the instruction: {error}")]
    Decode { pc: u32, error: DecodeError },

    #[error(
        "/*{pc:04x}*/: branch target {target:#x} is outside the program (which ends at {end:#x})"
    )]
    TargetOutside { pc: u32, target: u32, end: u32 },

    #[error("/*{pc:04x}*/: branch target {target:#x} is not on an instruction boundary (16 bytes)")]
    TargetUnaligned { pc: u32, target: u32 },

    #[error("/*{pc:04x}*/: branch target is a block, not an address")]
    UnresolvedTarget { pc: u32 },

    #[error(
        "workgroup size {}x{}x{} ({lanes} invocations) does not fit one warp: \
         the simulator runs a workgroup of 1 to 128 invocations on one warp",
        size[0], size[1], size[2]
    )]
    WorkgroupSize { size: [u32; 3], lanes: u64 },

    #[error("the binary has no mesh state (stage {stage}): it is not a mesh shader")]
    NotMesh { stage: &'static str },

    #[error("/*{pc:04x}*/ lane {lane}: {bytes}-byte {space} access at {addr:#x}: {fault}")]
    Memory {
        pc: u32,
        lane: u32,
        space: Space,
        addr: u64,
        bytes: u32,
        fault: MemFault,
    },

    #[error(
        "/*{pc:04x}*/: deadlock: lanes {} wait at {what} for lanes {}, which can never arrive",
        lane_list(*waiting), lane_list(*missing)
    )]
    WaitDeadlock {
        pc: u32,
        what: &'static str,
        waiting: u32,
        missing: u32,
    },

    #[error("/*{pc:04x}*/ lane {lane}: SHFL reads lane {from}, which does not execute it")]
    ShuffleFromInactive { pc: u32, lane: u32, from: u32 },

    #[error("/*{pc:04x}*/: special register {name} is not supported by the simulator")]
    UnsupportedSpecialReg { pc: u32, name: &'static str },

    #[error("/*{pc:04x}*/: {what} is not supported by the simulator")]
    UnsupportedIsbe { pc: u32, what: &'static str },

    #[error("/*{pc:04x}*/: {what} is not supported by the simulator")]
    Unsupported { pc: u32, what: &'static str },

    #[error("/*{pc:04x}*/ lane {lane}: texture handle {handle:#x}: {error}")]
    Texture {
        pc: u32,
        lane: u32,
        handle: u32,
        error: TexFault,
    },

    #[error(
        "/*{pc:04x}*/ lane {lane}: {bytes}-byte access at {addr:#x} is outside the {region} \
         region ({region_size:#x} bytes)"
    )]
    IsbeOutOfBounds {
        pc: u32,
        lane: u32,
        region: IsbeRegion,
        addr: u64,
        bytes: u32,
        region_size: u32,
    },

    #[error(
        "/*{pc:04x}*/ lane {lane}: {bytes}-byte access at {addr:#x} in the {region} region is unaligned"
    )]
    IsbeUnaligned {
        pc: u32,
        lane: u32,
        region: IsbeRegion,
        addr: u64,
        bytes: u32,
    },

    #[error(
        "/*{pc:04x}*/: barrier deadlock: lanes {} wait at BSYNC B{bar} for lanes {}, \
         which can never arrive",
        lane_list(*waiting), lane_list(*missing)
    )]
    BarrierDeadlock {
        pc: u32,
        bar: u8,
        waiting: u32,
        missing: u32,
    },

    #[error(
        "/*{pc:04x}*/: BAR.SYNC executed by lanes {} while live lanes {} are elsewhere: \
         a warp must reach a workgroup barrier converged (the hardware counts the warp \
         once and lets it go on; docs/HARDWARE.md, \"Barriers\")",
        lane_list(*lanes), lane_list(*elsewhere)
    )]
    DivergentBarrier { pc: u32, lanes: u32, elsewhere: u32 },

    #[error("/*{pc:04x}*/: lanes {} ran off the end of the program (no EXIT)", lane_list(*lanes))]
    PcOutOfRange { pc: u32, lanes: u32 },

    #[error("/*{pc:04x}*/: step limit reached after {steps} warp-instructions (an endless loop?)")]
    StepLimit { pc: u32, steps: u64 },

    #[error("the binary is a {stage} shader, not a compute shader")]
    NotCompute { stage: &'static str },

    #[error(
        "workgroup size {}x{}x{} ({invocations} invocations): a compute workgroup has 1 to 1024",
        size[0], size[1], size[2]
    )]
    ComputeWorkgroupSize { size: [u32; 3], invocations: u64 },

    #[error(
        "{kind} buffer at binding {binding}: {bytes} bytes is more than the {limit} a run may bind"
    )]
    BufferTooLarge {
        kind: &'static str,
        binding: u32,
        bytes: u64,
        limit: u64,
    },

    #[error(
        "workgroup counts {}x{}x{}: past the limit of {}x{}x{} ({property})",
        groups[0], groups[1], groups[2], limit[0], limit[1], limit[2]
    )]
    TooManyGroups {
        groups: [u32; 3],
        limit: [u32; 3],
        property: &'static str,
    },

    #[error(
        "workgroup ({}, {}, {}): the run passed its budget of {limit} warp-instructions \
         in all ({steps} so far; SimOptions::max_total_steps)",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    TotalStepLimit {
        workgroup: [u32; 3],
        steps: u64,
        limit: u64,
    },

    #[error(
        "workgroup ({}, {}, {}): the draw's outputs would take about {bytes} bytes, \
         more than the limit of {limit} (SimOptions::max_output_bytes)",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    OutputLimit {
        workgroup: [u32; 3],
        bytes: u64,
        limit: u64,
    },

    #[error(transparent)]
    Abi(#[from] spvsass_isa::abi::AbiError),

    #[error("{slot} is bound twice")]
    BoundTwice { slot: String },

    #[error(
        "{slot}: the range {} at offset {offset} does not fit the {size}-byte buffer",
        range.map_or("to the end".to_string(), |r| format!("of {r} bytes"))
    )]
    BindingRange {
        slot: String,
        offset: u64,
        range: Option<u64>,
        size: u64,
    },

    #[error(
        "{slot}: offset {offset} is not a multiple of 16 (buffer bases must be 16-byte aligned)"
    )]
    BindingOffset { slot: String, offset: u64 },

    #[error(transparent)]
    Ctrl(Box<CtrlHazard>),

    #[error("warp {warp} (invocations {}..{}): {error}", 32 * warp, 32 * warp + 31)]
    InWarp { warp: u32, error: Box<SimError> },

    #[error("workgroup ({}, {}, {}): {error}", workgroup[0], workgroup[1], workgroup[2])]
    InWorkgroup {
        workgroup: [u32; 3],
        error: Box<SimError>,
    },

    #[error(
        "workgroup ({}, {}, {}): primitive count {count} exceeds max_primitives {max}",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    TooManyPrimitives {
        workgroup: [u32; 3],
        count: u32,
        max: u32,
    },

    #[error(
        "workgroup ({}, {}, {}): primitive {primitive} uses vertex {index}, but max_vertices is {max}",
        workgroup[0], workgroup[1], workgroup[2]
    )]
    IndexOutOfRange {
        workgroup: [u32; 3],
        primitive: u32,
        index: u32,
        max: u32,
    },
}

/// A control-bit hazard the checker found (`SimOptions::check_ctrl`): the
/// hardware could read or overwrite a register too early. Each names the
/// instruction that issued too early and the one it depends on, by byte
/// address and text, the register and a lane it happened in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CtrlHazard {
    #[error(
        "control bits: /*{pc:04x}*/ `{text}` reads {reg} (lane {lane}) {short} cycle(s) before \
         /*{producer_pc:04x}*/ `{producer_text}` has written it: the stall counts between them \
         are too small"
    )]
    ReadBeforeLatency {
        pc: u32,
        text: String,
        reg: String,
        lane: u32,
        short: u64,
        producer_pc: u32,
        producer_text: String,
    },

    #[error(
        "control bits: /*{pc:04x}*/ `{text}` reads {reg} (lane {lane}), which \
         /*{producer_pc:04x}*/ `{producer_text}` writes late, without waiting on {}",
        scoreboard(*sb, "write")
    )]
    ReadBeforeScoreboard {
        pc: u32,
        text: String,
        reg: String,
        lane: u32,
        sb: u8,
        producer_pc: u32,
        producer_text: String,
    },

    #[error(
        "control bits: /*{pc:04x}*/ `{text}` stalls {stall} cycle(s): the next instruction \
         could issue before the barrier holds the warp (at least {min} are needed)"
    )]
    BarrierStall {
        pc: u32,
        text: String,
        stall: u8,
        min: u8,
    },

    #[error(
        "control bits: /*{pc:04x}*/ `{text}` writes {reg} (lane {lane}), which \
         /*{reader_pc:04x}*/ `{reader_text}` may still be reading, without waiting on {}",
        scoreboard(*sb, "read")
    )]
    WriteBeforeRead {
        pc: u32,
        text: String,
        reg: String,
        lane: u32,
        sb: u8,
        reader_pc: u32,
        reader_text: String,
    },

    #[error(
        "control bits: /*{pc:04x}*/ `{text}` writes {reg} (lane {lane}), which \
         /*{producer_pc:04x}*/ `{producer_text}` may still be writing, without waiting on {}",
        scoreboard(*sb, "write")
    )]
    WriteBeforeWrite {
        pc: u32,
        text: String,
        reg: String,
        lane: u32,
        sb: u8,
        producer_pc: u32,
        producer_text: String,
    },
}

/// A scoreboard of the control bits, or its absence (7).
fn scoreboard(sb: u8, which: &str) -> String {
    if sb < 6 {
        format!("its {which} scoreboard SB{sb}")
    } else {
        format!("a {which} scoreboard (it sets none)")
    }
}

/// A lane mask as a list of lanes and ranges: `0-15,20`.
fn lane_list(mask: u32) -> String {
    let mut parts = Vec::new();
    let mut lane = 0;
    while lane < 32 {
        if mask & (1 << lane) == 0 {
            lane += 1;
            continue;
        }
        let start = lane;
        while lane < 32 && mask & (1 << lane) != 0 {
            lane += 1;
        }
        parts.push(if lane - 1 == start {
            format!("{start}")
        } else {
            format!("{start}-{}", lane - 1)
        });
    }
    if parts.is_empty() {
        "(none)".to_string()
    } else {
        parts.join(",")
    }
}

/// A texture unit error inside a [`SimError`]: `TexError` compares floats
/// (a depth reference) so is only `PartialEq`; the simulator never
/// compares errors holding NaN, so equality is total here.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct TexFault(pub crate::texture::TexError);

impl Eq for TexFault {}
