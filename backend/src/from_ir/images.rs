//! Images, samplers and texel buffers: handles loaded from descriptors and
//! the image ops lowered to the bindless texture and surface ops
//! (docs/ISA.md, "Texture and surface ops"; docs/ABI.md, "Descriptor
//! sets").
//!
//! - A load of an image, sampler or texel-buffer variable (or of an
//!   element of a descriptor array, constant or dynamic, non-uniform
//!   included) is `LDG.E` of the descriptor's first word, the handle.
//! - OpSampledImage ORs the image's and the sampler's handles (an image
//!   descriptor's sampler bits and a sampler descriptor's texture bits are
//!   zero).
//! - Fetches are TLD (texel buffers: 1D), explicit-LOD samples TEX (TXD
//!   with gradients), gathers TLD4, queries TXQ, storage reads and writes
//!   formatted SULD/SUST (the header's format converts), atomics on a
//!   texel pointer SUATOM, with the operand vectors packed as
//!   `OpTex::src_counts` says.
//!
//! - Multisampled storage images address their sample grid
//!   (`image_ms.rs`); gradients of 3D and cube images become an explicit
//!   LOD computed in the shader (`image_grad.rs`: six gradient registers
//!   exceed TXD's source vector).
//! - A cube lookup's direction is scaled by the reciprocal of its largest
//!   magnitude first (FMNMX, FMNMX, MUFU.RCP, FMUL), as NVIDIA's compiler
//!   does: the texture unit takes the two minor components as the face
//!   coordinates without dividing (docs/TEXTURES.md, "Cube directions").
//!
//! Refused by name: a non-constant Offset, MinLod, and float min/max or
//! atomic load/store on texels.

use super::math::NOT_PT;
use super::places::{comp_count, resolve};
use super::{Comp, Isel};
use crate::binary::{Resource, ResourceAccess, ResourceKind};
use crate::error::BackendError;
use crate::isa::{
    AtomOp, AtomType, Dst, Instr, LodMode, MemSize, MufuOp, Op, OpFMnMx, OpLop3, OpMov, OpSuAtom,
    OpSuLd, OpSuSt, OpTex, OpTxq, Src, SuAccess, SuDim, SuOrder, TexDim, TexKind, TxqQuery,
    group_width,
};
use crate::target::Arch;
use spvsass_frontend::ir::{
    AtomicOp, BinaryOp, ConvOp, GlobalVarData, ImageDim, ImageInst, ImageOp, ImageType, InstData,
    Scalar, Shader, StorageClass, Type, Value,
};

use super::descriptors::DescIndex;

/// The descriptor an image, sampler or texel-buffer variable occupies, for
/// the binary's resource list.
pub(crate) fn image_binding(sh: &Shader, data: &GlobalVarData) -> Option<Resource> {
    if data.class != StorageClass::UniformConstant {
        return None;
    }
    let array = match sh.types[data.ty] {
        Type::Array { len, .. } => Some(len.unwrap_or(0)),
        _ => None,
    };
    Some(Resource {
        set: data.descriptor_set?,
        binding: data.binding?,
        kind: ResourceKind::Image,
        array,
        access: ResourceAccess::Descriptor,
    })
}

fn tex_dim(t: &ImageType) -> TexDim {
    match (t.dim, t.arrayed) {
        (ImageDim::D1 | ImageDim::Buffer, false) => TexDim::D1,
        (ImageDim::D1, true) => TexDim::Array1D,
        (ImageDim::D2, false) => TexDim::D2,
        (ImageDim::D2, true) => TexDim::Array2D,
        (ImageDim::D3, _) => TexDim::D3,
        (ImageDim::Cube, false) => TexDim::Cube,
        (ImageDim::Cube, true) | (ImageDim::Buffer, true) => TexDim::ArrayCube,
    }
}

