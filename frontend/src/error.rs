//! The frontend's errors. Every error that concerns one SPIR-V instruction
//! names its opcode (`OpImageSampleImplicitLod`) and, when it has one, its
//! result id (`%42`), so that the user can find it in `spirv-dis` output.

use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FrontendError {
    /// The input is not a SPIR-V binary at all (too short, wrong magic,
    /// length not a whole number of words).
    #[error("not a SPIR-V module: {reason}")]
    NotSpirv { reason: String },

    /// rspirv could not parse the binary (truncated instruction, unknown
    /// opcode, instruction outside a block, ...).
    #[error("invalid SPIR-V binary: {reason}")]
    InvalidBinary { reason: String },

    #[error("the module declares no entry point")]
    NoEntryPoint,

    #[error("the module has no entry point named \"{name}\" (it has: {})", names(.available))]
    EntryPointNotFound {
        name: String,
        available: Vec<String>,
    },

    #[error("the module has several entry points ({}): choose one by name", names(.available))]
    AmbiguousEntryPoint { available: Vec<String> },

    #[error("unsupported capability {0}")]
    UnsupportedCapability(String),

    #[error("unsupported extension {0}")]
    UnsupportedExtension(String),

    /// A specialization-constant override that does not fit the module.
    #[error("specialization constant {spec_id}: {what}")]
    Specialization { spec_id: u32, what: String },

    #[error(
        "entry point \"{entry}\" has execution model {model}: only MeshEXT, TaskEXT and GLCompute are supported"
    )]
    UnsupportedExecutionModel { entry: String, model: String },

    #[error("entry point \"{entry}\" has no {mode} execution mode, which its stage requires")]
    MissingExecutionMode { entry: String, mode: String },

    /// Valid SPIR-V that this compiler does not translate (yet). `text`
    /// is the instruction's disassembly, as in `spirv-dis` output.
    #[error("unsupported {}: {what} (in `{text}`)", at(.opcode, .result_id))]
    Unsupported {
        opcode: String,
        result_id: Option<u32>,
        what: String,
        text: String,
    },

    /// SPIR-V that breaks a rule of the specification.
    #[error("malformed {}: {what} (in `{text}`)", at(.opcode, .result_id))]
    Malformed {
        opcode: String,
        result_id: Option<u32>,
        what: String,
        text: String,
    },

    /// An operand names an id that has no definition before its use.
    #[error("{} uses %{id}, which is not defined before it (in `{text}`)", at(.opcode, .result_id))]
    UndefinedId {
        opcode: String,
        result_id: Option<u32>,
        id: u32,
        text: String,
    },

    /// The produced IR breaks one of the IR's rules (a frontend bug, or a
    /// pass that corrupted a shader handed to `crate::validate`).
    #[error("invalid IR in {block}{}: {what}", .inst.as_ref().map(|i| format!(", {i}")).unwrap_or_default())]
    InvalidIr {
        block: String,
        inst: Option<String>,
        what: String,
    },
}

/// "OpFoo %42", or "OpFoo" for an instruction without a result id.
fn at(opcode: &str, result_id: &Option<u32>) -> String {
    match result_id {
        Some(id) => format!("{opcode} %{id}"),
        None => opcode.to_string(),
    }
}

fn names(list: &[String]) -> String {
    list.iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ")
}
