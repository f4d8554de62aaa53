//! Buffers found through descriptors: the base address of a storage or
//! uniform buffer that the root table's set-0 entries do not hold (another
//! set, a binding from 16 on, an element of a descriptor array, a uniform
//! buffer too large for a constant bank), loaded from its descriptor in
//! the set's memory (`descriptor_set.rs`, docs/ABI.md):
//!
//! ```text
//! MOV R2, c[0x0][set address]; MOV R3, c[0x0][set address + 4]
//! LDG.E R4, [R2.64+4·binding]          the binding's descriptor offset
//! (IMAD R4, index, 0x10, R4)           a dynamic array index
//! 64-bit add R2:R3 + R4 -> R6:R7       the descriptor's address
//! LDG.E.64 R8, [R6.64+16·index]        the buffer's base address
//! ```
//!
//! The base is loaded once per machine block for each descriptor (and
//! dynamic index register), then used like a root-table base.

use super::mem_layout::size_align;
use super::places::Step;
use super::{Comp, Isel};
use crate::abi;
use crate::binary::{Resource, ResourceAccess, ResourceKind};
use crate::descriptor_set::{self, DESCRIPTOR};
use crate::error::BackendError;
use crate::isa::{
    Dst, Instr, IntCmp, MemSize, MemSpace, Op, OpIAdd3, OpIMad, OpLd, OpMov, Reg, Src, SrcRef,
};
use spvsass_frontend::ir::{GlobalVarData, InstData, Shader, StorageClass, Type, TypeId, Value};

/// A buffer variable's binding and how the code reaches it: the one rule
/// instruction selection (`memory.rs`) and the binary's resource list
/// share.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BufferBinding {
    pub resource: Resource,
    /// The block type (the element type of a descriptor array).
    pub block: TypeId,
}

/// The binding of a storage or uniform buffer variable; `None` for other
/// variables and for a buffer without DescriptorSet and Binding.
/// `bank_uniforms`: set 0's small uniform buffers below binding 16 are
/// read from constant banks 1..=16 (`BackendOptions::bank_uniforms`);
/// otherwise through the root table like storage buffers.
pub(crate) fn buffer_binding(
    sh: &Shader,
    data: &GlobalVarData,
    bank_uniforms: bool,
) -> Option<BufferBinding> {
    let kind = match data.class {
        StorageClass::StorageBuffer => ResourceKind::StorageBuffer,
        StorageClass::Uniform => ResourceKind::UniformBuffer,
        _ => return None,
    };
    let (set, binding) = (data.descriptor_set?, data.binding?);
    let (block, array) = match sh.types[data.ty] {
        Type::Array { elem, len, .. } => (elem, Some(len.unwrap_or(0))),
        _ => (data.ty, None),
    };
    let fast = set == 0 && binding < abi::MAX_BINDINGS && array.is_none();
    // A uniform buffer declared larger than a bank is read like storage.
    let fits = size_align(sh, block).is_some_and(|(size, _)| size <= 1 << 16);
    let access = match (fast, kind) {
        (true, ResourceKind::UniformBuffer) if fits && bank_uniforms => {
            ResourceAccess::ConstantBank(abi::uniform_bank(binding).expect("binding below 16"))
        }
        (true, _) => ResourceAccess::RootTable,
        (false, _) => ResourceAccess::Descriptor,
    };
    Some(BufferBinding {
        resource: Resource {
            set,
            binding,
            kind,
            array,
            access,
        },
        block,
    })
}

/// The buffers and image/sampler descriptors the shader's code uses, by
/// set and binding.
pub(crate) fn interface(sh: &Shader, bank_uniforms: bool) -> Vec<Resource> {
    let mut list: Vec<Resource> = sh
        .globals
        .values()
        .filter_map(|data| {
            buffer_binding(sh, data, bank_uniforms)
                .map(|b| b.resource)
                .or_else(|| super::images::image_binding(sh, data))
        })
        .collect();
    list.sort_by_key(|r| (r.set, r.binding));
    list.dedup();
    list
}

