//! Mutation tests of the command line's values: real command lines with
//! their arguments edited (tests/mutation) are parsed as `main` parses
//! them, and what a parsed `run` or `compile` goes on to allocate from
//! them (buffers, the inputs read from files, a draw's count) is built.
//! A value gives a result or an error, never a panic or an allocation
//! past the limits.

#[path = "../tests/mutation/mod.rs"]
mod mutation;

use super::{Cli, Command, cli_checks};
use clap::Parser;

/// Command lines, one argument a line.
const SEEDS: &[&str] = &[
    "spvsass\nrun\ntests/shaders/ref_add.comp.spv\n--groups\n2,1,1\n--buffer\n0=512\n\
     --buffer\n2=512\n--buffer\n3=tests/runs/data/ref_reduce.values.bin\n\
     --uniform\n1=tests/runs/data/ref_reduce.values.bin\n--max-steps\n1000\n--out\n2=o.bin",
    "spvsass\nrun\ntests/shaders/triangle.mesh.spv\n--size\n64x64\n--view-mask\n0b101\n\
     --cull-mode\nback\n--front-face\ncw\n--groups\n4\n--image\na.png\n--raw\nb.raw",
    "spvsass\ncompile\nx.spv\n--spec\n1=3\n--spec\n2=-1.5\n--emit\nmethods\n--groups\n2,2,2\n\
     --view-mask\n5\n--arch\nsm90",
    "spvsass\nrun\nm.spv\n--task\nt.spv\n--reference\nvulkan\n--float-ulps\n2=4\n\
     --push\ntests/runs/data/ref_reduce.values.bin\n--shader-cull=off",
    "spvsass\ncompare\nr.json\n--against\nd\n--edge-distance\n0.5\n--max-steps\n5",
];

/// What the command does with its values before it compiles or runs.
fn use_values(cli: Cli) {
    match cli.command {
        Command::Run {
            compute, groups, ..
        } => {
            let _ = compute.inputs();
            let _ = cli_checks::draw_count(groups);
        }
        Command::Compile { groups, .. } => {
            let _ = cli_checks::draw_count(groups);
        }
        _ => {}
    }
}

#[test]
fn mutated_command_lines_parse_or_are_refused() {
    let seeds: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
    // Paths in the seeds are relative to the repository.
    let root = env!("CARGO_MANIFEST_DIR");
    mutation::run_target("command_line", &seeds, 2000, |_, bytes| {
        let text = String::from_utf8_lossy(bytes);
        let args = text.split('\n').map(|a| {
            if a.starts_with("tests/") {
                format!("{root}/{a}")
            } else {
                a.to_owned()
            }
        });
        if let Ok(cli) = Cli::try_parse_from(args) {
            use_values(cli);
        }
    });
}

#[test]
fn a_huge_zeroed_buffer_is_refused_while_parsing() {
    let e = Cli::try_parse_from(["spvsass", "run", "a.spv", "--buffer", "0=99999999999999"])
        .err()
        .map(|e| e.kind());
    assert_eq!(e, Some(clap::error::ErrorKind::ValueValidation));
}
