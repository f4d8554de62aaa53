//! The Vulkan resource model (issue 19, docs/ABI.md "Descriptor sets"):
//! buffers in several descriptor sets and at bindings from 16 on,
//! descriptor arrays indexed by constants, uniform and non-uniform values,
//! runtime descriptor arrays, dynamic offsets and ranges, and a uniform
//! buffer too large for a constant bank, each simulated and every output
//! word checked against the computation done here on the CPU.
//! tests/reference_lavapipe.rs runs the same run descriptions on lavapipe.

use crate::common;

use spvsass::backend::target::Arch;
use spvsass::reference::{RunDescription, resolve_data};
use spvsass::sim::{BoundBuffer, BufferKind, ComputeInputs, Slot};
use spvsass::simulate_run::{SimulateOptions, simulate_run_file};

use common::res_sets::{expected_res_sets, runs, words};

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Simulates run description `name` (res_sets.comp) and checks every
/// word read back.
fn check_res_sets_run(name: &str) {
    let path = runs().join(format!("{name}.json"));
    let desc = RunDescription::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let sim = simulate_run_file(&path, &SimulateOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let (o, rt) = expected_res_sets(&desc);
    assert_eq!(sim.capture.buffer(0), Some(&o[..]), "o");
    for (e, want) in rt.iter().enumerate() {
        let b = desc
            .buffers
            .iter()
            .find(|b| (b.set, b.binding, b.element) == (3, 2, e as u32))
            .expect("bound");
        // The whole buffer comes back; the range starts at the offset.
        let got = sim.capture.buffer_at(3, 2, e as u32).expect("read back");
        let start = b.offset as usize / 4;
        assert_eq!(&got[start..start + want.len()], &want[..], "rt[{e}]");
        assert!(
            got[..start].iter().all(|&w| w == 0),
            "rt[{e}] before its range"
        );
    }
}

#[test]
fn several_sets_descriptor_arrays_and_a_runtime_array() {
    check_res_sets_run("res_sets");
}

#[test]
fn dynamic_offsets_descriptor_offsets_and_ranges() {
    check_res_sets_run("res_dynamic");
}

#[test]
fn descriptors_are_loaded_from_set_memory() {
    let compiled = common::compile("res_sets.comp", Arch::Sm86);
    let listing = spvsass::listing(&compiled.binary, false).unwrap();
    // Set 1's address is root-table word 0x1b8 (docs/ABI.md); binding 20's
    // table entry is at +0x50; the buffer base comes from the descriptor.
    assert!(listing.contains(", c[0x0][0x1b8] ;"), "{listing}");
    assert!(
        listing
            .lines()
            .any(|l| l.contains("LDG.E R") && l.contains(".64+0x50] ;")),
        "{listing}"
    );
    assert!(listing.contains("LDG.E.64"), "{listing}");
    // Set 0 binding 0 (not an array) keeps the root table's fast path.
    assert!(listing.contains("c[0x0][0xa0]"), "{listing}");
}

#[test]
fn the_listing_header_names_every_binding_and_its_access() {
    let compiled = common::compile("res_sets.comp", Arch::Sm86);
    let listing = spvsass::listing(&compiled.binary, false).unwrap();
    let header: Vec<&str> = listing
        .lines()
        .filter(|l| l.starts_with("// resource "))
        .collect();
    assert_eq!(
        header,
        [
            "// resource set 0 binding 0: storage buffer (root table)",
            "// resource set 0 binding 5: uniform buffer[2] (descriptor in set memory)",
            "// resource set 1 binding 20: storage buffer (descriptor in set memory)",
            "// resource set 2 binding 3: uniform buffer (descriptor in set memory)",
            "// resource set 3 binding 1: storage buffer[3] (descriptor in set memory)",
            "// resource set 3 binding 2: storage buffer[] (descriptor in set memory)",
        ]
    );
    // The binary container carries the list (docs/BINARY.md).
    let bytes = compiled.binary.to_bytes();
    let back = spvsass::backend::binary::Binary::from_bytes(&bytes).unwrap();
    assert_eq!(back, compiled.binary);
    let big = common::compile("res_big_uniform.comp", Arch::Sm86);
    let listing = spvsass::listing(&big.binary, false).unwrap();
    assert!(
        listing.contains("// resource set 0 binding 0: uniform buffer (root table)"),
        "{listing}"
    );
}

#[test]
fn a_uniform_buffer_larger_than_a_bank_is_read_with_global_loads() {
    let compiled = common::compile("res_big_uniform.comp", Arch::Sm86);
    let listing = spvsass::listing(&compiled.binary, false).unwrap();
    assert!(!listing.contains("c[0x1]"), "{listing}");
    assert!(listing.contains("c[0x0][0xa0]"), "{listing}");
    let big: Vec<u32> = (0..20000u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let inputs = ComputeInputs {
        uniforms: [(0, bytes_of(&big))].into(),
        buffers: [(1, vec![0; 64 * 4])].into(),
        ..Default::default()
    };
    let run = spvsass::Dispatch::new(&compiled.binary, [2, 1, 1])
        .inputs(inputs)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    let o = words(&run.buffers[&1]);
    for (i, &got) in o.iter().enumerate() {
        let d = |k: usize, c: usize| big[4 * k + c];
        let want = d(i * 157 % 5000, 1).wrapping_add(d(4999, 3));
        assert_eq!(got, want, "o[{i}]");
    }
}

#[test]
fn an_unbound_descriptor_array_element_faults_naming_the_address() {
    let compiled = common::compile("res_sets.comp", Arch::Sm86);
    // Everything res_sets binds, but set 3 binding 1 holds only element 1:
    // element 0 is the null descriptor, so reading through it faults at
    // address 0 (plus the index's offset), with pc and lane.
    let path = runs().join("res_sets.json");
    let desc = RunDescription::load(&path).unwrap();
    let mut inputs = ComputeInputs::default();
    for b in &desc.buffers {
        if (b.set, b.binding, b.element) == (3, 1, 0) {
            continue;
        }
        let bytes = resolve_data(&b.contents, &runs(), "input", b.kind.limit()).unwrap();
        inputs.bound.push(BoundBuffer {
            slot: Slot {
                set: b.set,
                binding: b.binding,
                element: b.element,
            },
            kind: if b.kind.is_storage() {
                BufferKind::Storage
            } else {
                BufferKind::Uniform
            },
            bytes,
            offset: b.offset,
            range: b.range,
        });
    }
    let err = spvsass::Dispatch::new(&compiled.binary, [1, 1, 1])
        .inputs(inputs)
        .run()
        .expect_err("element 0 is not bound");
    let text = err.to_string();
    assert!(text.contains("lane"), "{text}");
    assert!(text.contains("0x0"), "{text}");
}