fn su_dim(t: &ImageType) -> Option<SuDim> {
    Some(match (t.dim, t.arrayed) {
        (ImageDim::Buffer, _) => SuDim::Buffer,
        (ImageDim::D1, false) => SuDim::D1,
        (ImageDim::D1, true) => SuDim::Array1D,
        (ImageDim::D2, false) => SuDim::D2,
        (ImageDim::D2, true) | (ImageDim::Cube, _) => SuDim::Array2D,
        (ImageDim::D3, _) => SuDim::D3,
    })
}

/// The memory order of surface accesses: the encodings of `.STRONG.SM`
/// (Ampere on) and `.STRONG.CTA` (Turing), nvcc's choice on each.
fn su_order(target: Arch) -> SuOrder {
    match target {
        Arch::Sm75 => SuOrder::StrongCta,
        _ => SuOrder::StrongSm,
    }
}

impl Isel<'_> {
    /// The handle in the descriptor a UniformConstant load reads.
    pub(super) fn load_handle(
        &mut self,
        ptr: Value,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let place = resolve(self.sh, ptr, inst.spirv_id)?;
        let var = &self.sh.globals[place.var];
        let (Some(set), Some(binding)) = (var.descriptor_set, var.binding) else {
            return Err(self.unsupported(
                "an image or sampler without DescriptorSet and Binding",
                inst,
            ));
        };
        let index = match place.path.as_slice() {
            [] => DescIndex::Const(0),
            [step] => DescIndex::of(*step),
            _ => return Err(self.unsupported("a nested array of images or samplers", inst)),
        };
        let (desc, konst) = self.descriptor_address(set, binding, index, inst)?;
        // The handle is the descriptor's first word.
        let r = self.load_global(desc, konst, MemSize::B32);
        Ok(vec![Comp::Reg(r)])
    }

    /// OpSampledImage: the image's texture bits with the sampler's bits.
    pub(super) fn combine_handles(
        &mut self,
        image: Value,
        sampler: Value,
    ) -> Result<Vec<Comp>, BackendError> {
        let a = self.value_comp(image)?;
        let b = self.value_comp(sampler)?;
        let (a, b) = (self.reg_or_zero(a), self.reg_or_zero(b));
        Ok(vec![self.alu(Op::Lop3(OpLop3 {
            dst: Dst::None,
            srcs: [a, b, Src::ZERO],
            lut: 0xfc,
        }))])
    }

    /// A register group of `n` registers (1, 2 or 4) holding `comps`,
    /// padded with zeros.
    pub(super) fn group_of(&mut self, comps: &[Comp]) -> Src {
        let n = group_width(comps.len() as u8).max(1);
        let g = self.new_group(u32::from(n));
        for k in 0..usize::from(n) {
            let src = match comps.get(k) {
                Some(c) => self.src_of(*c),
                None => Src::ZERO,
            };
            self.alu_to(
                Op::Mov(OpMov {
                    dst: Dst::None,
                    src,
                }),
                g.offset(k as u32),
            );
        }
        g.src()
    }

    /// Destination groups for `n` result components: their registers, in
    /// component order.
    pub(super) fn result_groups(&mut self, n: u8) -> ([Dst; 2], Vec<Comp>) {
        let (n0, n1) = (n.min(2), n.saturating_sub(2));
        let mut dst = [Dst::None; 2];
        let mut comps = Vec::new();
        for (i, count) in [n0, n1].into_iter().enumerate() {
            if count == 0 {
                continue;
            }
            let g = self.new_group(u32::from(group_width(count)));
            dst[i] = g.dst();
            comps.extend((0..u32::from(count)).map(|k| Comp::Reg(g.offset(k))));
        }
        (dst, comps)
    }

    pub(super) fn comps_of(&self, v: Value) -> Result<Vec<Comp>, BackendError> {
        Ok(self.value(v)?.clone())
    }

    /// A constant offset vector packed `bits` bits per component.
    fn packed_offset(&self, v: Value, bits: u32, inst: &InstData) -> Result<Comp, BackendError> {
        let mut packed = 0u32;
        for (i, c) in self.comps_of(v)?.into_iter().enumerate() {
            let Comp::Const(k) = c else {
                return Err(self.unsupported("a non-constant image Offset", inst));
            };
            packed |= (k & ((1 << bits) - 1)) << (bits * i as u32);
        }
        Ok(Comp::Const(packed))
    }

    /// The array layer of a sampled lookup as the hardware takes it: the
    /// float layer rounded (+0.5, truncated, negative to 0).
    fn float_layer(&mut self, layer: Comp, inst: &InstData) -> Result<Comp, BackendError> {
        let f32_ = Scalar::Float { bits: 32 };
        let half = self.binary(BinaryOp::FAdd, layer, Comp::Const(0.5f32.to_bits()), inst)?;
        let pos = self.binary(BinaryOp::FMax, half, Comp::Const(0), inst)?;
        self.convert(ConvOp::FToU, pos, f32_, Scalar::U32, inst)
    }

    pub(super) fn image_inst(
        &mut self,
        i: &ImageInst,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let Type::Image(t) = self.sh.types[i.ty] else {
            return Err(self.unsupported("an image op on a value that is not an image", inst));
        };
        let handle = self.value_comp(i.image)?;
        let want = match inst.result {
            Some(r) => comp_count(self.sh, self.sh.values[r].ty).unwrap_or(4) as usize,
            None => 0,
        };
        if i.min_lod.is_some() {
            return Err(self.unsupported("MinLod", inst));
        }
        // A multisampled storage image's descriptor names its sample grid
        // (image_ms.rs).
        let ms_storage = t.multisampled && !t.sampled;
        match i.op {
            ImageOp::QuerySamples if ms_storage => {
                let ptr = self.image_pointer(i.image, inst)?;
                let d = self.ms_descriptor(ptr, inst)?;
                Ok(vec![self.ms_samples(&d, inst)?])
            }
            ImageOp::QuerySize | ImageOp::QueryLevels | ImageOp::QuerySamples => {
                let ms = if ms_storage {
                    let ptr = self.image_pointer(i.image, inst)?;
                    Some(self.ms_descriptor(ptr, inst)?)
                } else {
                    None
                };
                let handle = ms.as_ref().map_or(handle, |d| d.handle);
                let (query, mask) = match i.op {
                    ImageOp::QuerySize => (TxqQuery::Dimension, (1u8 << want) - 1),
                    ImageOp::QueryLevels => (TxqQuery::Dimension, 0x8),
                    _ => (TxqQuery::TextureType, 0x4),
                };
                let mut src = vec![handle];
                if query == TxqQuery::Dimension {
                    src.push(match i.lod {
                        Some(l) => self.value_comp(l)?,
                        None => Comp::Const(0),
                    });
                }
                let src = self.group_of(&src);
                let (dst, comps) = self.result_groups(mask.count_ones() as u8);
                self.emit(Instr::new(Op::Txq(OpTxq {
                    dst,
                    src,
                    query,
                    mask,
                })));
                match (&ms, i.op) {
                    (Some(d), ImageOp::QuerySize) => self.ms_size(d, comps, inst),
                    _ => Ok(comps),
                }
            }
            ImageOp::Read | ImageOp::Write => {
                let dim = su_dim(&t)
                    .ok_or_else(|| self.unsupported("this storage image dimension", inst))?;
                let mut coord =
                    self.comps_of(i.coord.expect("reads and writes have coordinates"))?;
                let mut handle = handle;
                if let Some(sample) = i.sample {
                    let ptr = self.image_pointer(i.image, inst)?;
                    let d = self.ms_descriptor(ptr, inst)?;
                    let sample = self.value_comp(sample)?;
                    coord = self.ms_coords(&d, &coord, sample, inst)?;
                    handle = d.handle;
                }
                let coord = self.group_of(&coord);
                let handle = self.reg_or_zero(handle);
                let order = su_order(self.target);
                if i.op == ImageOp::Read {
                    let whole = self.new_group(4);
                    self.emit(Instr::new(Op::SuLd(OpSuLd {
                        dst: whole.dst(),
                        coord,
                        handle,
                        dim,
                        access: SuAccess::Formatted(0xf),
                        byte_addr: false,
                        trap: false,
                        order,
                    })));
                    Ok((0..want as u32)
                        .map(|k| Comp::Reg(whole.offset(k)))
                        .collect())
                } else {
                    let texel = self.comps_of(i.texel.expect("writes have a texel"))?;
                    let data = self.group_of(&texel);
                    let mask = match texel.len() {
                        1 => 0x1,
                        2 => 0x3,
                        _ => 0xf,
                    };
                    self.emit(Instr::new(Op::SuSt(OpSuSt {
                        coord,
                        data,
                        handle,
                        dim,
                        access: SuAccess::Formatted(mask),
                        byte_addr: false,
                        trap: false,
                        order,
                    })));
                    Ok(Vec::new())
                }
            }
            ImageOp::Fetch | ImageOp::SampleLod | ImageOp::Gather { .. } => {
                self.texture(i, &t, handle, want, inst)
            }
        }
    }

    /// Scales a cube direction so that its largest component has
    /// magnitude 1: `d * rcp(max(|x|, |y|, |z|))`.
    fn unit_major_axis(&mut self, d: &mut [Comp]) {
        let [ax, ay, az] = [d[0], d[1], d[2]].map(|c| self.fabs_src(c));
        let m = self.alu(Op::FMnMx(OpFMnMx {
            dst: Dst::None,
            srcs: [ax, ay],
            ftz: false,
            min: NOT_PT,
        }));
        let m = self.src_of(m);
        let m = self.alu(Op::FMnMx(OpFMnMx {
            dst: Dst::None,
            srcs: [az, m],
            ftz: false,
            min: NOT_PT,
        }));
        let r = self.mufu(MufuOp::Rcp, m);
        for c in d.iter_mut() {
            *c = self.fmul(*c, r);
        }
    }

    fn texture(
        &mut self,
        i: &ImageInst,
        t: &ImageType,
        handle: Comp,
        want: usize,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let dim = tex_dim(t);
        let mut coord = self.comps_of(i.coord.expect("texture ops have coordinates"))?;
        let k = usize::from(dim.coords());
        let layer = if dim.is_array() {
            coord.get(k).copied()
        } else {
            None
        };
        coord.truncate(k);
        // 3D and cube gradients: TEX at the LOD they give (image_grad.rs).
        let grad_lod = match i.grad {
            Some((dx, dy)) if i.op == ImageOp::SampleLod && k > 2 => {
                Some(self.gradient_lod(dim, handle, &coord, dx, dy, inst)?)
            }
            _ => None,
        };
        if matches!(dim, TexDim::Cube | TexDim::ArrayCube) && i.op != ImageOp::Fetch {
            self.unit_major_axis(&mut coord);
        }
        let kind = match i.op {
            ImageOp::Fetch => TexKind::Tld,
            ImageOp::Gather { component } => TexKind::Tld4 { comp: component },
            _ if i.grad.is_some() && grad_lod.is_none() => TexKind::Txd,
            _ => TexKind::Tex,
        };
        let fetch = kind == TexKind::Tld;
        let layer = match layer {
            Some(l) if !fetch => Some(self.float_layer(l, inst)?),
            other => other,
        };
        // A fetch's offset is added to its integer coordinates.
        let mut offset = None;
        if let Some(off) = i.offset {
            if fetch {
                let off = self.comps_of(off)?;
                for (c, o) in coord.iter_mut().zip(off) {
                    *c = self.binary(BinaryOp::IAdd, *c, o, inst)?;
                }
            } else {
                let bits = if matches!(kind, TexKind::Tld4 { .. }) {
                    8
                } else {
                    4
                };
                offset = Some(self.packed_offset(off, bits, inst)?);
            }
        }
        let lod_value = match (i.lod, grad_lod) {
            (Some(l), _) => Some(self.value_comp(l)?),
            (None, lod) => lod,
        };
        let (lod, lod_reg) = match (kind, lod_value) {
            (TexKind::Tld4 { .. } | TexKind::Txd, _) => (LodMode::Auto, None),
            (_, None | Some(Comp::Const(0))) => (LodMode::Zero, None),
            (_, Some(c)) => (LodMode::Lod, Some(c)),
        };
        let sample = match i.sample {
            Some(s) => Some(self.value_comp(s)?),
            None => None,
        };
        let dref = match i.dref {
            Some(d) => Some(self.value_comp(d)?),
            None => None,
        };
        let (src0, src1): (Vec<Comp>, Vec<Comp>) = if kind == TexKind::Txd {
            let (dx, dy) = i.grad.expect("TXD has gradients");
            let (dx, dy) = (self.comps_of(dx)?, self.comps_of(dy)?);
            let mut s0 = vec![handle];
            s0.extend(&coord);
            if layer.is_some() || offset.is_some() {
                // The layer in the low 16 bits, the offsets above.
                let l = layer.unwrap_or(Comp::Const(0));
                let packed = match offset {
                    Some(Comp::Const(o)) => {
                        let o = self.reg_or_zero(Comp::Const(o << 16));
                        let l = self.src_of(l);
                        self.alu(Op::Lop3(OpLop3 {
                            dst: Dst::None,
                            srcs: [l, o, Src::ZERO],
                            lut: 0xfc,
                        }))
                    }
                    _ => l,
                };
                s0.push(packed);
            }
            let mut s1 = Vec::new();
            for (x, y) in dx.into_iter().zip(dy) {
                s1.push(x);
                s1.push(y);
            }
            (s0, s1)
        } else {
            let mut s0: Vec<Comp> = layer.into_iter().collect();
            s0.extend(&coord);
            let mut s1 = vec![handle];
            s1.extend(sample);
            s1.extend(lod_reg);
            s1.extend(offset);
            s1.extend(dref);
            (s0, s1)
        };
        let dc = dref.is_some() && kind != TexKind::Tld;
        let mask = if dc && kind == TexKind::Tex { 0x1 } else { 0xf };
        let op = OpTex {
            kind,
            dst: [Dst::None; 2],
            src: [Src::ZERO; 2],
            dim,
            mask,
            lod,
            offset: offset.is_some() && kind != TexKind::Txd,
            dc,
            ms: sample.is_some(),
        };
        let [n0, n1] = op.src_counts();
        if usize::from(n0) != src0.len() || usize::from(n1) != src1.len() || n0 > 4 || n1 > 4 {
            return Err(self.unsupported(
                "this combination of image operands (the sources exceed the texture op's registers)",
                inst,
            ));
        }
        let s0 = self.group_of(&src0);
        let s1 = self.group_of(&src1);
        let (dst, comps) = self.result_groups(mask.count_ones() as u8);
        self.emit(Instr::new(Op::Tex(OpTex {
            dst,
            src: [s0, s1],
            ..op
        })));
        Ok(comps.into_iter().take(want.max(1)).collect())
    }
}

