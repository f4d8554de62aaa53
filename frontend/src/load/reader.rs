//! The fast path of [`super::load_words`]: the instructions and operand
//! kinds that shaders use, decoded straight into rspirv's `dr` structures.
//!
//! rspirv's parser finds an opcode's grammar by a linear search over its
//! table of ~750 instructions, twice per instruction, and tracks types in a
//! SipHash map: that was half of the frontend's time. This reader indexes the
//! grammar by opcode once per process. It decodes what it does exactly as
//! rspirv's parser does, and gives up (`None`) on anything else — an operand
//! kind or enumerant it does not know, a malformed instruction, a loader
//! error — for the caller to parse the module with rspirv instead, so that
//! results and error messages are always rspirv's. The one exception is
//! OpSpecConstantOp, whose list operands (VectorShuffle's components,
//! CompositeExtract's indices) are read whole here: rspirv's parser reads
//! one word per list and refuses such valid modules.

use super::Loader;
use rspirv::binary::{Consumer, ParseAction};
use rspirv::dr::{self, Operand};
use rspirv::grammar::{self, OperandKind, OperandQuantifier};
use spirv::{Decoration, ExecutionMode, ImageOperands, LoopControl, MemoryAccess, Op};
use std::sync::OnceLock;

type Grammar = &'static grammar::Instruction<'static>;

/// Reads a module whose header has been checked, or `None` to leave it to
/// rspirv.
pub(super) fn read(words: &[u32]) -> Option<dr::Module> {
    let bound = words[3] as usize;
    // Valid ids are below the bound, and each one needs an instruction of
    // at least two words: a larger bound is not worth a table.
    if bound > words.len() {
        return None;
    }
    let mut loader = Loader::default();
    let mut types = TypeTracker(vec![None; bound]);
    continued(loader.initialize())?;
    let mut header = dr::ModuleHeader::new(words[3]);
    let [_, minor, major, _] = words[1].to_le_bytes();
    header.set_version(major, minor);
    continued(loader.consume_header(header))?;

    let mut at = super::HEADER_WORDS;
    while at < words.len() {
        // `check_instruction_bounds` has made sure that this is in range.
        let count = (words[at] >> 16) as usize;
        let inst = instruction(&words[at..at + count], &types)?;
        types.track(&inst)?;
        continued(loader.consume_instruction(inst))?;
        at += count;
    }
    continued(loader.finalize())?;
    Some(loader.into_module())
}

fn continued(action: ParseAction) -> Option<()> {
    matches!(action, ParseAction::Continue).then_some(())
}

/// rspirv's grammar of `opcode`: the first entry for it in rspirv's table,
/// as rspirv's own lookup finds.
fn grammar_of(opcode: u32) -> Option<Grammar> {
    static BY_OPCODE: OnceLock<Vec<Option<Grammar>>> = OnceLock::new();
    let table = BY_OPCODE.get_or_init(|| {
        let table_len = grammar::INSTRUCTION_TABLE
            .iter()
            .map(|inst| inst.opcode as usize + 1)
            .max();
        let mut table = vec![None; table_len.unwrap_or(0)];
        for inst in grammar::INSTRUCTION_TABLE.iter() {
            table[inst.opcode as usize].get_or_insert(inst);
        }
        table
    });
    table.get(opcode as usize).copied().flatten()
}

/// The scalar types of ids, as rspirv's `TypeTracker` records them, for the
/// width of context-dependent literals (OpConstant, OpSwitch).
struct TypeTracker(Vec<Option<Scalar>>);

#[derive(Clone, Copy)]
enum Scalar {
    Int(u32),
    Float(u32),
}

impl TypeTracker {
    /// Records the type of `inst`'s result as rspirv does: integer and
    /// float types, and the values of such a type. `None` for an id beyond
    /// the bound, which rspirv accepts.
    fn track(&mut self, inst: &dr::Instruction) -> Option<()> {
        let Some(id) = inst.result_id else {
            return Some(());
        };
        let scalar = if inst.class.opcode.is_type() {
            match (inst.class.opcode, inst.operands.as_slice()) {
                (Op::TypeInt, [Operand::LiteralBit32(bits), Operand::LiteralBit32(_), ..]) => {
                    Some(Scalar::Int(*bits))
                }
                (Op::TypeFloat, [Operand::LiteralBit32(bits), ..]) => Some(Scalar::Float(*bits)),
                _ => None,
            }
        } else {
            inst.result_type.and_then(|ty| self.get(ty))
        };
        if let Some(scalar) = scalar {
            *self.0.get_mut(id as usize)? = Some(scalar);
        }
        Some(())
    }

