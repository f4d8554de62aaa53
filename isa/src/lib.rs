//! spvsass target: everything a program needs once compiled and nothing of
//! the compiler. The SASS-like ISA with its encoding, decoding and text
//! form (`isa`, `program`), the assembler (`asm`), the binary container
//! (`binary`), the shader program header (`sph`), the calling conventions
//! of the runtime (`abi`, `descriptor_set`, `isbe_layout`), the method
//! stream of a draw (`methods`), the hardware limits (`limits`) and the
//! architectures (`target`). The compiler (spvsass-backend) and the
//! simulator (spvsass-sim) both build on it.

#![forbid(unsafe_code)]

pub mod abi;
pub mod asm;
pub mod binary;
pub mod descriptor_set;
pub mod isa;
pub mod isbe_layout;
pub mod limits;
pub mod methods;
pub mod program;
pub mod sph;
pub mod target;
pub mod timing;
