//! Physical storage buffer pointers (buffer device addresses): a pointer
//! value is its 64-bit address, two components like a u64 (wide_int.rs).
//! OpConvertUToPtr / OpConvertPtrToU keep the words; access chains add
//! their byte offset with a 64-bit add; loads and stores address global
//! memory through the pair, one 32-bit word per access (the alignment the
//! `Aligned` operand promises is not tracked yet).

use super::mem_layout::{child, size_align};
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{Dst, Instr, MemSpace, Op, OpIMad, OpLd, OpSt, RegFile, Src};
use spvsass_frontend::ir::{InstData, Scalar, StorageClass, Type, TypeId, Value};

impl Isel<'_> {
    /// The pointee of a PhysicalStorageBuffer pointer value.
    pub(super) fn physical_pointee(&self, v: Value) -> Option<TypeId> {
        match self.sh.value_type(v) {
            Type::Pointer {
                class: StorageClass::PhysicalStorageBuffer,
                pointee,
                ..
            } => Some(*pointee),
            _ => None,
        }
    }

    /// `base` stepped by `element` whole pointees (OpPtrAccessChain; the
    /// stride is the pointer type's ArrayStride, or without one the
    /// pointee's std430 size rounded to its alignment), then into the
    /// pointee by `indices`.
    pub(super) fn physical_chain(
        &mut self,
        base: Value,
        element: Option<Value>,
        indices: &[Value],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let sh = self.sh;
        let addr = self.value(base)?.clone();
        let mut ty = self
            .physical_pointee(base)
            .ok_or_else(|| self.unsupported("an access chain on a non-physical pointer", inst))?;
        let err = |this: &Self, ty: TypeId| {
            this.unsupported(
                format!("an access chain step into {}", sh.type_name(ty)),
                inst,
            )
        };
        let mut konst = 0u32;
        let mut dynamic: Option<Src> = None;
        let mut steps: Vec<(Value, u32)> = Vec::new();
        if let Some(e) = element {
            let stride = match sh.value_type(base) {
                Type::Pointer {
                    array_stride: Some(s),
                    ..
                } => *s,
                _ => {
                    let (size, align) = size_align(sh, ty).ok_or_else(|| err(self, ty))?;
                    size.div_ceil(align) * align
                }
            };
            steps.push((e, stride));
        }
        for &i in indices {
            let c = match self.value_comp(i)? {
                Comp::Const(k) => child(sh, ty, k),
                _ => child(sh, ty, 0),
            }
            .ok_or_else(|| err(self, ty))?;
            match self.value_comp(i)? {
                Comp::Const(_) => konst = konst.wrapping_add(c.offset),
                _ if c.stride != 0 => steps.push((i, c.stride)),
                _ => return Err(err(self, ty)),
            }
            ty = c.ty;
        }
        for (v, stride) in steps {
            let idx = self.value_comp(v)?;
            let acc = dynamic.unwrap_or(Src::ZERO);
            let idx = self.src_of(idx);
            let sum = self.alu(Op::IMad(OpIMad {
                dst: Dst::None,
                srcs: [idx, Src::imm(stride), acc],
                signed: false,
            }));
            dynamic = Some(self.src_of(sum));
        }
        if konst == 0 && dynamic.is_none() {
            return Ok(addr);
        }
        // The byte offset as a signed 64-bit addend (an element index may
        // step backwards).
        let mut offset = vec![Comp::Const(konst), Comp::Const(0)];
        if let Some(d) = dynamic {
            let d = if konst == 0 {
                self.alu(Op::Mov(crate::isa::OpMov {
                    dst: Dst::None,
                    src: d,
                }))
            } else {
                self.alu(Op::IAdd3(crate::isa::OpIAdd3 {
                    dst: Dst::None,
                    srcs: [d, Src::imm(konst), Src::ZERO],
                }))
            };
            let sign = self.shr_arithmetic(d, Comp::Const(31));
            offset = vec![d, sign];
        }
        self.wide_binary(spvsass_frontend::ir::BinaryOp::IAdd, &addr, &offset, inst)
    }

    /// The address pair as one register-group operand.
    fn address_group(&mut self, ptr: Value) -> Result<Src, BackendError> {
        let comps = self.value(ptr)?.clone();
        let members = comps.iter().map(|&c| self.materialize(c)).collect();
        let group = self.f.new_vreg(RegFile::Gpr);
        self.f.groups.insert(group, members);
        Ok(group.src())
    }

    /// The scalars of a pointee as (byte offset, size) word accesses.
    fn physical_parts(
        &self,
        ptr: Value,
        inst: &InstData,
    ) -> Result<Vec<(u32, crate::isa::MemSize, Scalar)>, BackendError> {
        let leaf = self
            .physical_pointee(ptr)
            .ok_or_else(|| self.unsupported("an access through a non-physical pointer", inst))?;
        self.leaf_scalars(
            &super::memory::Addressed {
                leaf,
                konst: 0,
                dynamic: None,
                dyn_align: 4,
                row_stride: None,
            },
            inst,
        )
    }

    /// The word an atomic through buffer device address `ptr` works on:
    /// a 32- or 64-bit integer (or 32-bit float) scalar at the address.
    pub(super) fn physical_atomic_word(
        &mut self,
        ptr: Value,
        inst: &InstData,
    ) -> Result<super::memory::AtomicWord, BackendError> {
        let parts = self.physical_parts(ptr, inst)?;
        let wide = match parts.as_slice() {
            [(0, crate::isa::MemSize::B32, s)] if *s != Scalar::Bool => false,
            [
                (0, crate::isa::MemSize::B32, _),
                (4, crate::isa::MemSize::B32, _),
            ] if matches!(
                self.physical_pointee(ptr).map(|t| &self.sh.types[t]),
                Some(Type::Scalar(Scalar::Int { bits: 64, .. }))
            ) =>
            {
                true
            }
            _ => {
                return Err(self.unsupported(
                    "atomics through a buffer device address on this type \
                     (32- and 64-bit integer scalars only)",
                    inst,
                ));
            }
        };
        Ok(super::memory::AtomicWord {
            space: MemSpace::Global,
            addr: self.address_group(ptr)?,
            offset: 0,
            wide,
        })
    }

    pub(super) fn load_physical(
        &mut self,
        ptr: Value,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let parts = self.physical_parts(ptr, inst)?;
        let addr = self.address_group(ptr)?;
        let mut comps = Vec::with_capacity(parts.len());
        for (offset, size, scalar) in parts {
            let r = self.f.new_vreg(RegFile::Gpr);
            self.emit(Instr::new(Op::Ld(OpLd {
                dst: r.dst(),
                addr,
                offset: offset as i32,
                space: MemSpace::Global,
                size,
            })));
            comps.push(if scalar == Scalar::Bool {
                self.int_cmp(crate::isa::IntCmp::Ne, false, r.src(), Src::ZERO)
            } else {
                Comp::Reg(r)
            });
        }
        Ok(comps)
    }

    pub(super) fn store_physical(
        &mut self,
        ptr: Value,
        value: Value,
        inst: &InstData,
    ) -> Result<(), BackendError> {
        let parts = self.physical_parts(ptr, inst)?;
        let comps = self.value(value)?.clone();
        if parts.len() != comps.len() {
            return Err(self.unsupported(
                format!(
                    "a store of {} components to {} scalars",
                    comps.len(),
                    parts.len()
                ),
                inst,
            ));
        }
        let addr = self.address_group(ptr)?;
        for ((offset, size, _), c) in parts.into_iter().zip(comps) {
            let data = match c {
                Comp::Pred(_) | Comp::Bool(_) => {
                    let w = self.select(c, Src::imm(1), Src::ZERO);
                    self.reg_or_zero(w)
                }
                other => self.reg_or_zero(other),
            };
            self.emit(Instr::new(Op::St(OpSt {
                addr,
                offset: offset as i32,
                data,
                space: MemSpace::Global,
                size,
            })));
        }
        Ok(())
    }
}
