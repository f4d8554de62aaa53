//! Writes a compiled compute shader as a CUDA cubin: an ELF file that the
//! CUDA driver's `cuModuleLoadData` loads and `cuobjdump`/`nvdisasm` read
//! (docs/CUBIN.md). One kernel per file, its text our encoded program with
//! the root table moved into CUDA's parameter space (`rebase.rs`), and the
//! attributes NVIDIA's compiler writes for an equivalent kernel
//! (`nv_info.rs`). The ELF structure is written with the `object` crate.

mod local;
mod notes;
mod nv_info;
mod rebase;

use crate::abi;
use crate::binary::{Binary, ResourceAccess, Stage};
use crate::isa::{Instr, MemSpace, Op, OpBra, Target};
use crate::program;
use crate::target::Arch;
use nv_info::{Attr, NvInfo};
use object::elf;
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, Sym, Writer};

pub use rebase::rebase_root_table;

/// Why a binary cannot be written as a cubin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CubinError {
    #[error("a cubin holds a compute kernel; this is a {0:?} shader")]
    NotCompute(Stage),
    #[error(
        "uniform buffer set {set} binding {binding} is read from constant bank {bank}, which \
         CUDA reserves for the driver: a cubin reaches buffers through the root table and \
         descriptors only (docs/CUBIN.md)"
    )]
    ConstantBank { set: u32, binding: u32, bank: u8 },
    #[error("pc {pc:#06x}: `{text}` reads the root table in a way the cubin writer cannot move")]
    RootOperand { pc: u32, text: String },
    #[error("the program does not decode: {0}")]
    Decode(String),
    #[error("the program does not encode after moving the root table: {0}")]
    Encode(String),
    #[error(
        "the kernel uses {num_gprs} registers and local memory: the two registers CUDA's \
         local window needs (docs/CUBIN.md, \"Local memory\") would pass R254"
    )]
    LocalRegisters { num_gprs: u32 },
    #[error("a local frame of {frame} bytes does not fit an instruction's offset")]
    LocalFrame { frame: u32 },
    #[error("`{text}` addresses local memory through an operand the cubin writer cannot move")]
    LocalAddress { text: String },
    #[error("ELF writer: {0}")]
    Elf(String),
}

/// Registers a kernel's count holds beyond those it uses (see `write_with`).
pub const RESERVED_REGS: u32 = 2;

/// The kernel's name in the cubin (its function symbol).
pub const KERNEL_NAME: &str = "main";

/// Where the CUDA driver puts a kernel's parameters in constant bank 0
/// (docs/CUBIN.md, "Constant bank 0": 0x160 before SM90, 0x210 on SM90, as
/// nvcc's `EIATTR_PARAM_CBANK` records say).
pub fn param_base(arch: Arch) -> u16 {
    if arch >= Arch::Sm90 { 0x210 } else { 0x160 }
}

/// Bytes of shared memory SM90 reserves at the start of a workgroup's
/// window (nvcc's `.nv.shared.reserved.0`; user data starts after it).
fn reserved_shared(arch: Arch) -> u32 {
    if arch >= Arch::Sm90 { 0x400 } else { 0 }
}

/// Moves every shared-memory access `base` bytes up, past the window's
/// reserved start: our code addresses workgroup memory from 0, as the
/// simulator lays it out, and on SM90 the first 0x400 bytes belong to the
/// driver and hardware (nvcc's user variables start after them,
/// docs/CUBIN.md "Shared memory").
fn rebase_shared(instrs: &mut [Instr], base: u32) {
    if base == 0 {
        return;
    }
    let base = base as i32;
    for ins in instrs {
        let offset = match &mut ins.op {
            Op::Ld(o) if o.space == MemSpace::Shared => &mut o.offset,
            Op::St(o) if o.space == MemSpace::Shared => &mut o.offset,
            Op::Atom(o) if o.space == MemSpace::Shared => &mut o.offset,
            _ => continue,
        };
        *offset += base;
    }
}

/// The ELF header's `e_flags`: `0x0600_0004 | sm << 8`, as nvcc writes for
/// sm_75, sm_86, sm_89 and sm_90 (docs/CUBIN.md).
fn elf_flags(arch: Arch) -> u32 {
    0x0600_0004 | (arch.sm() << 8)
}

