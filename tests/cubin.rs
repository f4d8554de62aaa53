//! The cubin writer (backend/src/cubin, docs/CUBIN.md): the ELF structure
//! the CUDA driver needs, checked by reading our cubins back with the
//! `object` crate and against what nvcc writes
//! (tests/data/real_sass/cubin_sm*.cubin), and the root table moved into
//! CUDA's parameter space instruction by instruction.

use crate::common;

use object::read::elf::{ElfFile64, FileHeader};
use object::{Endianness, Object, ObjectSection, ObjectSymbol};
use spvsass::backend::abi;
use spvsass::backend::cubin::{self, CubinError, param_base};
use spvsass::backend::program;
use spvsass::backend::target::Arch;

fn compile(name: &str, arch: Arch, for_cuda: bool) -> spvsass::backend::binary::Binary {
    let options = spvsass::Options {
        arch: Some(arch),
        for_cuda,
        ..Default::default()
    };
    spvsass::compile(&common::shader_words(name), &options)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .binary
}

fn section<'a>(elf: &'a ElfFile64<'a, Endianness>, name: &str) -> &'a [u8] {
    elf.section_by_name(name)
        .unwrap_or_else(|| panic!("no section {name}"))
        .data()
        .expect("section data")
}

/// The `.nv.info` records as (attribute, value bytes).
fn records(mut bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    while bytes.len() >= 4 {
        let (format, attr) = (bytes[0], bytes[1]);
        let (value, len) = match format {
            4 => {
                let n = usize::from(u16::from_le_bytes([bytes[2], bytes[3]]));
                (bytes[4..4 + n].to_vec(), 4 + n)
            }
            _ => (bytes[2..4].to_vec(), 4),
        };
        out.push((attr, value));
        bytes = &bytes[len..];
    }
    out
}

fn word(v: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(v[4 * i..4 * i + 4].try_into().expect("4 bytes"))
}

#[test]
fn header_and_sections_match_nvcc() {
    for (arch, nvcc) in [
        (Arch::Sm86, "tests/data/real_sass/cubin_sm86.cubin"),
        (Arch::Sm90, "tests/data/real_sass/cubin_sm90.cubin"),
    ] {
        let ours = cubin::write(&compile("c_loop.comp", arch, true)).expect("writes");
        let theirs = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(nvcc))
            .expect("nvcc's cubin");
        let a = ElfFile64::<Endianness>::parse(&*ours).expect("our cubin parses");
        let b = ElfFile64::<Endianness>::parse(&*theirs).expect("nvcc's cubin parses");
        let (ha, hb) = (a.elf_header(), b.elf_header());
        let e = Endianness::Little;
        assert_eq!(ha.e_ident().os_abi, hb.e_ident().os_abi, "{arch}");
        assert_eq!(ha.e_ident().abi_version, hb.e_ident().abi_version, "{arch}");
        assert_eq!(ha.e_machine(e), hb.e_machine(e), "{arch}");
        assert_eq!(ha.e_type(e), hb.e_type(e), "{arch}");
        assert_eq!(ha.e_flags(e), hb.e_flags(e), "{arch}: e_flags");
        // The CUDA note (version, SM, toolkit) is byte-identical.
        assert_eq!(
            section(&a, ".note.nv.cuinfo"),
            section(&b, ".note.nv.cuinfo"),
            "{arch}"
        );
        assert_eq!(section(&a, ".nv.callgraph"), section(&b, ".nv.callgraph"));
        if arch == Arch::Sm90 {
            assert_eq!(section(&a, ".nv.compat"), section(&b, ".nv.compat"));
        }
        // The kernel symbol is a global function marked as an entry.
        let main = a.symbols().find(|s| s.name() == Ok("main")).expect("main");
        assert!(main.is_global());
        assert_eq!(main.elf_symbol().st_other.0, 0x10);
    }
}