/// How the base address and size of a buffer are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BufferRef {
    /// Set 0, a binding below 16, no descriptor array: the root table's
    /// entry (`abi::buffer_address`), read as constant-bank operands.
    Root { binding: u32 },
    /// Anything else: the descriptor of array element `index` of the
    /// binding, in the set's memory.
    Set {
        set: u32,
        binding: u32,
        index: DescIndex,
    },
}

/// Which element of a binding's descriptors (0 for a binding that is not
/// an array).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DescIndex {
    Const(u32),
    Dyn(Value),
}

impl DescIndex {
    pub(super) fn of(step: Step) -> DescIndex {
        match step {
            Step::Const(i) => DescIndex::Const(i),
            Step::Dyn(v) => DescIndex::Dyn(v),
        }
    }
}

/// A 64-bit base: the root table's two words at an offset, or a register
/// pair.
#[derive(Clone, Copy)]
enum Base {
    Root(u16),
    Pair(u32),
}

/// The key of a loaded base in `Isel::descriptor_bases`: the machine
/// block, set, binding, and the element (a constant, or the register of a
/// dynamic index, tagged by the flag).
pub(super) type BaseKey = (usize, u32, u32, bool, u32);

fn root_word(offset: u16) -> Src {
    Src {
        src: SrcRef::CBuf {
            bank: abi::ROOT_BANK,
            offset,
        },
        neg: false,
        abs: false,
    }
}