    fn get(&self, id: u32) -> Option<Scalar> {
        self.0.get(id as usize).copied().flatten()
    }
}

/// Decodes one instruction (`words` holds exactly its words).
fn instruction(words: &[u32], types: &TypeTracker) -> Option<dr::Instruction> {
    let class = grammar_of(words[0] & 0xffff)?;
    let mut inst = dr::Instruction {
        class,
        result_type: None,
        result_id: None,
        operands: Vec::with_capacity(words.len() - 1),
    };
    let mut rest = Words(&words[1..]);
    operands(class.operands, &mut rest, &mut inst, types)?;
    rest.0.is_empty().then_some(inst)
}

/// Decodes the operands of `logicals` into `inst`. As rspirv: once the
/// words run out, the operands left must be optional.
fn operands(
    logicals: &[grammar::LogicalOperand],
    rest: &mut Words,
    inst: &mut dr::Instruction,
    types: &TypeTracker,
) -> Option<()> {
    'operands: for logical in logicals {
        loop {
            if rest.0.is_empty() {
                match logical.quantifier {
                    OperandQuantifier::One => return None,
                    _ => break 'operands,
                }
            }
            operand(logical.kind, rest, inst, types)?;
            if logical.quantifier != OperandQuantifier::ZeroOrMore {
                break;
            }
        }
    }
    Some(())
}