/// The kernel text: the rebased program (root table in the parameter
/// space, local memory in CUDA's local window), then `BRA` to itself and
/// `NOP`s up to a multiple of 128 bytes, as nvcc ends a kernel. Also
/// returns the exit offsets, whether a barrier is used and the register
/// count.
fn kernel_text(
    binary: &Binary,
    local_bytes: u32,
    options: CubinOptions,
) -> Result<(Vec<u8>, Vec<u32>, bool, u32), CubinError> {
    let mut instrs = program::decode(&binary.code, binary.arch)
        .map_err(|e| CubinError::Decode(e.to_string()))?;
    rebase_root_table(&mut instrs, param_base(binary.arch))?;
    rebase_shared(&mut instrs, reserved_shared(binary.arch));
    let local = local::rebase_local(&instrs, binary.num_gprs, local_bytes)?;
    let regs = local.num_gprs;
    if local.instrs.len() != instrs.len() {
        instrs = local.instrs;
        crate::calc_instr_deps::calc_instr_deps(&mut instrs, binary.arch);
    }
    if options.conservative_ctrl {
        for ins in &mut instrs {
            ins.ctrl = conservative_ctrl(&ins.op, binary.arch);
        }
    }
    let exits: Vec<u32> = instrs
        .iter()
        .enumerate()
        .filter(|(_, i)| i.op == Op::Exit)
        .map(|(n, _)| n as u32 * program::INSTR_BYTES)
        .collect();
    let barriers = instrs.iter().any(|i| matches!(i.op, Op::Bar(_)));
    let end = instrs.len() as u32 * program::INSTR_BYTES;
    let mut bra = Instr::new(Op::Bra(OpBra {
        target: Target::Addr(end),
    }));
    bra.ctrl.stall = 0;
    instrs.push(bra);
    while instrs.len() % 8 != 0 {
        let mut nop = Instr::new(Op::Nop);
        nop.ctrl.stall = 0;
        instrs.push(nop);
    }
    let words =
        program::encode(&instrs, binary.arch).map_err(|e| CubinError::Encode(e.to_string()))?;
    let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Ok((bytes, exits, barriers, regs))
}

/// How a cubin is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CubinOptions {
    /// Replace the scheduler's control bits by the most conservative ones
    /// (every instruction waits for every scoreboard and stalls 15 cycles;
    /// variable-latency ops release scoreboard 0, late readers 1): a
    /// diagnosis aid telling a scheduling error from an encoding one.
    pub conservative_ctrl: bool,
}

/// The control bits of `op` under [`CubinOptions::conservative_ctrl`].
fn conservative_ctrl(op: &Op, arch: Arch) -> crate::isa::Ctrl {
    // A scoreboard is set only for what the op does: one an op that writes
    // no register sets is never released (a store with a write scoreboard
    // hung every kernel on the H100), and the next instruction waits on all.
    let mut defs = false;
    spvsass_isa::timing::op_slots(op, |_, kind| {
        defs |= kind == crate::isa::OperandKind::Def;
    });
    let (write_sb, read_sb) = match spvsass_isa::timing::latency(op, arch) {
        crate::isa::Latency::Fixed(_) => (7, 7),
        crate::isa::Latency::Variable { reads_late } => {
            (if defs { 0 } else { 7 }, if reads_late { 1 } else { 7 })
        }
    };
    crate::isa::Ctrl {
        stall: 15,
        yield_: false,
        write_sb,
        read_sb,
        wait: 0x3f,
        reuse: 0,
    }
}

/// Writes `binary` (a compute shader) as a cubin for its architecture.
pub fn write(binary: &Binary) -> Result<Vec<u8>, CubinError> {
    write_with(binary, CubinOptions::default())
}