impl Isel<'_> {
    /// The 64-bit address `base + dynamic` in a register pair. Without an
    /// add-with-carry in the ISA yet, the carry is a compare: the low sum
    /// is below the addend exactly when it wrapped. A root-table base is
    /// read as constant-bank operands (as ptxas reads kernel parameters),
    /// so no register holds it between accesses.
    fn base_plus(&mut self, base: Base, dynamic: Option<Src>) -> Src {
        let (lo, hi) = match base {
            Base::Root(at) => (root_word(at), root_word(at + 4)),
            Base::Pair(p) => (Src::reg(Reg::Virt(p)), Src::reg(Reg::Virt(p + 1))),
        };
        let Some(off) = dynamic else {
            if let Base::Pair(p) = base {
                return Src::reg(Reg::Virt(p));
            }
            let pair = self.new_group(2);
            for (k, src) in [lo, hi].into_iter().enumerate() {
                self.alu_to(
                    Op::Mov(OpMov {
                        dst: Dst::None,
                        src,
                    }),
                    pair + k as u32,
                );
            }
            return Src::reg(Reg::Virt(pair));
        };
        let pair = self.new_group(2);
        self.alu_to(
            Op::IAdd3(OpIAdd3 {
                dst: Dst::None,
                srcs: [off, lo, Src::ZERO],
            }),
            pair,
        );
        let no_wrap = self.int_cmp(IntCmp::Ge, false, Src::reg(Reg::Virt(pair)), off);
        // SEL takes its immediate second: carry = no wrap ? 0 : 1.
        let carry = self.select(no_wrap, Src::ZERO, Src::imm(1));
        let carry = self.reg_or_zero(carry);
        self.alu_to(
            Op::IAdd3(OpIAdd3 {
                dst: Dst::None,
                srcs: [carry, hi, Src::ZERO],
            }),
            pair + 1,
        );
        Src::reg(Reg::Virt(pair))
    }

    /// `LDG.E` of `size` at `addr + offset` into fresh registers.
    pub(super) fn load_global(&mut self, addr: Src, offset: u32, size: MemSize) -> u32 {
        let r = self.new_group(size.bytes().div_ceil(4));
        self.emit(Instr::new(Op::Ld(OpLd {
            dst: Dst::Reg(Reg::Virt(r)),
            addr,
            offset: offset as i32,
            space: MemSpace::Global,
            size,
        })));
        r
    }

    /// The address of a descriptor (a register pair) and the constant
    /// byte offset still to add: the set's base from the root table plus
    /// the binding's table entry, plus 16 × a dynamic index; a constant
    /// index is left in the offset.
    pub(super) fn descriptor_address(
        &mut self,
        set: u32,
        binding: u32,
        index: DescIndex,
        inst: &InstData,
    ) -> Result<(Src, u32), BackendError> {
        let at = abi::set_address(set).ok_or_else(|| {
            self.mem_error(
                format!(
                    "a buffer at descriptor set {set} (sets 0..{})",
                    abi::MAX_SETS
                ),
                inst,
            )
        })?;
        if binding >= descriptor_set::MAX_SET_BINDINGS {
            return Err(self.mem_error(
                format!(
                    "a buffer at binding {binding} (bindings 0..{})",
                    descriptor_set::MAX_SET_BINDINGS
                ),
                inst,
            ));
        }
        let table = descriptor_set::table_entry(binding);
        let set_base = self.base_plus(Base::Root(at), None);
        let entry = self.load_global(set_base, table, MemSize::B32);
        let (offset, konst) = match self.index_comp(index)? {
            Comp::Const(i) => (Src::reg(Reg::Virt(entry)), i.wrapping_mul(DESCRIPTOR)),
            c => {
                let i = self.src_of(c);
                let sum = self.alu(Op::IMad(OpIMad {
                    dst: Dst::None,
                    srcs: [i, Src::imm(DESCRIPTOR), Src::reg(Reg::Virt(entry))],
                    signed: false,
                }));
                (self.src_of(sum), 0)
            }
        };
        if konst > i32::MAX as u32 - DESCRIPTOR {
            return Err(self.mem_error(
                format!("descriptor array element {}", konst / DESCRIPTOR),
                inst,
            ));
        }
        Ok((self.base_plus(Base::Root(at), Some(offset)), konst))
    }

    fn index_comp(&self, index: DescIndex) -> Result<Comp, BackendError> {
        Ok(match index {
            DescIndex::Const(i) => Comp::Const(i),
            DescIndex::Dyn(v) => self.value_comp(v)?,
        })
    }

    /// The 64-bit address `buffer base + dynamic` in a register pair.
    pub(super) fn buffer_address(
        &mut self,
        buffer: BufferRef,
        dynamic: Option<Src>,
        inst: &InstData,
    ) -> Result<Src, BackendError> {
        let (set, binding, index) = match buffer {
            BufferRef::Root { binding } => {
                let at = abi::buffer_address(binding).expect("binding was checked");
                return Ok(self.base_plus(Base::Root(at), dynamic));
            }
            BufferRef::Set {
                set,
                binding,
                index,
            } => (set, binding, index),
        };
        let key: BaseKey = match self.index_comp(index)? {
            Comp::Const(i) => (self.cur, set, binding, false, i),
            Comp::Reg(r) => (self.cur, set, binding, true, r),
            other => {
                return Err(self.mem_error(format!("a descriptor index of {other:?}"), inst));
            }
        };
        let base = match self.descriptor_bases.get(&key) {
            Some(&pair) => pair,
            None => {
                let (desc, konst) = self.descriptor_address(set, binding, index, inst)?;
                let pair =
                    self.load_global(desc, konst + descriptor_set::BUFFER_ADDRESS, MemSize::B64);
                self.descriptor_bases.insert(key, pair);
                pair
            }
        };
        Ok(self.base_plus(Base::Pair(base), dynamic))
    }

    /// The size word of a buffer (OpArrayLength).
    pub(super) fn buffer_size(
        &mut self,
        buffer: BufferRef,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        Ok(match buffer {
            BufferRef::Root { binding } => {
                self.root_word(abi::buffer_size(binding).expect("binding was checked"))
            }
            BufferRef::Set {
                set,
                binding,
                index,
            } => {
                let (desc, konst) = self.descriptor_address(set, binding, index, inst)?;
                let r = self.load_global(desc, konst + descriptor_set::BUFFER_SIZE, MemSize::B32);
                Comp::Reg(r)
            }
        })
    }
}