/// Decodes one logical operand of `kind` into `inst`.
fn operand(
    kind: OperandKind,
    rest: &mut Words,
    inst: &mut dr::Instruction,
    types: &TypeTracker,
) -> Option<()> {
    // An operand holding one word as the spirv enum (or bit set) of its
    // own name; a value the enum does not know is left to rspirv.
    macro_rules! enumerant {
        ($ty:ident, $from:ident) => {
            Operand::$ty(spirv::$ty::$from(rest.next()?)?)
        };
    }
    let operand = match kind {
        OperandKind::IdResultType => {
            inst.result_type = Some(rest.next()?);
            return Some(());
        }
        OperandKind::IdResult => {
            inst.result_id = Some(rest.next()?);
            return Some(());
        }
        OperandKind::IdRef => Operand::IdRef(rest.next()?),
        OperandKind::IdScope => Operand::IdScope(rest.next()?),
        OperandKind::IdMemorySemantics => Operand::IdMemorySemantics(rest.next()?),
        OperandKind::LiteralInteger | OperandKind::LiteralFloat => {
            Operand::LiteralBit32(rest.next()?)
        }
        OperandKind::LiteralExtInstInteger => Operand::LiteralExtInstInteger(rest.next()?),
        OperandKind::LiteralString => Operand::LiteralString(rest.string()?),
        OperandKind::LiteralContextDependentNumber => rest.literal(types.get(inst.result_type?))?,
        OperandKind::PairLiteralIntegerIdRef => {
            // OpSwitch: the literal has the selector's width.
            let Some(&Operand::IdRef(selector)) = inst.operands.first() else {
                return None;
            };
            inst.operands.push(rest.literal(types.get(selector))?);
            Operand::IdRef(rest.next()?)
        }
        OperandKind::PairIdRefLiteralInteger => {
            inst.operands.push(Operand::IdRef(rest.next()?));
            Operand::LiteralBit32(rest.next()?)
        }
        OperandKind::PairIdRefIdRef => {
            inst.operands.push(Operand::IdRef(rest.next()?));
            Operand::IdRef(rest.next()?)
        }
        OperandKind::LiteralSpecConstantOpInteger => {
            // OpSpecConstantOp: the operation's opcode, then its operands
            // (its result type and id are the instruction's own). rspirv's
            // parser reads one word per list operand, so it refuses a
            // VectorShuffle or CompositeExtract with several literals
            // ("found extra operands"); here lists are read whole.
            let op = grammar_of(rest.next()?)?;
            inst.operands
                .push(Operand::LiteralSpecConstantOpInteger(op.opcode));
            let own = |l: &&grammar::LogicalOperand| {
                !matches!(l.kind, OperandKind::IdResultType | OperandKind::IdResult)
            };
            let logicals: Vec<grammar::LogicalOperand> =
                op.operands.iter().filter(own).cloned().collect();
            return operands(&logicals, rest, inst, types);
        }
        OperandKind::Capability => enumerant!(Capability, from_u32),
        OperandKind::AddressingModel => enumerant!(AddressingModel, from_u32),
        OperandKind::MemoryModel => enumerant!(MemoryModel, from_u32),
        OperandKind::ExecutionModel => enumerant!(ExecutionModel, from_u32),
        OperandKind::SourceLanguage => enumerant!(SourceLanguage, from_u32),
        OperandKind::StorageClass => enumerant!(StorageClass, from_u32),
        OperandKind::GroupOperation => enumerant!(GroupOperation, from_u32),
        OperandKind::FunctionControl => enumerant!(FunctionControl, from_bits),
        OperandKind::SelectionControl => enumerant!(SelectionControl, from_bits),
        OperandKind::LoopControl => {
            let control = LoopControl::from_bits(rest.next()?)?;
            // The other bits take parameters, left to rspirv.
            if !(LoopControl::UNROLL | LoopControl::DONT_UNROLL).contains(control) {
                return None;
            }
            Operand::LoopControl(control)
        }
        OperandKind::MemoryAccess => {
            let access = MemoryAccess::from_bits(rest.next()?)?;
            let plain = MemoryAccess::VOLATILE | MemoryAccess::ALIGNED | MemoryAccess::NONTEMPORAL;
            if !plain.contains(access) {
                return None;
            }
            inst.operands.push(Operand::MemoryAccess(access));
            if !access.contains(MemoryAccess::ALIGNED) {
                return Some(());
            }
            Operand::LiteralBit32(rest.next()?)
        }
        // Image types and image instructions: read here so that a module
        // using them still gets this reader's OpSpecConstantOp handling
        // (rspirv's parser refuses a VectorShuffle there).
        OperandKind::Dim => enumerant!(Dim, from_u32),
        OperandKind::ImageFormat => enumerant!(ImageFormat, from_u32),
        OperandKind::AccessQualifier => enumerant!(AccessQualifier, from_u32),
        OperandKind::ImageOperands => {
            let image = ImageOperands::from_bits(rest.next()?)?;
            // Scoped texel availability takes IdScope parameters: left to
            // rspirv.
            if image
                .intersects(ImageOperands::MAKE_TEXEL_AVAILABLE | ImageOperands::MAKE_TEXEL_VISIBLE)
            {
                return None;
            }
            inst.operands.push(Operand::ImageOperands(image));
            // One id per operand that takes one, two for Grad, in bit
            // order, as rspirv decodes them.
            let with_id = ImageOperands::BIAS
                | ImageOperands::LOD
                | ImageOperands::GRAD
                | ImageOperands::CONST_OFFSET
                | ImageOperands::OFFSET
                | ImageOperands::CONST_OFFSETS
                | ImageOperands::SAMPLE
                | ImageOperands::MIN_LOD
                | ImageOperands::OFFSETS;
            let ids = (image & with_id).bits().count_ones()
                + u32::from(image.contains(ImageOperands::GRAD));
            for _ in 0..ids {
                inst.operands.push(Operand::IdRef(rest.next()?));
            }
            return Some(());
        }
        OperandKind::Decoration => {
            let decoration = Decoration::from_u32(rest.next()?)?;
            inst.operands.push(Operand::Decoration(decoration));
            return decoration_parameters(decoration, rest, inst);
        }
        OperandKind::ExecutionMode => {
            let mode = ExecutionMode::from_u32(rest.next()?)?;
            inst.operands.push(Operand::ExecutionMode(mode));
            return execution_mode_parameters(mode, rest, inst);
        }
        _ => return None,
    };
    inst.operands.push(operand);
    Some(())
}

