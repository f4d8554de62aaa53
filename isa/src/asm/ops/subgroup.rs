//! Mnemonic and operands to op for the warp-wide ops of `isa/subgroup.rs`:
//! SHFL, VOTE, MATCH, REDUX and WARPSYNC.

use crate::asm::{AsmError, Ctx};
use crate::isa::*;

pub(super) fn build(c: &mut Ctx<'_>) -> Result<Option<Op>, AsmError> {
    Ok(Some(match c.base {
        "SHFL" => {
            let mode = c
                .mods
                .one_of(&ShflMode::ALL.map(|m| m.name()))
                .map(|i| ShflMode::ALL[i])
                .ok_or_else(|| c.missing(".IDX, .UP, .DOWN or .BFLY"))?;
            let a = &c.args;
            a.count(5)?;
            Op::Shfl(OpShfl {
                in_bounds: a.pdst(0)?,
                dst: a.dst(1)?,
                src: a.reg(2)?,
                lane: a.src(3)?,
                c: a.src(4)?,
                mode,
            })
        }
        "VOTE" => {
            let mode = c
                .mods
                .one_of(&VoteMode::ALL.map(|m| m.name()))
                .map(|i| VoteMode::ALL[i])
                .ok_or_else(|| c.missing(".ALL, .ANY or .EQ"))?;
            let a = &c.args;
            a.count(3)?;
            Op::Vote(OpVote {
                dst: a.dst(0)?,
                pdst: a.pdst(1)?,
                src: a.pred(2)?,
                mode,
            })
        }
        "MATCH" => {
            let all = match c.mods.one_of(&["ANY", "ALL"]) {
                Some(i) => i == 1,
                None => return Err(c.missing(".ANY or .ALL")),
            };
            let a = &c.args;
            a.count(if all { 3 } else { 2 })?;
            let k = usize::from(all);
            Op::Match(OpMatch {
                dst: a.dst(k)?,
                pdst: if all { a.pdst(0)? } else { Dst::None },
                src: a.reg(k + 1)?,
                all,
            })
        }
        "REDUX" => {
            let op = c
                .mods
                .one_of(&ReduxOp::ALL.map(|o| o.name()))
                .map(|i| ReduxOp::ALL[i])
                .ok_or_else(|| c.missing(".SUM, .MIN, .MAX, .AND, .OR or .XOR"))?;
            let signed = c.mods.take("S32");
            c.args.count(2)?;
            Op::Redux(OpRedux {
                dst: c.args.dst(0)?,
                src: c.args.reg(1)?,
                op,
                signed,
            })
        }
        "WARPSYNC" => {
            c.args.count(1)?;
            Op::WarpSync(OpWarpSync {
                mask: c.args.src(0)?,
            })
        }
        _ => return Ok(None),
    }))
}