/// [`write()`] with options.
pub fn write_with(binary: &Binary, options: CubinOptions) -> Result<Vec<u8>, CubinError> {
    if binary.stage != Stage::Compute {
        return Err(CubinError::NotCompute(binary.stage));
    }
    if let Some(r) = binary
        .resources
        .iter()
        .find(|r| matches!(r.access, ResourceAccess::ConstantBank(_)))
    {
        let ResourceAccess::ConstantBank(bank) = r.access else {
            unreachable!("filtered on ConstantBank")
        };
        return Err(CubinError::ConstantBank {
            set: r.set,
            binding: r.binding,
            bank,
        });
    }
    let arch = binary.arch;
    let compute = binary.compute.unwrap_or(crate::binary::ComputeState {
        shared_bytes: 0,
        local_bytes: 0,
    });
    // The window keeps the 16-byte alignment of 128-bit local accesses:
    // the stack pointer is 16-byte aligned, so the frame is too.
    let frame = compute.local_bytes.next_multiple_of(16);
    let (text, exits, barriers, regs) = kernel_text(binary, frame, options)?;
    let shared = reserved_shared(arch) + compute.shared_bytes;
    let base = param_base(arch);
    let params = abi::ROOT_BYTES;
    // The hardware keeps the two highest registers of a kernel's count for
    // itself: writing them is an illegal instruction (the H100 faulted on
    // exactly those; nvcc's counts are the highest register used + 3,
    // docs/CUBIN.md).
    let regs = regs + RESERVED_REGS;
    let name = KERNEL_NAME;

    let mut out = Vec::new();
    let mut w = Writer::new(object::Endianness::Little, true, &mut out);

    // Section indices, in nvcc's order: string tables and symbols first.
    w.reserve_null_section_index();
    let shstrtab = w.reserve_shstrtab_section_index();
    let strtab = w.reserve_strtab_section_index();
    let symtab = w.reserve_symtab_section_index();
    let tkinfo_name = w.add_section_name(b".note.nv.tkinfo");
    let tkinfo_sec = w.reserve_section_index();
    let cuinfo_name = w.add_section_name(b".note.nv.cuinfo");
    w.reserve_section_index();
    let compat_name = (arch >= Arch::Sm90).then(|| w.add_section_name(b".nv.compat"));
    let info_name = w.add_section_name(b".nv.info");
    w.reserve_section_index();
    if compat_name.is_some() {
        w.reserve_section_index();
    }
    let kinfo_string = format!(".nv.info.{name}");
    let kinfo_name = w.add_section_name(kinfo_string.as_bytes());
    w.reserve_section_index();
    let callgraph_name = w.add_section_name(b".nv.callgraph");
    w.reserve_section_index();
    let text_string = format!(".text.{name}");
    let text_name = w.add_section_name(text_string.as_bytes());
    let text_sec = w.reserve_section_index();
    let shared_string = format!(".nv.shared.{name}");
    let shared_name = (shared > 0).then(|| w.add_section_name(shared_string.as_bytes()));
    let shared_sec = shared_name.map(|_| w.reserve_section_index());
    let const_string = format!(".nv.constant0.{name}");
    let const_name = w.add_section_name(const_string.as_bytes());
    let const_sec = w.reserve_section_index();

    // Symbols: the section symbols (local), then the kernel (global).
    w.reserve_symbol_index(Some(text_sec));
    let const_sym = w.reserve_symbol_index(Some(const_sec));
    let kernel_name = w.add_string(name.as_bytes());
    let kernel_sym = w.reserve_symbol_index(Some(text_sec));
    let num_local = kernel_sym.0;

    // Attributes.
    let mut global = NvInfo::default();
    global.words(Attr::Regcount, &[kernel_sym.0, regs]);
    global.words(Attr::FrameSize, &[kernel_sym.0, frame]);
    global.words(Attr::MinStackSize, &[kernel_sym.0, frame]);
    let global = global.into_bytes();
    let mut kernel = NvInfo::default();
    kernel.words(Attr::CudaApiVersion, &[0x82]);
    if arch < Arch::Sm90 {
        kernel.flag(Attr::Sw2861232War);
    }
    kernel.words(
        Attr::ParamCbank,
        &[const_sym.0, (u32::from(params) << 16) | u32::from(base)],
    );
    kernel.half(Attr::CbankParamSize, params);
    kernel.kparam(0, 0, u32::from(params));
    kernel.half(Attr::MaxregCount, 0xff);
    kernel.half(Attr::IsaVersion, if arch >= Arch::Sm90 { 0x101 } else { 0 });
    if barriers {
        kernel.byte(Attr::NumBarriers, 1);
    }
    kernel.words(Attr::ExitInstrOffsets, &exits);
    if arch >= Arch::Sm90 {
        kernel.words(Attr::SwWar, &[8]);
    }
    let kernel = kernel.into_bytes();
    let tkinfo = notes::tool_kit(env!("CARGO_PKG_VERSION"));
    let cuinfo = notes::cuda_info(arch);
    let callgraph = notes::callgraph();
    let compat = if compat_name.is_some() {
        notes::compat()
    } else {
        Vec::new()
    };
    let constant0 = vec![0u8; usize::from(base + params)];

    // Layout.
    w.reserve_file_header();
    w.reserve_program_headers(if shared > 0 { 5 } else { 4 });
    w.reserve_shstrtab()
        .map_err(|e| CubinError::Elf(e.to_string()))?;
    w.reserve_strtab()
        .map_err(|e| CubinError::Elf(e.to_string()))?;
    w.reserve_symtab();
    let tkinfo_off = w.reserve(tkinfo.len() as u64, 4);
    let cuinfo_off = w.reserve(cuinfo.len() as u64, 4);
    let info_off = w.reserve(global.len() as u64, 4);
    let compat_off = w.reserve(compat.len() as u64, 4);
    let kinfo_off = w.reserve(kernel.len() as u64, 4);
    let callgraph_off = w.reserve(callgraph.len() as u64, 4);
    let text_off = w.reserve(text.len() as u64, 128);
    let const_off = w.reserve(constant0.len() as u64, 4);
    w.reserve_section_headers();

    // Contents.
    w.write_file_header(&FileHeader {
        os_abi: elf::OsAbi(0x41),
        abi_version: 8,
        e_type: elf::ET_EXEC,
        e_machine: elf::EM_CUDA,
        e_entry: 0,
        e_flags: elf::FileFlags(elf_flags(arch)),
    })
    .map_err(|e| CubinError::Elf(e.to_string()))?;
    let phdr_off = w.write_align_program_headers();
    let nphdr: u64 = if shared > 0 { 5 } else { 4 };
    let phdr_size = nphdr * 56;
    let ph = |p_type, p_flags, off: u64, filesz: u64, memsz: u64| ProgramHeader {
        p_type,
        p_flags,
        p_offset: off,
        p_vaddr: 0,
        p_paddr: 0,
        p_filesz: filesz,
        p_memsz: memsz,
        p_align: 8,
    };
    w.write_program_header(&ph(elf::PT_PHDR, elf::PF_R, phdr_off, phdr_size, phdr_size));
    w.write_program_header(&ph(elf::PT_LOAD, elf::PF_R, phdr_off, phdr_size, phdr_size));
    let text_len = text.len() as u64;
    w.write_program_header(&ph(
        elf::PT_LOAD,
        elf::PF_R | elf::PF_X,
        text_off,
        text_len,
        text_len,
    ));
    if shared > 0 {
        w.write_program_header(&ph(
            elf::PT_LOAD,
            elf::PF_R | elf::PF_W,
            const_off,
            0,
            u64::from(shared),
        ));
    }
    let const_len = constant0.len() as u64;
    w.write_program_header(&ph(
        elf::PT_LOAD,
        elf::PF_R,
        const_off,
        const_len,
        const_len,
    ));
    w.write_shstrtab();
    w.write_strtab();
    w.write_null_symbol();
    let section_sym = |section| Sym {
        section: Some(section),
        st_name: 0,
        st_info: elf::SymbolInfo::new(elf::STB_LOCAL, elf::STT_SECTION),
        st_other: elf::SymbolOther(0),
        st_shndx: elf::SymbolSection(0),
        st_value: 0,
        st_size: 0,
    };
    w.write_symbol(&section_sym(text_sec.0));
    w.write_symbol(&section_sym(const_sec.0));
    w.write_symbol(&Sym {
        section: Some(text_sec.0),
        st_name: w.string_offset(Some(kernel_name)),
        st_info: elf::SymbolInfo::new(elf::STB_GLOBAL, elf::STT_FUNC),
        // STO_CUDA_ENTRY: a kernel the host can launch.
        st_other: elf::SymbolOther(0x10),
        st_shndx: elf::SymbolSection(0),
        st_value: 0,
        st_size: text_len,
    });
    w.write_align(4);
    w.write(&tkinfo);
    w.write_align(4);
    w.write(&cuinfo);
    w.write_align(4);
    w.write(&global);
    w.write_align(4);
    w.write(&compat);
    w.write_align(4);
    w.write(&kernel);
    w.write_align(4);
    w.write(&callgraph);
    w.write_align(128);
    w.write(&text);
    w.write_align(4);
    w.write(&constant0);
    let _ = (info_off, kinfo_off);

    // Section headers.
    w.write_null_section_header();
    w.write_shstrtab_section_header();
    w.write_strtab_section_header();
    w.write_symtab_section_header(num_local);
    let sh =
        |name, sh_type, sh_flags: u64, off: u64, size: u64, link: u32, info: u32, align: u64| {
            SectionHeader {
                sh_name: name,
                sh_type,
                sh_flags: elf::SectionFlags(sh_flags),
                sh_addr: 0,
                sh_offset: off,
                sh_size: size,
                sh_link: link,
                sh_info: info,
                sh_addralign: align,
                sh_entsize: 0,
            }
        };
    const SHT_CUDA_INFO: elf::SectionType = elf::SectionType(0x7000_0000);
    let info_link = elf::SHF_INFO_LINK.0;
    // The notes' flags are those nvcc writes (OS-specific bits).
    let h = sh(
        w.section_name_offset(Some(tkinfo_name)),
        elf::SHT_NOTE,
        0x200_0000,
        tkinfo_off,
        tkinfo.len() as u64,
        0,
        0,
        4,
    );
    w.write_section_header(&h);
    let h = sh(
        w.section_name_offset(Some(cuinfo_name)),
        elf::SHT_NOTE,
        0x100_0000,
        cuinfo_off,
        cuinfo.len() as u64,
        tkinfo_sec.0,
        0,
        4,
    );
    w.write_section_header(&h);
    let h = sh(
        w.section_name_offset(Some(info_name)),
        SHT_CUDA_INFO,
        0,
        info_off,
        global.len() as u64,
        symtab.0,
        0,
        4,
    );
    w.write_section_header(&h);
    if let Some(name) = compat_name {
        const SHT_CUDA_COMPAT: elf::SectionType = elf::SectionType(0x7000_0086);
        let h = sh(
            w.section_name_offset(Some(name)),
            SHT_CUDA_COMPAT,
            0,
            compat_off,
            compat.len() as u64,
            0,
            0,
            4,
        );
        w.write_section_header(&h);
    }
    let h = sh(
        w.section_name_offset(Some(kinfo_name)),
        SHT_CUDA_INFO,
        info_link,
        kinfo_off,
        kernel.len() as u64,
        symtab.0,
        text_sec.0,
        4,
    );
    w.write_section_header(&h);
    const SHT_CUDA_CALLGRAPH: elf::SectionType = elf::SectionType(0x7000_0001);
    let mut h = sh(
        w.section_name_offset(Some(callgraph_name)),
        SHT_CUDA_CALLGRAPH,
        0,
        callgraph_off,
        callgraph.len() as u64,
        symtab.0,
        0,
        4,
    );
    h.sh_entsize = 8;
    w.write_section_header(&h);
    // Before SM90 nvcc also keeps the register count in the text section's
    // sh_info, above the kernel's symbol index.
    let text_info = if arch < Arch::Sm90 {
        (regs << 24) | kernel_sym.0
    } else {
        kernel_sym.0
    };
    let text_flags = elf::SHF_ALLOC.0 | elf::SHF_EXECINSTR.0;
    let h = sh(
        w.section_name_offset(Some(text_name)),
        elf::SHT_PROGBITS,
        text_flags,
        text_off,
        text_len,
        symtab.0,
        text_info,
        128,
    );
    w.write_section_header(&h);
    if let (Some(name), Some(_)) = (shared_name, shared_sec) {
        let flags = elf::SHF_WRITE.0 | elf::SHF_ALLOC.0 | info_link;
        let h = sh(
            w.section_name_offset(Some(name)),
            elf::SHT_NOBITS,
            flags,
            const_off,
            u64::from(shared),
            0,
            text_sec.0,
            16,
        );
        w.write_section_header(&h);
    }
    let h = sh(
        w.section_name_offset(Some(const_name)),
        elf::SHT_PROGBITS,
        elf::SHF_ALLOC.0 | info_link,
        const_off,
        const_len,
        0,
        text_sec.0,
        4,
    );
    w.write_section_header(&h);
    let _ = (shstrtab, strtab);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shared loads, stores and atomics move past SM90's reserved 0x400
    /// bytes; other memory and other architectures stay as they are.
    #[test]
    fn shared_accesses_move_past_the_reserved_window() {
        let src = "LDS R1, [R2+0x10] ;\nSTS [0x0], R1 ;\nATOMS.ADD R3, [R2+0x4], R1 ;\nLDG.E R4, [R6.64+0x8] ;\nLDL R5, [0x8] ;\nEXIT ;\n";
        let mut instrs = crate::asm::assemble(src).expect("assembles").instrs;
        let sm86 = instrs.clone();
        rebase_shared(&mut instrs, reserved_shared(Arch::Sm90));
        let text: Vec<String> = instrs.iter().map(|i| i.to_string()).collect();
        assert_eq!(text[0], "LDS R1, [R2+0x410] ;");
        assert_eq!(text[1], "STS [0x400], R1 ;");
        assert!(text[2].contains("[R2+0x404]"), "{}", text[2]);
        assert_eq!(text[3], "LDG.E R4, [R6.64+0x8] ;");
        assert_eq!(text[4], "LDL R5, [0x8] ;");
        let mut same = sm86.clone();
        rebase_shared(&mut same, reserved_shared(Arch::Sm86));
        assert_eq!(same, sm86);
    }
}