/// The parameters of the decorations shaders use, as rspirv decodes them.
fn decoration_parameters(
    decoration: Decoration,
    rest: &mut Words,
    inst: &mut dr::Instruction,
) -> Option<()> {
    match decoration {
        Decoration::SpecId
        | Decoration::ArrayStride
        | Decoration::MatrixStride
        | Decoration::Location
        | Decoration::Component
        | Decoration::Index
        | Decoration::Binding
        | Decoration::DescriptorSet
        | Decoration::Offset => inst.operands.push(Operand::LiteralBit32(rest.next()?)),
        Decoration::BuiltIn => inst
            .operands
            .push(Operand::BuiltIn(spirv::BuiltIn::from_u32(rest.next()?)?)),
        Decoration::Block
        | Decoration::BufferBlock
        | Decoration::RowMajor
        | Decoration::ColMajor
        | Decoration::NonWritable
        | Decoration::NonReadable
        | Decoration::PerPrimitiveEXT
        | Decoration::Flat
        | Decoration::NoPerspective
        | Decoration::Centroid
        | Decoration::Sample
        | Decoration::RelaxedPrecision
        | Decoration::Coherent
        | Decoration::Volatile
        | Decoration::Restrict
        | Decoration::Aliased
        | Decoration::AliasedPointer
        | Decoration::RestrictPointer
        | Decoration::Invariant => {}
        _ => return None,
    }
    Some(())
}

/// The parameters of the execution modes shaders use, as rspirv decodes
/// them.
fn execution_mode_parameters(
    mode: ExecutionMode,
    rest: &mut Words,
    inst: &mut dr::Instruction,
) -> Option<()> {
    let (count, operand): (usize, fn(u32) -> Operand) = match mode {
        ExecutionMode::LocalSize => (3, Operand::LiteralBit32),
        ExecutionMode::LocalSizeId => (3, Operand::IdRef),
        ExecutionMode::OutputVertices | ExecutionMode::OutputPrimitivesEXT => {
            (1, Operand::LiteralBit32)
        }
        ExecutionMode::OutputPoints
        | ExecutionMode::OutputLinesEXT
        | ExecutionMode::OutputTrianglesEXT => (0, Operand::LiteralBit32),
        _ => return None,
    };
    for _ in 0..count {
        inst.operands.push(operand(rest.next()?));
    }
    Some(())
}

/// The words of an instruction not decoded yet.
struct Words<'w>(&'w [u32]);

