//! Turning bytes or words into an rspirv `dr::Module`.
//!
//! rspirv 0.13's `dr::Loader` has no case for `OpExecutionModeId` and fails
//! with "DetachedInstruction(ExecutionModeId)", yet glslang emits
//! `OpExecutionModeId %main LocalSizeId ...` for every mesh and task shader
//! it builds for Vulkan 1.3. [`Loader`] wraps the rspirv loader, sets those
//! instructions aside and appends them to `execution_modes` at the end.
//!
//! Most modules are read by the faster [`reader`], which feeds the same
//! [`Loader`]; rspirv's parser reads the rest.

mod reader;

use crate::FrontendError;
use rspirv::binary::{self, Consumer, ParseAction};
use rspirv::dr;

const HEADER_WORDS: usize = 5;

/// Converts a SPIR-V binary given as bytes, in either byte order, into words.
pub fn words_from_bytes(bytes: &[u8]) -> Result<Vec<u32>, FrontendError> {
    if bytes.len() < HEADER_WORDS * 4 {
        return Err(not_spirv(format!(
            "{} bytes is shorter than the 20-byte module header",
            bytes.len()
        )));
    }
    if !bytes.len().is_multiple_of(4) {
        return Err(not_spirv(format!(
            "{} bytes is not a whole number of 32-bit words",
            bytes.len()
        )));
    }
    let first = [bytes[0], bytes[1], bytes[2], bytes[3]];
    let from_bytes: fn([u8; 4]) -> u32 = if u32::from_le_bytes(first) == spirv::MAGIC_NUMBER {
        u32::from_le_bytes
    } else if u32::from_be_bytes(first) == spirv::MAGIC_NUMBER {
        u32::from_be_bytes
    } else {
        return Err(wrong_magic(u32::from_le_bytes(first)));
    };
    Ok(bytes
        .chunks_exact(4)
        .map(|c| from_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Parses SPIR-V words into a module. Words whose magic number is
/// byte-swapped (read with the wrong endianness) are swapped back.
pub fn load_words(words: &[u32]) -> Result<dr::Module, FrontendError> {
    if words.len() < HEADER_WORDS {
        return Err(not_spirv(format!(
            "{} words is shorter than the 5-word module header",
            words.len()
        )));
    }
    let swapped: Vec<u32>;
    let words = if words[0] == spirv::MAGIC_NUMBER {
        words
    } else if words[0] == spirv::MAGIC_NUMBER.swap_bytes() {
        swapped = words.iter().map(|w| w.swap_bytes()).collect();
        &swapped
    } else {
        return Err(wrong_magic(words[0]));
    };

    check_instruction_bounds(words)?;
    if let Some(module) = reader::read(words) {
        return Ok(module);
    }
    // rspirv panics (`panic!`, `todo!`) on some operand kinds its grammar
    // tables do not decode in the place a corrupt module puts them (found
    // by the SPIR-V mutation target): caught and reported, its message
    // kept off stderr.
    let parsed = quiet_catch_unwind(|| {
        let mut loader = Loader::default();
        binary::parse_words(words, &mut loader).map(|_| loader)
    });
    match parsed {
        Some(Ok(loader)) => Ok(loader.into_module()),
        Some(Err(e)) => Err(FrontendError::InvalidBinary {
            reason: e.to_string(),
        }),
        None => Err(FrontendError::InvalidBinary {
            reason: "an operand the SPIR-V reader (rspirv) cannot decode where it stands".into(),
        }),
    }
}

thread_local! {
    /// Set while this thread runs code whose panics are caught and reported.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, returning `None` if it panicked; the panic message is not
/// printed (a process-wide hook, installed once, defers to the previous
/// hook for every other panic).
fn quiet_catch_unwind<T>(f: impl FnOnce() -> T) -> Option<T> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok();
    QUIET.with(|q| q.set(false));
    result
}

/// Checks that every instruction's word count is non-zero and stays within
/// the module. rspirv trusts the count when it decodes a string operand and
/// panics (slicing past the end) on a truncated module.
fn check_instruction_bounds(words: &[u32]) -> Result<(), FrontendError> {
    let mut at = HEADER_WORDS;
    let mut index = 1;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 {
            return Err(FrontendError::InvalidBinary {
                reason: format!("instruction #{index} (word {at}) has a word count of 0"),
            });
        }
        if at + count > words.len() {
            return Err(FrontendError::InvalidBinary {
                reason: format!(
                    "instruction #{index} (word {at}) needs {count} words but the module ends \
                     after {}: it is truncated",
                    words.len() - at
                ),
            });
        }
        at += count;
        index += 1;
    }
    Ok(())
}

/// `dr::Loader` plus the instructions it cannot place (see the module docs).
#[derive(Default)]
struct Loader {
    inner: dr::Loader,
    execution_mode_ids: Vec<dr::Instruction>,
    in_function: bool,
}

impl Loader {
    fn into_module(self) -> dr::Module {
        let mut module = self.inner.module();
        module.execution_modes.extend(self.execution_mode_ids);
        module
    }
}

impl Consumer for Loader {
    fn initialize(&mut self) -> ParseAction {
        self.inner.initialize()
    }

    fn finalize(&mut self) -> ParseAction {
        self.inner.finalize()
    }

    fn consume_header(&mut self, header: dr::ModuleHeader) -> ParseAction {
        self.inner.consume_header(header)
    }

    fn consume_instruction(&mut self, inst: dr::Instruction) -> ParseAction {
        match inst.class.opcode {
            spirv::Op::ExecutionModeId => {
                self.execution_mode_ids.push(inst);
                return ParseAction::Continue;
            }
            // Only non-semantic instructions (debug info) may be
            // OpExtInst at module scope, and the loader rejects them all:
            // dropping them loses nothing.
            spirv::Op::ExtInst if !self.in_function => return ParseAction::Continue,
            spirv::Op::Function => self.in_function = true,
            spirv::Op::FunctionEnd => self.in_function = false,
            _ => {}
        }
        self.inner.consume_instruction(inst)
    }
}

fn not_spirv(reason: String) -> FrontendError {
    FrontendError::NotSpirv { reason }
}

fn wrong_magic(found: u32) -> FrontendError {
    not_spirv(format!(
        "the magic number is {found:#010x}, not {:#010x}",
        spirv::MAGIC_NUMBER
    ))
}
