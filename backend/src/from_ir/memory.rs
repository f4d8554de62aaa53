//! Loads and stores through pointers into memory: storage buffers (LDG/STG
//! at a 64-bit address: the buffer's base from the root table or its
//! descriptor, `descriptors.rs`, plus the access chain's byte offset),
//! uniform buffers and push constants (LDC from their constant banks, see
//! `abi.rs`; uniform buffers beyond the banks' reach like storage
//! buffers), shared memory (LDS/STS) and
//! function or private variables that were not promoted to SSA values
//! (LDL/STL, per-lane local memory).
//!
//! An access chain becomes a constant byte offset, folded into the
//! instruction's immediate, plus a dynamic byte offset in a register (the
//! sum of each dynamic index times its stride). Contiguous aligned words
//! of a value (a vec4 at a 16-byte boundary, say) are accessed together
//! by one 64- or 128-bit load or store in an aligned register group;
//! constant banks are read a word at a time.

use super::descriptors::{BufferRef, DescIndex, buffer_binding};
use super::mem_layout::{chain_step, child, scalars, size_align, strided_scalars};
use super::places::{Place, Step};
use super::{Comp, Isel};
use crate::abi;
use crate::binary::{Resource, ResourceAccess};
use crate::error::{BackendError, spirv_opcode};
use crate::isa::{
    Dst, Instr, IntCmp, MemSize, MemSpace, Op, OpIAdd3, OpIMad, OpLd, OpLdc, OpSt, RegFile, Src,
};
use crate::mir::VReg;
use cranelift_entity::SecondaryMap;
use spvsass_frontend::ir::{
    self, GlobalVar, InstData, Scalar, Shader, Stage, StorageClass, TypeId, Value,
};
use std::ops::Range;

/// Where shared and local variables live, and how much of each memory a
/// workgroup needs.
#[derive(Clone, Debug, Default)]
pub struct MemPlan {
    /// The byte offset of each shared and local variable.
    pub offsets: SecondaryMap<GlobalVar, Option<u32>>,
    /// Shared memory per workgroup, in bytes.
    pub shared_bytes: u32,
    /// Local memory per invocation, in bytes.
    pub local_bytes: u32,
    /// Function, Private and (compute) Workgroup variables in memory with
    /// an initializer, by
    /// the value (a constant of the entry block) they start with.
    pub initializers: SecondaryMap<Value, Vec<GlobalVar>>,
}

/// Variables are placed 16-byte aligned, in declaration order.
const VAR_ALIGN: u32 = 16;

/// Whether `var` is a Workgroup variable of a Block-decorated struct
/// (WorkgroupMemoryExplicitLayoutKHR): such variables alias one another,
/// all starting at the same byte, laid out by their Offset decorations.
pub fn explicit_workgroup_block(sh: &Shader, var: GlobalVar) -> bool {
    let g = &sh.globals[var];
    g.class == StorageClass::Workgroup
        && matches!(sh.types[g.ty], ir::Type::Struct { block: true, .. })
}

