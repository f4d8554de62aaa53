//! Control bits (bits 105..126): stall cycles, yield, scoreboards, wait mask
//! and operand reuse, printed in the `[B------:R-:W-:Y:S01]` style.

use super::word::{InstWord, field};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ctrl {
    /// Cycles to wait before issuing the next instruction (1..15).
    pub stall: u8,
    pub yield_: bool,
    /// Scoreboard set when the result is written (7 = none).
    pub write_sb: u8,
    /// Scoreboard set when the sources have been read (7 = none).
    pub read_sb: u8,
    /// Scoreboards waited on before issue, one bit each (0..6).
    pub wait: u8,
    pub reuse: u8,
}

impl Default for Ctrl {
    /// Conservative defaults until the scheduler (issue \[C\]) computes them:
    /// one stall cycle, no scoreboards.
    fn default() -> Ctrl {
        Ctrl {
            stall: 1,
            yield_: false,
            write_sb: 7,
            read_sb: 7,
            wait: 0,
            reuse: 0,
        }
    }
}

impl Ctrl {
    pub fn encode(&self, w: &mut InstWord) {
        w.set(field::STALL, u64::from(self.stall & 0xf));
        w.set_bit(field::YIELD, self.yield_);
        w.set(field::WR_SB, u64::from(self.write_sb & 7));
        w.set(field::RD_SB, u64::from(self.read_sb & 7));
        w.set(field::WAIT, u64::from(self.wait & 0x3f));
        w.set(field::REUSE, u64::from(self.reuse & 0xf));
    }

    pub fn decode(w: &InstWord) -> Ctrl {
        Ctrl {
            stall: w.get(field::STALL) as u8,
            yield_: w.bit(field::YIELD),
            write_sb: w.get(field::WR_SB) as u8,
            read_sb: w.get(field::RD_SB) as u8,
            wait: w.get(field::WAIT) as u8,
            reuse: w.get(field::REUSE) as u8,
        }
    }
}

impl fmt::Display for Ctrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[B")?;
        for i in 0..6 {
            if self.wait & (1 << i) != 0 {
                write!(f, "{i}")?;
            } else {
                write!(f, "-")?;
            }
        }
        let sb = |s: u8| {
            if s == 7 {
                "-".to_string()
            } else {
                s.to_string()
            }
        };
        write!(
            f,
            ":R{}:W{}:{}:S{:02}]",
            sb(self.read_sb),
            sb(self.write_sb),
            if self.yield_ { "Y" } else { "-" },
            self.stall
        )
    }
}
