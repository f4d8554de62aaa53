//! Compilation targets. Differences between architectures are answered
//! here, by capability, never by scattered comparisons of SM numbers.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Arch {
    Sm75,
    Sm86,
    Sm89,
    Sm90,
}

impl Arch {
    pub const ALL: [Arch; 4] = [Arch::Sm75, Arch::Sm86, Arch::Sm89, Arch::Sm90];
    pub const DEFAULT: Arch = Arch::Sm86;

    pub fn sm(self) -> u32 {
        match self {
            Arch::Sm75 => 75,
            Arch::Sm86 => 86,
            Arch::Sm89 => 89,
            Arch::Sm90 => 90,
        }
    }

    pub fn from_sm(sm: u32) -> Option<Arch> {
        Arch::ALL.into_iter().find(|a| a.sm() == sm)
    }

    /// ISBERD/ISBEWR take an immediate offset from SM86 on; before, the
    /// offset must be in a register (docs/HARDWARE.md, "Instructions").
    pub fn has_isbe_imm_offset(self) -> bool {
        self >= Arch::Sm86
    }

    /// REDUX (a warp-wide integer reduction) exists from SM80 on: PTX's
    /// redux.sync needs sm_80, and ptxas emits REDUX.SUM/MAX on sm_90
    /// (docs/HARDWARE.md, "Instructions"). Before, reductions are SHFL
    /// ladders.
    pub fn has_redux(self) -> bool {
        self >= Arch::Sm86
    }

    /// DADD, DMUL, DFMA and DSETP run in a fixed-latency pipe from SM90 on:
    /// ptxas gives them no scoreboard there and reads their results 8
    /// cycles after issue, and the H100 ignores a scoreboard set on them
    /// (our DMUL with one had its result read stale). Before, double
    /// precision is a shared unit of variable latency (docs/ISA.md,
    /// "Control bits").
    pub fn has_fixed_latency_fp64(self) -> bool {
        self >= Arch::Sm90
    }
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm{}", self.sm())
    }
}

impl FromStr for Arch {
    type Err = String;
    fn from_str(s: &str) -> Result<Arch, String> {
        let digits = s.trim_start_matches("sm_").trim_start_matches("sm");
        digits
            .parse::<u32>()
            .ok()
            .and_then(Arch::from_sm)
            .ok_or_else(|| {
                format!("unknown architecture '{s}' (expected one of sm75, sm86, sm89, sm90)")
            })
    }
}