impl MemPlan {
    pub fn new(sh: &Shader) -> Result<MemPlan, BackendError> {
        let mut plan = MemPlan::default();
        // Explicitly laid out Workgroup blocks alias: all at byte 0, the
        // other shared variables after the largest. Task and mesh shaders
        // place them in the ISBE the same way (shared.rs).
        for (var, data) in sh.globals.iter() {
            if !explicit_workgroup_block(sh, var) {
                continue;
            }
            let (size, _) = size_align(sh, data.ty).ok_or_else(|| BackendError::Unsupported {
                what: format!("the memory layout of {}", sh.type_name(data.ty)),
                opcode: "OpVariable".into(),
                spirv_id: Some(data.spirv_id),
            })?;
            if sh.stage != Stage::Compute {
                continue;
            }
            plan.offsets[var] = Some(0);
            plan.shared_bytes = plan.shared_bytes.max(size);
        }
        for (var, data) in sh.globals.iter() {
            if plan.offsets[var].is_some() {
                continue;
            }
            let end = match data.class {
                // Task and mesh shaders keep shared memory in the ISBE
                // (from_ir/shared.rs, docs/HARDWARE.md).
                StorageClass::Workgroup if sh.stage != Stage::Compute => continue,
                StorageClass::Workgroup => &mut plan.shared_bytes,
                StorageClass::Function | StorageClass::Private => &mut plan.local_bytes,
                _ => continue,
            };
            // Compute shared variables are initialised like private ones,
            // each invocation storing the same value, then a barrier
            // (`store_initializers`).
            if let (
                Some(init),
                StorageClass::Function | StorageClass::Private | StorageClass::Workgroup,
            ) = (data.initializer, data.class)
            {
                plan.initializers[init].push(var);
            } else if data.initializer.is_some() {
                return Err(BackendError::Unsupported {
                    what: format!("an initializer on a {:?} variable in memory", data.class),
                    opcode: "OpVariable".into(),
                    spirv_id: Some(data.spirv_id),
                });
            }
            let (size, _) = size_align(sh, data.ty).ok_or_else(|| BackendError::Unsupported {
                what: format!("the memory layout of {}", sh.type_name(data.ty)),
                opcode: "OpVariable".into(),
                spirv_id: Some(data.spirv_id),
            })?;
            let offset = end.div_ceil(VAR_ALIGN) * VAR_ALIGN;
            plan.offsets[var] = Some(offset);
            *end = offset + size;
        }
        Ok(plan)
    }

    /// The local memory one invocation's variables take, rounded so that
    /// the copies of a wide workgroup's logical subgroups (laid one after
    /// another) keep the variables' alignment.
    pub fn local_copy_bytes(&self) -> u32 {
        self.local_bytes.next_multiple_of(VAR_ALIGN)
    }
}

/// The memory an access goes to.
#[derive(Clone, Copy)]
pub(super) enum Target {
    /// A storage buffer, or a uniform buffer read with global loads.
    Global {
        buffer: BufferRef,
    },
    /// A constant bank, from byte `base` on, `limit` bytes long.
    Const {
        bank: u8,
        base: u32,
        limit: u32,
    },
    Shared {
        base: u32,
    },
    Local {
        base: u32,
    },
}

/// A resolved access: the type at the end of the chain, its constant byte
/// offset and the dynamic byte offset (a register), if any.
pub(super) struct Addressed {
    pub leaf: TypeId,
    pub konst: u32,
    pub dynamic: Option<Src>,
    /// A power of two the dynamic offset is a multiple of.
    pub dyn_align: u32,
    /// The leaf is a column of a row-major matrix: a vector whose
    /// components lie this many bytes apart (`mem_layout::chain_step`).
    pub row_stride: Option<u32>,
}

/// The word an atomic works on (`Isel::atomic_word`).
pub(super) struct AtomicWord {
    pub space: MemSpace,
    pub addr: Src,
    pub offset: i32,
    /// A 64-bit integer (two words, an aligned register pair).
    pub wide: bool,
}

/// The widest access: 128 bits. Buffer bases are at least this aligned
/// (docs/ABI.md), and shared and local variables are placed so.
const MAX_VECTOR_BYTES: u32 = 16;

/// Splits a value's scalars into accesses: runs of 4 or 2 contiguous
/// 32-bit words whose address (`base` + offset, plus a dynamic part that
/// is a multiple of `dyn_align`) is aligned to the run's size become one
/// 128- or 64-bit access; the rest are single. Returns (first index,
/// count) pairs.
fn vector_chunks(parts: &[(u32, MemSize, Scalar)], base: u32, dyn_align: u32) -> Vec<(usize, u32)> {
    let mut chunks = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let n = [4u32, 2]
            .into_iter()
            .find(|&n| {
                let run = &parts[i..(i + n as usize).min(parts.len())];
                let bytes = 4 * n;
                run.len() == n as usize
                    && base.wrapping_add(parts[i].0).is_multiple_of(bytes)
                    && dyn_align.is_multiple_of(bytes)
                    && run.iter().enumerate().all(|(k, &(off, size, s))| {
                        size == MemSize::B32
                            && s != Scalar::Bool
                            && off == parts[i].0 + 4 * k as u32
                    })
            })
            .unwrap_or(1);
        chunks.push((i, n));
        i += n as usize;
    }
    chunks
}

