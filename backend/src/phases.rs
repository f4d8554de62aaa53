//! The phases of `compile::compile` run one by one, with a callback after
//! each, for the phase-timing benchmark (benches/compile_phases.rs): the
//! passes themselves stay private to the crate. Keep the sequence in step
//! with `compile::compile`.

use crate::assign_regs::assign_regs;
use crate::block_order::order_blocks;
use crate::calc_instr_deps::calc_instr_deps;
use crate::compile::{BackendOptions, lower, optimisations, select};
use crate::error::BackendError;
use crate::layout::layout;
use crate::program;
use spvsass_frontend::ir::Shader;

/// The lowerings before selection and selection (timed together as
/// "select"), the optimisations, block order, register assignment,
/// layout, dependency computation and encoding of `sh` (a shader without a
/// task stage in front), calling `lap` with each phase's name once it is
/// done. Skips what `compile` adds around them: the limit checks, the
/// verifier, the SPH and the binary.
pub fn run_phases(
    sh: &Shader,
    opts: &BackendOptions,
    lap: &mut dyn FnMut(&'static str),
) -> Result<(), BackendError> {
    let lowered = lower(sh, opts.statistics, false)?;
    let selected = select(&lowered, opts.arch, false, opts.bank_uniforms, opts.redux)?;
    lap("select");
    let mut f = selected.func;
    for (name, pass) in optimisations(opts) {
        pass(&mut f);
        lap(name);
    }
    order_blocks(&mut f);
    lap("order_blocks");
    assign_regs(&mut f, selected.local_bytes)?;
    lap("assign_regs");
    let mut instrs = layout(&f);
    lap("layout");
    calc_instr_deps(&mut instrs, opts.arch);
    lap("calc_instr_deps");
    program::encode(&instrs, opts.arch)?;
    lap("encode");
    Ok(())
}
