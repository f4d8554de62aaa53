//! spvsass frontend: loads SPIR-V with rspirv and translates one entry point
//! into the project's SSA IR ([`ir`]).
//!
//! ```no_run
//! # fn main() -> Result<(), spvsass_frontend::FrontendError> {
//! let bytes = std::fs::read("shader.mesh.spv").unwrap();
//! let words = spvsass_frontend::words_from_bytes(&bytes)?;
//! let shader = spvsass_frontend::translate(&words, &Default::default())?;
//! println!("{shader}");
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]

mod error;
pub mod ir;
mod load;
mod translate;
mod validate;

pub use error::FrontendError;
pub use load::{load_words, words_from_bytes};
pub use translate::{FrontendOptions, SpecValue};
pub use validate::validate;

/// Translates the entry point `options` selects from the SPIR-V module
/// `words` into a validated [`ir::Shader`].
pub fn translate(words: &[u32], options: &FrontendOptions) -> Result<ir::Shader, FrontendError> {
    let module = load::load_words(words)?;
    let shader = translate::translate_module(&module, options)?;
    validate(&shader)?;
    Ok(shader)
}