/// Whether `ptr` points at an image, sampler or texel-buffer descriptor.
pub(crate) fn is_handle_load(sh: &Shader, ptr: Value) -> bool {
    matches!(
        sh.types[sh.values[ptr].ty],
        Type::Pointer {
            class: StorageClass::UniformConstant,
            ..
        }
    )
}

/// The (image pointer, coordinate, sample) of a texel pointer, when `ptr`
/// is one.
pub(crate) fn texel_pointer(sh: &Shader, ptr: Value) -> Option<(Value, Value, Value)> {
    match &sh.def_inst(ptr)?.op {
        spvsass_frontend::ir::Op::ImageTexelPointer {
            image,
            coord,
            sample,
        } => Some((*image, *coord, *sample)),
        _ => None,
    }
}

impl Isel<'_> {
    /// An atomic on a storage image texel: SUATOM (R32 formats).
    pub(super) fn image_atomic(
        &mut self,
        op: AtomicOp,
        ptr: Value,
        args: &[Value],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let (image, coord, sample) = texel_pointer(self.sh, ptr).expect("checked by the caller");
        let Type::Pointer { pointee, .. } = self.sh.types[self.sh.values[image].ty] else {
            return Err(
                self.unsupported("a texel pointer into something other than an image", inst)
            );
        };
        let Type::Image(t) = self.sh.types[pointee] else {
            return Err(
                self.unsupported("a texel pointer into something other than an image", inst)
            );
        };
        let dim =
            su_dim(&t).ok_or_else(|| self.unsupported("this storage image dimension", inst))?;
        let mut comps = Vec::with_capacity(args.len());
        for &a in args {
            comps.push(self.value_comp(a)?);
        }
        let operand = comps.first().copied().unwrap_or(Comp::Const(0));
        let (aop, ty, data) = match op {
            AtomicOp::IIncrement => (AtomOp::Add, AtomType::U32, Comp::Const(1)),
            AtomicOp::IDecrement => (AtomOp::Add, AtomType::U32, Comp::Const(u32::MAX)),
            AtomicOp::ISub => {
                let neg = self.binary(BinaryOp::ISub, Comp::Const(0), operand, inst)?;
                (AtomOp::Add, AtomType::U32, neg)
            }
            AtomicOp::IAdd => (AtomOp::Add, AtomType::U32, operand),
            AtomicOp::FAdd => (AtomOp::Add, AtomType::F32, operand),
            AtomicOp::SMin => (AtomOp::Min, AtomType::S32, operand),
            AtomicOp::UMin => (AtomOp::Min, AtomType::U32, operand),
            AtomicOp::SMax => (AtomOp::Max, AtomType::S32, operand),
            AtomicOp::UMax => (AtomOp::Max, AtomType::U32, operand),
            AtomicOp::And => (AtomOp::And, AtomType::U32, operand),
            AtomicOp::Or => (AtomOp::Or, AtomType::U32, operand),
            AtomicOp::Xor => (AtomOp::Xor, AtomType::U32, operand),
            AtomicOp::Exchange => (AtomOp::Exch, AtomType::U32, operand),
            AtomicOp::CompareExchange => (AtomOp::CmpExch, AtomType::U32, operand),
            AtomicOp::Load | AtomicOp::Store | AtomicOp::FMin | AtomicOp::FMax => {
                return Err(self.unsupported(
                    format!("image atomic {op:?} (SUATOM has add, min, max, inc, dec, and, or, xor, exchange, compare-and-swap)"),
                    inst,
                ));
            }
        };
        let mut coord = self.comps_of(coord)?;
        let handle = if t.multisampled {
            let d = self.ms_descriptor(image, inst)?;
            let sample = self.value_comp(sample)?;
            coord = self.ms_coords(&d, &coord, sample, inst)?;
            d.handle
        } else {
            self.load_handle(image, inst)?[0]
        };
        let handle = self.reg_or_zero(handle);
        let coord = self.group_of(&coord);
        // Compare-and-swap takes (compare, new value) in a pair.
        let data = match (op, comps.get(1)) {
            (AtomicOp::CompareExchange, Some(&cmp)) => self.group_of(&[cmp, data]),
            _ => {
                let d = self.reg_or_zero(data);
                if matches!(d.src, crate::isa::SrcRef::Zero) {
                    d
                } else {
                    self.group_of(&[data])
                }
            }
        };
        let dst = self.f.new_vreg(crate::isa::RegFile::Gpr);
        self.emit(Instr::new(Op::SuAtom(OpSuAtom {
            dst: dst.dst(),
            coord,
            data,
            handle,
            dim,
            op: aop,
            ty,
            byte_addr: false,
            trap: false,
            order: su_order(self.target),
            red: false,
        })));
        Ok(vec![Comp::Reg(dst)])
    }
}
