//! Prints the IR of a SPIR-V file: `cargo run -p spvsass-frontend
//! --example print_ir -- shader.spv [entry] [ID=VALUE ...]`.

use spvsass_frontend::{FrontendOptions, SpecValue, translate, words_from_bytes};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: print_ir SHADER.spv [ENTRY] [ID=VALUE ...]");
        return ExitCode::FAILURE;
    };
    let mut options = FrontendOptions::default();
    for arg in &args[1..] {
        match arg.split_once('=') {
            Some((id, value)) => match (id.parse::<u32>(), value.parse::<SpecValue>()) {
                (Ok(id), Ok(value)) => options.spec_constants.push((id, value)),
                _ => {
                    eprintln!("bad specialization {arg}");
                    return ExitCode::FAILURE;
                }
            },
            None => options.entry = Some(arg.clone()),
        }
    }
    let result = std::fs::read(path)
        .map_err(|e| e.to_string())
        .and_then(|bytes| words_from_bytes(&bytes).map_err(|e| e.to_string()))
        .and_then(|words| translate(&words, &options).map_err(|e| e.to_string()));
    match result {
        Ok(shader) => {
            print!("{shader}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::FAILURE
        }
    }
}