fn mem_size(s: Scalar) -> Option<MemSize> {
    Some(match s {
        Scalar::Int {
            bits: 8,
            signed: false,
        } => MemSize::U8,
        Scalar::Int { bits: 8, .. } => MemSize::S8,
        Scalar::Int {
            bits: 16,
            signed: false,
        } => MemSize::U16,
        Scalar::Int { bits: 16, .. } => MemSize::S16,
        // A half is the low 16 bits of its word (float16.rs).
        Scalar::Float { bits: 16 } => MemSize::U16,
        Scalar::Bool | Scalar::Int { bits: 32, .. } | Scalar::Float { bits: 32 } => MemSize::B32,
        _ => return None,
    })
}

impl Isel<'_> {
    /// The byte offset `MemPlan::new` gave a shared or local variable.
    fn placed(&self, var: GlobalVar, inst: &InstData) -> Result<u32, BackendError> {
        self.mem.offsets[var].ok_or_else(|| {
            self.mem_error(
                format!(
                    "an access to {} (not placed in memory)",
                    self.sh.type_name(self.sh.globals[var].ty)
                ),
                inst,
            )
        })
    }

    pub(super) fn mem_error(&self, what: String, inst: &InstData) -> BackendError {
        BackendError::Unsupported {
            what,
            opcode: spirv_opcode(&inst.op),
            spirv_id: inst.spirv_id,
        }
    }

    /// The memory `place` is in, the type its path starts from and how
    /// many of its steps were used: the first step into a descriptor
    /// array picks the descriptor.
    pub(super) fn target(
        &self,
        place: &Place,
        inst: &InstData,
    ) -> Result<(Target, TypeId, usize), BackendError> {
        let var = place.var;
        let data = &self.sh.globals[var];
        let (class, mut ty) = (data.class, data.ty);
        let mut skip = 0;
        let target = match class {
            StorageClass::StorageBuffer | StorageClass::Uniform => {
                let b = buffer_binding(self.sh, data, self.bank_uniforms).ok_or_else(|| {
                    self.mem_error("a buffer without a DescriptorSet and Binding".into(), inst)
                })?;
                let Resource {
                    set,
                    binding,
                    array,
                    access,
                    ..
                } = b.resource;
                ty = b.block;
                // A descriptor array: the first index picks the element.
                let index = match array {
                    None => DescIndex::Const(0),
                    Some(_) => {
                        skip = 1;
                        let step = place.path.first().ok_or_else(|| {
                            self.mem_error("an access to a whole descriptor array".into(), inst)
                        })?;
                        DescIndex::of(*step)
                    }
                };
                match access {
                    ResourceAccess::ConstantBank(bank) => Target::Const {
                        bank,
                        base: 0,
                        limit: 1 << 16,
                    },
                    ResourceAccess::RootTable => Target::Global {
                        buffer: BufferRef::Root { binding },
                    },
                    ResourceAccess::Descriptor => Target::Global {
                        buffer: BufferRef::Set {
                            set,
                            binding,
                            index,
                        },
                    },
                }
            }
            // A block over 128 bytes reads the root table's whole copy.
            StorageClass::PushConstant => {
                let size = size_align(self.sh, ty).map_or(u32::MAX, |(size, _)| size);
                let base = abi::push_constants(size);
                Target::Const {
                    bank: abi::ROOT_BANK,
                    base: u32::from(base),
                    limit: u32::from(if base == abi::PUSH_CONSTANTS {
                        abi::PUSH_CONSTANT_WINDOW
                    } else {
                        abi::PUSH_CONSTANT_BYTES
                    }),
                }
            }
            StorageClass::Workgroup => Target::Shared {
                base: self.placed(var, inst)?,
            },
            // Each logical subgroup of a wide workgroup is another set of
            // invocations on the same lanes: it gets its own copy of the
            // variables (`MemPlan::local_copy_bytes`).
            StorageClass::Function | StorageClass::Private => Target::Local {
                base: self.placed(var, inst)? + self.wide.copy * self.mem.local_copy_bytes(),
            },
            class => return Err(self.mem_error(format!("accesses to {class:?} memory"), inst)),
        };
        Ok((target, ty, skip))
    }

    /// Walks the access chain: constant steps add to the constant offset,
    /// dynamic ones add `index * stride` to a register (IMAD).
    pub(super) fn address(
        &mut self,
        place: &Place,
        start: (TypeId, usize),
        inst: &InstData,
    ) -> Result<Addressed, BackendError> {
        let sh = self.sh;
        let (mut ty, skip) = start;
        let mut konst = 0u32;
        let mut dynamic: Option<Src> = None;
        let mut dyn_align = MAX_VECTOR_BYTES;
        let mut row_stride = None;
        for step in &place.path[skip..] {
            let index = match step {
                Step::Const(i) => Comp::Const(*i),
                Step::Dyn(v) => self.value_comp(*v)?,
            };
            let (c, next_row_stride) = match index {
                Comp::Const(i) => chain_step(sh, ty, i, row_stride),
                _ => chain_step(sh, ty, 0, row_stride),
            }
            .ok_or_else(|| {
                self.mem_error(
                    format!("an access chain step into {}", sh.type_name(ty)),
                    inst,
                )
            })?;
            match index {
                Comp::Const(_) => konst = konst.wrapping_add(c.offset),
                Comp::Reg(r) if c.stride != 0 => {
                    let acc = dynamic.unwrap_or(Src::ZERO);
                    let sum = self.alu(Op::IMad(OpIMad {
                        dst: Dst::None,
                        srcs: [r.src(), Src::imm(c.stride), acc],
                        signed: false,
                    }));
                    dynamic = Some(self.src_of(sum));
                    dyn_align = dyn_align.min(1 << c.stride.trailing_zeros());
                }
                _ => {
                    return Err(
                        self.mem_error(format!("a dynamic index into {}", sh.type_name(ty)), inst)
                    );
                }
            }
            ty = c.ty;
            row_stride = next_row_stride;
        }
        Ok(Addressed {
            leaf: ty,
            konst,
            dynamic,
            dyn_align,
            row_stride,
        })
    }

    pub(super) fn leaf_scalars(
        &self,
        a: &Addressed,
        inst: &InstData,
    ) -> Result<Vec<(u32, MemSize, Scalar)>, BackendError> {
        let mut out = Vec::new();
        match a.row_stride {
            Some(stride) => strided_scalars(self.sh, a.leaf, a.konst, stride, &mut out),
            None => scalars(self.sh, a.leaf, a.konst, &mut out),
        }
        .ok_or_else(|| {
            self.mem_error(
                format!("memory accesses to {}", self.sh.type_name(a.leaf)),
                inst,
            )
        })?;
        let mut parts = Vec::with_capacity(out.len());
        for (offset, s) in out {
            // The second word of a 64-bit value past 4 GiB (a malformed
            // Offset decoration) has no address.
            let high = offset
                .checked_add(4)
                .ok_or_else(|| self.mem_error(format!("a {s} at byte offset {offset}"), inst));
            match (s, mem_size(s)) {
                (_, Some(size)) => parts.push((offset, size, s)),
                // A 64-bit integer is its two words, low first (little
                // endian, as the register pair holds it).
                (Scalar::Int { bits: 64, signed }, None) => {
                    let word = Scalar::Int { bits: 32, signed };
                    parts.push((offset, MemSize::B32, word));
                    parts.push((high?, MemSize::B32, word));
                }
                // So is a double (float64.rs).
                (Scalar::Float { bits: 64 }, None) => {
                    let word = Scalar::U32;
                    parts.push((offset, MemSize::B32, word));
                    parts.push((high?, MemSize::B32, word));
                }
                _ => return Err(self.mem_error(format!("{s} values in memory"), inst)),
            }
        }
        Ok(parts)
    }

    /// Consecutive virtual registers standing for an aligned register group
    /// (see `assign_regs.rs`); returns the first.
    pub(super) fn new_group(&mut self, n: u32) -> VReg {
        let first = self.f.new_vreg(RegFile::Gpr);
        for _ in 1..n {
            self.f.new_vreg(RegFile::Gpr);
        }
        first
    }

    /// The address operand and the offset base of a shared, local or
    /// constant access: the dynamic register or RZ.
    fn offset_reg(dynamic: Option<Src>) -> Src {
        dynamic.unwrap_or(Src::ZERO)
    }

    pub(super) fn load_memory(
        &mut self,
        place: &Place,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        self.load_range(place, None, inst)
    }

    /// Loads the scalars `range` (in component order) of the value at
    /// `place`, or all of them.
    pub(super) fn load_range(
        &mut self,
        place: &Place,
        range: Option<Range<usize>>,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let (target, ty, skip) = self.target(place, inst)?;
        let a = self.address(place, (ty, skip), inst)?;
        self.load_at(target, &a, range, inst)
    }

    /// `load_range` at an address already resolved (`target`, `address`).
    pub(super) fn load_at(
        &mut self,
        target: Target,
        a: &Addressed,
        range: Option<Range<usize>>,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let parts = self.leaf_scalars(a, inst)?;
        let parts = match range {
            Some(r) => parts.get(r).unwrap_or_default().to_vec(),
            None => parts,
        };
        let (space, base) = match target {
            Target::Const { bank, base, limit } => {
                let addr = Self::offset_reg(a.dynamic);
                return parts
                    .into_iter()
                    .map(|(offset, size, scalar)| {
                        self.load_const(bank, base, limit, addr, offset, size, scalar, inst)
                    })
                    .collect();
            }
            Target::Global { .. } => (MemSpace::Global, 0),
            Target::Shared { base } => (MemSpace::Shared, base),
            Target::Local { base } => (MemSpace::Local, base),
        };
        let addr = match target {
            Target::Global { buffer } => self.buffer_address(buffer, a.dynamic, inst)?,
            _ => Self::offset_reg(a.dynamic),
        };
        let mut comps = Vec::with_capacity(parts.len());
        for (start, n) in vector_chunks(&parts, base, a.dyn_align) {
            let (offset, size, scalar) = parts[start];
            let size = match n {
                4 => MemSize::B128,
                2 => MemSize::B64,
                _ => size,
            };
            let r = self.new_group(n);
            let offset = self.imm_offset(base.wrapping_add(offset), space, inst)?;
            self.emit(Instr::new(Op::Ld(OpLd {
                dst: r.dst(),
                addr,
                offset,
                space,
                size,
            })));
            if scalar == Scalar::Bool {
                comps.push(self.int_cmp(IntCmp::Ne, false, r.src(), Src::ZERO));
            } else {
                comps.extend((0..n).map(|k| Comp::Reg(r.offset(k))));
            }
        }
        Ok(comps)
    }

    #[allow(clippy::too_many_arguments)]
    fn load_const(
        &mut self,
        bank: u8,
        base: u32,
        limit: u32,
        addr: Src,
        offset: u32,
        size: MemSize,
        scalar: Scalar,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        let end = offset.checked_add(size.bytes());
        let at = base.checked_add(offset).and_then(|o| u16::try_from(o).ok());
        let (Some(at), Some(end)) = (at, end) else {
            return Err(self.mem_error("a constant-bank offset over 64 KiB".into(), inst));
        };
        if end > limit {
            return Err(self.mem_error(
                format!("an access at byte {offset} of a {limit}-byte constant block"),
                inst,
            ));
        }
        let r = self.f.new_vreg(RegFile::Gpr);
        self.emit(Instr::new(Op::Ldc(OpLdc {
            dst: r.dst(),
            bank,
            addr,
            offset: at,
            size,
        })));
        Ok(if scalar == Scalar::Bool {
            self.int_cmp(IntCmp::Ne, false, r.src(), Src::ZERO)
        } else {
            Comp::Reg(r)
        })
    }

    /// The immediate offset field: 32 bits signed for global accesses, 24
    /// for shared and local ones.
    fn imm_offset(
        &self,
        offset: u32,
        space: MemSpace,
        inst: &InstData,
    ) -> Result<i32, BackendError> {
        let limit = match space {
            MemSpace::Global => i32::MAX as u32,
            MemSpace::Shared | MemSpace::Local => (1 << 23) - 1,
        };
        if offset > limit {
            return Err(self.mem_error(
                format!(
                    "a constant offset of {offset:#x} bytes into {} memory",
                    space.name()
                ),
                inst,
            ));
        }
        Ok(offset as i32)
    }

    /// The word an atomic works on (atomic.rs): its memory (global or
    /// shared), the address operand as loads and stores compute it, the
    /// immediate offset (24 bits signed in ATOMG/ATOMS/RED).
    pub(super) fn atomic_word(
        &mut self,
        place: &Place,
        inst: &InstData,
    ) -> Result<AtomicWord, BackendError> {
        let (target, ty, skip) = self.target(place, inst)?;
        let (space, base) = match target {
            Target::Global { .. } => (MemSpace::Global, 0),
            Target::Shared { base } => (MemSpace::Shared, base),
            Target::Const { .. } | Target::Local { .. } => {
                let class = self.sh.globals[place.var].class;
                return Err(self.mem_error(format!("atomics on {class:?} memory"), inst));
            }
        };
        let a = self.address(place, (ty, skip), inst)?;
        let parts = self.leaf_scalars(&a, inst)?;
        let wide = matches!(
            self.sh.types[a.leaf],
            ir::Type::Scalar(Scalar::Int { bits: 64, .. })
        );
        let offset = match parts.as_slice() {
            [(offset, MemSize::B32, scalar)] if *scalar != Scalar::Bool => *offset,
            // A 64-bit integer's two words (leaf_scalars).
            [(offset, MemSize::B32, _), _] if wide => *offset,
            _ => {
                return Err(self.mem_error(
                    format!(
                        "atomics on {} (32- and 64-bit integer scalars only)",
                        self.sh.type_name(a.leaf)
                    ),
                    inst,
                ));
            }
        };
        // ATOMG has the 24-bit offset field of the shared-memory forms.
        let offset = base.wrapping_add(offset);
        if offset > (1 << 23) - 1 {
            return Err(self.mem_error(
                format!("an atomic at a constant offset of {offset:#x} bytes (24-bit field)"),
                inst,
            ));
        }
        let addr = match target {
            Target::Global { buffer } => self.buffer_address(buffer, a.dynamic, inst)?,
            _ => Self::offset_reg(a.dynamic),
        };
        Ok(AtomicWord {
            space,
            addr,
            offset: offset as i32,
            wide,
        })
    }

    /// OpArrayLength: `(size - offset) / stride` of the runtime array that
    /// is member `member` of the buffer block `ptr` points to, with the
    /// buffer's byte size read from the root table (docs/ABI.md). Vulkan
    /// requires a bound range to cover the members before the array, so
    /// the subtraction does not wrap for a valid binding.
    pub(super) fn array_length(
        &mut self,
        ptr: Value,
        member: u32,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let place = super::places::resolve(self.sh, ptr, inst.spirv_id)?;
        let (Target::Global { buffer }, ty, skip) = self.target(&place, inst)? else {
            let class = self.sh.globals[place.var].class;
            return Err(self.mem_error(format!("the length of an array in {class:?} memory"), inst));
        };
        let a = self.address(&place, (ty, skip), inst)?;
        let sh = self.sh;
        let array = child(sh, a.leaf, member)
            .filter(|c| matches!(sh.types[c.ty], ir::Type::Array { len: None, .. }))
            .ok_or_else(|| {
                self.mem_error(
                    format!("the length of member {member} of {}", sh.type_name(a.leaf)),
                    inst,
                )
            })?;
        let stride = child(sh, array.ty, 0).map_or(0, |c| c.stride);
        if stride == 0 {
            return Err(self.mem_error(
                format!("the length of {} (no stride)", sh.type_name(array.ty)),
                inst,
            ));
        }
        let offset = a.konst.wrapping_add(array.offset);
        let size = self.buffer_size(buffer, inst)?;
        let bytes = if offset == 0 {
            size
        } else {
            let size = self.src_of(size);
            self.alu(Op::IAdd3(OpIAdd3 {
                dst: Dst::None,
                srcs: [size, Src::imm(offset.wrapping_neg()), Src::ZERO],
            }))
        };
        Ok(vec![self.udiv_rem(bytes, Comp::Const(stride)).0])
    }

    pub(super) fn store_memory(
        &mut self,
        place: &Place,
        comps: &[Comp],
        inst: &InstData,
    ) -> Result<(), BackendError> {
        self.store_range(place, comps, None, inst)
    }

    /// Stores `comps` as the scalars `range` of the value at `place`, or
    /// as all of them.
    pub(super) fn store_range(
        &mut self,
        place: &Place,
        comps: &[Comp],
        range: Option<Range<usize>>,
        inst: &InstData,
    ) -> Result<(), BackendError> {
        let (target, ty, skip) = self.target(place, inst)?;
        let a = self.address(place, (ty, skip), inst)?;
        self.store_at(target, &a, comps, range, inst)
    }

    /// `store_range` at an address already resolved (`target`, `address`).
    pub(super) fn store_at(
        &mut self,
        target: Target,
        a: &Addressed,
        comps: &[Comp],
        range: Option<Range<usize>>,
        inst: &InstData,
    ) -> Result<(), BackendError> {
        let (space, base) = match target {
            Target::Global { .. } => (MemSpace::Global, 0),
            Target::Shared { base } => (MemSpace::Shared, base),
            Target::Local { base } => (MemSpace::Local, base),
            Target::Const { .. } => {
                return Err(BackendError::Invalid {
                    what: "a store to a uniform buffer or push constant".into(),
                    spirv_id: inst.spirv_id,
                });
            }
        };
        let parts = self.leaf_scalars(a, inst)?;
        let parts = match range {
            Some(r) => parts.get(r).unwrap_or_default().to_vec(),
            None => parts,
        };
        if parts.len() != comps.len() {
            return Err(BackendError::Invalid {
                what: format!(
                    "a store of {} components to {} ({} scalars)",
                    comps.len(),
                    self.sh.type_name(a.leaf),
                    parts.len()
                ),
                spirv_id: inst.spirv_id,
            });
        }
        let addr = match target {
            Target::Global { buffer } => self.buffer_address(buffer, a.dynamic, inst)?,
            _ => Self::offset_reg(a.dynamic),
        };
        for (start, n) in vector_chunks(&parts, base, a.dyn_align) {
            let (offset, size, _) = parts[start];
            let (data, size) = if n == 1 {
                let c = comps[start];
                let data = match c {
                    Comp::Pred(_) | Comp::Bool(_) => {
                        let word = self.select(c, Src::imm(1), Src::ZERO);
                        self.reg_or_zero(word)
                    }
                    other => self.reg_or_zero(other),
                };
                (data, size)
            } else {
                // The components form the group as they are (constants
                // moved into registers); register allocation brings them
                // together.
                let members = comps[start..start + n as usize]
                    .iter()
                    .map(|&c| self.materialize(c))
                    .collect();
                let group = self.f.new_vreg(RegFile::Gpr);
                self.f.groups.insert(group, members);
                let size = if n == 4 { MemSize::B128 } else { MemSize::B64 };
                (group.src(), size)
            };
            let offset = self.imm_offset(base.wrapping_add(offset), space, inst)?;
            self.emit(Instr::new(Op::St(OpSt {
                addr,
                offset,
                data,
                space,
                size,
            })));
        }
        Ok(())
    }
}
