//! The second oracle for compute programs: the same SPIR-V on the machine's
//! Vulkan driver (Mesa's lavapipe here), compared with the interpreter run
//! at the driver's subgroup size. lavapipe 22.3.6 is itself wrong on a few
//! integer cases (issue 18): a difference is a lead, classified by the
//! instructions the module uses into the known lavapipe errors or an
//! unexplained difference to look at.

use crate::adapter::{self, LavapipeError};
use crate::oracle::{Case, Failure};
use spvsass_interp::Options as InterpOptions;
use std::sync::OnceLock;

/// lavapipe 22.3.6's known wrong results (issue 18; the interpreter follows
/// the SPIR-V specification in each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum KnownLavapipe {
    /// OpSMod with a negative operand: the result must take the divisor's
    /// sign (SPIR-V, OpSMod).
    SModOfNegatives,
    /// 64-bit integers: compares against a constant and shifts by a folded
    /// 32 come out wrong.
    Int64CompareOrShift,
}

/// How a compute case's driver run compares with the interpreter.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Agrees,
    /// No Vulkan driver: nothing compared.
    Unavailable(String),
    /// The program is undefined at the driver's subgroup size (a shuffle
    /// across the generator's 32-invocation subgroups reads past a smaller
    /// one): nothing to compare.
    UndefinedAtSubgroupSize(u32, String),
    /// A difference in a module using an instruction lavapipe is known to
    /// get wrong.
    Known(KnownLavapipe, Failure),
    /// A difference with no known lavapipe cause: a lead (the interpreter,
    /// the simulator or the driver is wrong).
    Lead(Failure),
}

/// The opcode of OpSMod and OpCapability, and the Int64 capability.
const OP_SMOD: u32 = 139;
const OP_CAPABILITY: u32 = 17;
const CAP_INT64: u32 = 11;

/// The known lavapipe error a module's instructions could trigger.
fn known_cause(words: &[u32]) -> Option<KnownLavapipe> {
    let mut i = 5;
    let (mut smod, mut int64) = (false, false);
    while i < words.len() {
        let (count, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if count == 0 {
            break;
        }
        smod |= op == OP_SMOD;
        int64 |= op == OP_CAPABILITY && words.get(i + 1) == Some(&CAP_INT64);
        i += count;
    }
    if smod {
        Some(KnownLavapipe::SModOfNegatives)
    } else if int64 {
        Some(KnownLavapipe::Int64CompareOrShift)
    } else {
        None
    }
}

/// The driver's subgroup size (gl_SubgroupSize of a one-invocation
/// dispatch), measured once.
fn subgroup_size() -> Result<u32, LavapipeError> {
    static SIZE: OnceLock<Result<u32, String>> = OnceLock::new();
    let r = SIZE.get_or_init(|| {
        let src = "#version 460
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() { o[0] = gl_SubgroupSize; }";
        let words = crate::run::compile_glsl(src).map_err(|f| f.detail)?;
        let mut inputs = spvsass_interp::Inputs::default();
        inputs.buffers.insert(0, vec![0; 16]);
        let out = adapter::lavapipe_compute(&words, [1, 1, 1], &inputs).map_err(|e| match e {
            LavapipeError::Unavailable(m) => format!("unavailable: {m}"),
            other => other.to_string(),
        })?;
        let b = out.get(&0).ok_or("no read-back")?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    });
    r.clone()
        .map_err(|m| match m.strip_prefix("unavailable: ") {
            Some(m) => LavapipeError::Unavailable(m.into()),
            None => LavapipeError::Run(m),
        })
}

/// Runs compute `case` on the Vulkan driver and compares its storage
/// buffers with the interpreter's at the driver's subgroup size. A
/// failure of the interpreter or the driver itself is an `Err`.
pub fn check(case: &Case, interp: &InterpOptions) -> Result<Verdict, Failure> {
    let harness = |what: &str, e: String| Failure {
        signature: format!("lavapipe harness: {what}"),
        detail: e,
    };
    let sg = match subgroup_size() {
        Ok(n) => n,
        Err(LavapipeError::Unavailable(m)) => return Ok(Verdict::Unavailable(m)),
        Err(e) => return Err(harness("subgroup size", e.to_string())),
    };
    let shader = spvsass::frontend::translate(&case.words, &Default::default())
        .map_err(|e| harness("frontend", e.to_string()))?;
    let options = InterpOptions {
        subgroup_size: sg,
        ..interp.clone()
    };
    let want = match spvsass_interp::run_compute(&shader, case.groups, &case.inputs, &options) {
        Ok(w) => w,
        Err(e @ spvsass_interp::InterpError::Undefined { .. }) => {
            return Ok(Verdict::UndefinedAtSubgroupSize(sg, e.to_string()));
        }
        Err(e) => return Err(crate::oracle::failure("interpreter error", e.to_string())),
    };
    let got = match adapter::lavapipe_compute(&case.words, case.groups, &case.inputs) {
        Ok(b) => b,
        Err(LavapipeError::Unavailable(m)) => return Ok(Verdict::Unavailable(m)),
        Err(e) => return Err(crate::oracle::failure("lavapipe error", e.to_string())),
    };
    let Err(diff) = crate::oracle::compare_named("lavapipe", &want, &got, &case.float_tolerance)
    else {
        return Ok(Verdict::Agrees);
    };
    Ok(match known_cause(&case.words) {
        Some(k) => Verdict::Known(k, diff),
        None => Verdict::Lead(diff),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_causes_come_from_the_module_s_instructions() {
        let header = [0x0723_0203, 0x10000, 0, 100, 0];
        let with = |inst: &[u32]| -> Vec<u32> { header.iter().chain(inst).copied().collect() };
        assert_eq!(
            known_cause(&with(&[(5 << 16) | OP_SMOD, 1, 2, 3, 4])),
            Some(KnownLavapipe::SModOfNegatives)
        );
        assert_eq!(
            known_cause(&with(&[(2 << 16) | OP_CAPABILITY, CAP_INT64])),
            Some(KnownLavapipe::Int64CompareOrShift)
        );
        assert_eq!(known_cause(&with(&[(2 << 16) | OP_CAPABILITY, 1])), None);
    }
}