#[test]
fn attributes_describe_the_kernel() {
    for arch in [Arch::Sm86, Arch::Sm90] {
        let binary = compile("c_loop.comp", arch, true);
        let bytes = cubin::write(&binary).expect("writes");
        let elf = ElfFile64::<Endianness>::parse(&*bytes).expect("parses");
        let text = section(&elf, ".text.main");
        assert_eq!(text.len() % 128, 0, "{arch}: text padded to 128 bytes");
        let info = records(section(&elf, ".nv.info.main"));
        let get = |attr: u8| {
            info.iter()
                .find(|(a, _)| *a == attr)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("{arch}: no attribute {attr:#x}"))
        };
        // PARAM_CBANK: the root table's size and CUDA's parameter offset.
        let param = get(0x0a);
        assert_eq!(
            word(&param, 1),
            (u32::from(abi::ROOT_BYTES) << 16) | u32::from(param_base(arch))
        );
        // EXIT_INSTR_OFFSETS: exactly the EXIT instructions of the code.
        let exits = get(0x1c);
        let instrs = program::decode(&binary.code, arch).expect("decodes");
        let want: Vec<u32> = instrs
            .iter()
            .enumerate()
            .filter(|(_, i)| i.op == spvsass::backend::isa::Op::Exit)
            .map(|(n, _)| n as u32 * 16)
            .collect();
        let got: Vec<u32> = (0..exits.len() / 4).map(|i| word(&exits, i)).collect();
        assert_eq!(got, want, "{arch}");
        // REGCOUNT in .nv.info.
        let global = records(section(&elf, ".nv.info"));
        let regs = global.iter().find(|(a, _)| *a == 0x2f).expect("REGCOUNT");
        // Two more than the program uses: the hardware keeps the top two.
        assert_eq!(
            word(&regs.1, 1),
            binary.num_gprs + spvsass::backend::cubin::RESERVED_REGS,
            "{arch}"
        );
        let constant0 = elf
            .section_by_name(".nv.constant0.main")
            .expect("constant bank 0");
        assert_eq!(
            constant0.size(),
            u64::from(param_base(arch)) + u64::from(abi::ROOT_BYTES)
        );
        let shared = elf.section_by_name(".nv.shared.main");
        match arch {
            Arch::Sm90 => assert_eq!(shared.map(|s| s.size()), Some(0x400)),
            _ => assert!(shared.is_none()),
        }
    }
}

/// Every instruction of the cubin is the compiled one with its bank-0
/// offsets moved by CUDA's parameter base, and nothing else changed.
#[test]
fn root_table_moves_into_parameter_space() {
    for arch in [Arch::Sm86, Arch::Sm90] {
        let binary = compile("c_add_push.comp", arch, true);
        let bytes = cubin::write(&binary).expect("writes");
        let elf = ElfFile64::<Endianness>::parse(&*bytes).expect("parses");
        let text = section(&elf, ".text.main");
        let words: Vec<u32> = text
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4")))
            .collect();
        let moved = program::decode(&words, arch).expect("cubin text decodes");
        let original = program::decode(&binary.code, arch).expect("decodes");
        let base = param_base(arch);
        let mut rebased = 0;
        for (o, m) in original.iter().zip(&moved) {
            let (o, m) = (o.to_string(), m.to_string());
            if o.contains("c[0x0][") {
                rebased += 1;
                assert_ne!(o, m);
                let off = |t: &str| {
                    let i = t.find("c[0x0][0x").expect("bank 0") + 9;
                    let j = t[i..].find(']').expect("]") + i;
                    u32::from_str_radix(&t[i..j], 16).expect("hex")
                };
                assert_eq!(off(&m), off(&o) + u32::from(base), "{arch}: {o} -> {m}");
            } else {
                assert_eq!(o, m, "{arch}");
            }
        }
        assert!(rebased > 0, "{arch}: the push constants come from bank 0");
        // The padding: a branch to itself, then NOPs.
        assert!(moved[original.len()].to_string().starts_with("BRA"));
        assert!(
            moved[original.len() + 1..]
                .iter()
                .all(|i| i.to_string() == "NOP ;")
        );
    }
}

#[test]
fn only_compute_shaders_and_no_constant_bank_uniforms() {
    let mesh = compile("b_store.mesh", Arch::Sm90, true);
    assert!(matches!(
        cubin::write(&mesh),
        Err(CubinError::NotCompute(_))
    ));
    // Compiled for the simulator, a small set-0 uniform buffer lives in a
    // constant bank CUDA does not give us; compiled for CUDA it does not.
    let banked = compile("c_uniform.comp", Arch::Sm90, false);
    assert!(matches!(
        cubin::write(&banked),
        Err(CubinError::ConstantBank { .. })
    ));
    let for_cuda = compile("c_uniform.comp", Arch::Sm90, true);
    cubin::write(&for_cuda).expect("a uniform buffer through the root table");
}

/// The hardware's REDUX writes a uniform register, which this ISA does not
/// model (docs/CUBIN.md): compiled for CUDA, a warp reduction is the SHFL
/// ladder; compiled for the simulator, sm90 keeps REDUX.
#[test]
fn reductions_use_no_redux_in_a_cubin() {
    let has_redux = |for_cuda: bool| {
        let options = spvsass::Options {
            arch: Some(Arch::Sm90),
            for_cuda,
            ..Default::default()
        };
        spvsass::compile(&common::shader_words("subgroup_scans.comp"), &options)
            .unwrap_or_else(|e| panic!("{e}"))
            .instrs
            .iter()
            .any(|i| matches!(i.op, spvsass::backend::isa::Op::Redux(_)))
    };
    assert!(has_redux(false));
    assert!(!has_redux(true));
}
