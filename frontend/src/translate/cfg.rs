//! The control-flow graph of the entry point, read from the SPIR-V block
//! terminators before any instruction is translated: SSA construction needs
//! every block's predecessors up front, and branches may name blocks that
//! come later.

use super::operands::{Operands, malformed, unsupported};
use crate::FrontendError;
use crate::ir::{Block, Shader};
use rspirv::dr::{self, Instruction};
use rustc_hash::{FxHashMap, FxHashSet};

/// The most blocks an entry point may have after inlining. SSA
/// construction recurses once per merge block on the way from a use to
/// its definition; this bound keeps that depth far from the stack's limit
/// (shaders in the wild have hundreds of blocks, not thousands).
pub(super) const MAX_BLOCKS: usize = 1 << 14;

pub(super) struct Cfg {
    labels: FxHashMap<u32, Block>,
    preds: FxHashMap<Block, Vec<Block>>,
    succs: FxHashMap<Block, Vec<Block>>,
    /// Blocks reachable from the entry block.
    reachable: FxHashSet<Block>,
}

impl Cfg {
    /// Creates one IR block per SPIR-V block, in SPIR-V order, and records
    /// the edges between them.
    pub(super) fn build(
        shader: &mut Shader,
        function: &dr::Function,
    ) -> Result<Cfg, FrontendError> {
        if function.blocks.is_empty()
            && let Some(def) = &function.def
        {
            return Err(malformed(def, "the entry point function has no body"));
        }
        if function.blocks.len() > MAX_BLOCKS
            && let Some(def) = &function.def
        {
            return Err(unsupported(
                def,
                format!(
                    "{} blocks (after inlining) is more than the {MAX_BLOCKS} supported",
                    function.blocks.len()
                ),
            ));
        }
        // Every map holds about one entry per block: sized once, not grown.
        let n = function.blocks.len();
        let mut labels = FxHashMap::with_capacity_and_hasher(n, Default::default());
        for block in &function.blocks {
            let (inst, label) = label(block)?;
            if labels
                .insert(label, shader.new_block(Some(label)))
                .is_some()
            {
                return Err(malformed(inst, "the label is defined twice"));
            }
        }
        let mut cfg = Cfg {
            labels,
            preds: FxHashMap::with_capacity_and_hasher(n, Default::default()),
            succs: FxHashMap::with_capacity_and_hasher(n, Default::default()),
            reachable: FxHashSet::default(),
        };
        for block in &function.blocks {
            let (inst, label) = label(block)?;
            let from = cfg.labels[&label];
            let Some(terminator) = block.instructions.last() else {
                return Err(malformed(inst, "the block has no terminator"));
            };
            let mut succs = Vec::new();
            for target in targets(terminator)? {
                let to = cfg.block(terminator, target)?;
                if to == shader.entry_block() {
                    return Err(malformed(
                        terminator,
                        "the function's first block cannot be a branch target",
                    ));
                }
                if !succs.contains(&to) {
                    succs.push(to);
                    cfg.preds.entry(to).or_default().push(from);
                }
            }
            cfg.succs.insert(from, succs);
        }
        cfg.reachable = cfg.reachable_from(shader.entry_block());
        Ok(cfg)
    }

    /// The block of `label`, named by `user`.
    pub(super) fn block(&self, user: &Instruction, label: u32) -> Result<Block, FrontendError> {
        self.labels.get(&label).copied().ok_or_else(|| {
            malformed(
                user,
                format!("%{label} is not a block of the entry point function"),
            )
        })
    }

    pub(super) fn preds(&self, block: Block) -> &[Block] {
        self.preds.get(&block).map_or(&[], Vec::as_slice)
    }

    pub(super) fn succs(&self, block: Block) -> &[Block] {
        self.succs.get(&block).map_or(&[], Vec::as_slice)
    }

    pub(super) fn is_reachable(&self, block: Block) -> bool {
        self.reachable.contains(&block)
    }

    fn reachable_from(&self, entry: Block) -> FxHashSet<Block> {
        let mut seen = FxHashSet::from_iter([entry]);
        let mut stack = vec![entry];
        while let Some(b) = stack.pop() {
            for &s in self.succs(b) {
                if seen.insert(s) {
                    stack.push(s);
                }
            }
        }
        seen
    }
}

/// A block's OpLabel and its id. The loader creates a block only for an
/// OpLabel, which the parser gives a result id: a missing one would be an
/// rspirv bug, reported rather than trusted.
fn label(block: &dr::Block) -> Result<(&Instruction, u32), FrontendError> {
    block
        .label
        .as_ref()
        .and_then(|l| Some((l, l.result_id?)))
        .ok_or_else(|| FrontendError::InvalidBinary {
            reason: "a block has no label".into(),
        })
}

/// The labels a terminator may jump to.
fn targets(terminator: &Instruction) -> Result<Vec<u32>, FrontendError> {
    let mut ops = Operands::new(terminator);
    Ok(match terminator.class.opcode {
        spirv::Op::Branch => vec![ops.id("target label")?],
        spirv::Op::BranchConditional => {
            ops.id("condition")?;
            vec![ops.id("true label")?, ops.id("false label")?]
        }
        spirv::Op::Switch => {
            ops.id("selector")?;
            let mut labels = vec![ops.id("default")?];
            while ops.remaining() > 0 {
                ops.any("case literal")?;
                labels.push(ops.id("case target")?);
            }
            labels
        }
        _ => Vec::new(),
    })
}