impl Words<'_> {
    fn next(&mut self) -> Option<u32> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }

    /// A nul-terminated UTF-8 string, in whole words.
    fn string(&mut self) -> Option<String> {
        let words = 1 + self.0.iter().position(|w| w.to_le_bytes().contains(&0))?;
        let mut bytes = Vec::with_capacity(4 * words);
        for word in &self.0[..words] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes.truncate(bytes.iter().position(|&b| b == 0)?);
        self.0 = &self.0[words..];
        String::from_utf8(bytes).ok()
    }

    /// A literal number of a scalar type (one word when the type is not
    /// known, as in rspirv).
    fn literal(&mut self, ty: Option<Scalar>) -> Option<Operand> {
        match ty {
            Some(Scalar::Int(64) | Scalar::Float(64)) => {
                let low = u64::from(self.next()?);
                let high = u64::from(self.next()?);
                Some(Operand::LiteralBit64(high << 32 | low))
            }
            None | Some(Scalar::Int(8 | 16 | 32) | Scalar::Float(16 | 32)) => {
                Some(Operand::LiteralBit32(self.next()?))
            }
            Some(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    fn words(file: &str) -> Vec<u32> {
        let path = format!("{}/../tests/shaders/{file}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        crate::words_from_bytes(&bytes).unwrap()
    }

    /// The module rspirv's parser builds from `words`.
    fn rspirv_module(words: &[u32]) -> rspirv::dr::Module {
        let mut loader = super::Loader::default();
        rspirv::binary::parse_words(words, &mut loader).unwrap();
        loader.into_module()
    }

    /// One test per module: the reader reads it, into the module rspirv
    /// builds (`dr::Module` has no `PartialEq`; its debug text shows every
    /// field).
    macro_rules! same_as_rspirv {
        ($($name:ident: $file:literal,)*) => {$(
            #[test]
            fn $name() {
                let words = words($file);
                let module = super::read(&words).expect("the reader gives up");
                assert_eq!(format!("{module:#?}"), format!("{:#?}", rspirv_module(&words)));
            }
        )*};
    }

    same_as_rspirv! {
        // Decorations, member decorations, names and mesh execution modes.
        meshlet_instanced: "meshlet_instanced.mesh.spv",
        meshlet_cone_culling: "meshlet_cone_culling.task.spv",
        // 64-bit constants, whose literals take two words.
        half_and_double: "half_and_double.comp.spv",
        atomics64: "atomics64.comp.spv",
        // OpSwitch, whose literals take the selector's width.
        switch_fallthrough: "switch_fallthrough.comp.spv",
        function_calls: "function_calls.comp.spv",
        phi_heavy_loop: "phi_heavy_loop.comp.spv",
        buffer_device_address: "buffer_device_address.comp.spv",
        subgroup_vote_shuffle: "subgroup_vote_shuffle.comp.spv",
        s_compact: "s_compact.task.spv",
        // Image types and image operands (Lod, Grad, ConstOffset, Sample).
        d_reader_images: "d_reader_images.comp.spv",
    }

    /// Corrupted modules: wherever the reader accepts one, rspirv's parser
    /// accepts it too and builds the same module (the reader may give up
    /// on more, never on less). Words of the instruction stream are
    /// overwritten with random values or with small ones (opcodes, ids and
    /// enumerants live there); word counts that leave the module are
    /// refused before either reader runs, as in `load_words`.
    mod corrupted {
        use proptest::prelude::*;

        fn check(file: &str, edits: &[(usize, u32, bool)]) -> Result<(), TestCaseError> {
            let mut words = super::words(file);
            let body = words.len() - super::super::super::HEADER_WORDS;
            for &(at, value, small) in edits {
                let at = super::super::super::HEADER_WORDS + at % body;
                words[at] = if small { value % 64 } else { value };
            }
            if super::super::super::check_instruction_bounds(&words).is_err() {
                return Ok(());
            }
            if let Some(module) = super::super::read(&words) {
                let mut loader = super::super::Loader::default();
                let parsed = rspirv::binary::parse_words(&words, &mut loader);
                prop_assert!(
                    parsed.is_ok(),
                    "rspirv refuses what the reader read: {parsed:?}"
                );
                prop_assert_eq!(
                    format!("{module:#?}"),
                    format!("{:#?}", loader.into_module())
                );
            }
            Ok(())
        }

        macro_rules! corrupted {
            ($($name:ident: $file:literal,)*) => {$(
                proptest! {
                    #![proptest_config(ProptestConfig::with_cases(64))]
                    #[test]
                    fn $name(edits in prop::collection::vec((any::<usize>(), any::<u32>(), any::<bool>()), 1..4)) {
                        check($file, &edits)?;
                    }
                }
            )*};
        }

        corrupted! {
            meshlet_instanced: "meshlet_instanced.mesh.spv",
            half_and_double: "half_and_double.comp.spv",
            switch_fallthrough: "switch_fallthrough.comp.spv",
        }
    }

    /// OpSpecConstantOp with single operands: read as rspirv reads it.
    #[test]
    fn spec_constant_op_as_rspirv() {
        let words = words("spec_op_quantize.comp.spv");
        let module = super::read(&words).expect("the reader reads OpSpecConstantOp");
        assert_eq!(
            format!("{module:#?}"),
            format!("{:#?}", rspirv_module(&words))
        );
    }

    /// OpSpecConstantOp VectorShuffle (glslang's `gl_WorkGroupSize.xy`
    /// with local_size_x_id), which rspirv's parser refuses: every
    /// component literal is read.
    #[test]
    fn spec_constant_op_vector_shuffle() {
        let module = super::read(&words("spec_workgroup_xy.comp.spv")).expect("read");
        let shuffle = module
            .types_global_values
            .iter()
            .find(|i| {
                i.class.opcode == spirv::Op::SpecConstantOp
                    && i.operands.first()
                        == Some(&rspirv::dr::Operand::LiteralSpecConstantOpInteger(
                            spirv::Op::VectorShuffle,
                        ))
            })
            .expect("a spec-constant VectorShuffle");
        let literals: Vec<_> = shuffle.operands[3..].to_vec();
        assert_eq!(
            literals,
            [
                rspirv::dr::Operand::LiteralBit32(0),
                rspirv::dr::Operand::LiteralBit32(1)
            ]
        );
    }
}
