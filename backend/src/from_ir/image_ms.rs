//! Multisampled storage images, lowered as NVK does (Mesa,
//! `lower_msaa_image_intrin`): the surface ops have no sample operand, so
//! a multisampled image's storage descriptor names the single-sampled
//! image of its sample grid and carries the grid (log2 of its width and
//! height in bits 20..23 of the first word) and a sample map (second
//! word: sample s's position in nibble s, x in the low two bits). A
//! sample's texel is at `(x << sw_log2) + sx, (y << sh_log2) + sy`; a
//! sample beyond the count gets x = −1, outside the image. Sizes are the
//! grid's shifted back; the sample count is `1 << (sw_log2 + sh_log2)`
//! (0 for the null descriptor). docs/TEXTURES.md, "Multisampled images".

use super::places::resolve;
use super::{Comp, Isel};
use crate::error::BackendError;
use crate::isa::{MemSize, Src};
use spvsass_frontend::ir::{BinaryOp, CmpOp, InstData, Op as IrOp, Value};

use super::descriptors::DescIndex;

/// What a multisampled storage image's descriptor holds.
pub(super) struct MsDescriptor {
    /// The texture header index (bits 0..19 of the first word).
    pub handle: Comp,
    pub sw_log2: Comp,
    pub sh_log2: Comp,
    pub sample_map: Comp,
    /// The first word, for the null-descriptor test.
    pub word0: Comp,
}

impl Isel<'_> {
    /// The pointer an image value was loaded from.
    pub(super) fn image_pointer(
        &self,
        image: Value,
        inst: &InstData,
    ) -> Result<Value, BackendError> {
        match self.sh.def_inst(image).map(|d| &d.op) {
            Some(IrOp::Load { ptr }) => Ok(*ptr),
            _ => Err(self.unsupported(
                "a multisampled storage image that is not loaded directly from its variable",
                inst,
            )),
        }
    }

    /// Both words of the multisampled storage image descriptor `ptr`
    /// points at (one 64-bit load), decoded.
    pub(super) fn ms_descriptor(
        &mut self,
        ptr: Value,
        inst: &InstData,
    ) -> Result<MsDescriptor, BackendError> {
        let place = resolve(self.sh, ptr, inst.spirv_id)?;
        let var = &self.sh.globals[place.var];
        let (Some(set), Some(binding)) = (var.descriptor_set, var.binding) else {
            return Err(self.unsupported("an image without DescriptorSet and Binding", inst));
        };
        let index = match place.path.as_slice() {
            [] => DescIndex::Const(0),
            [step] => DescIndex::of(*step),
            _ => return Err(self.unsupported("a nested array of images", inst)),
        };
        let (desc, konst) = self.descriptor_address(set, binding, index, inst)?;
        let pair = self.load_global(desc, konst, MemSize::B64);
        let word0 = Comp::Reg(pair.offset(0));
        let sample_map = Comp::Reg(pair.offset(1));
        let field = |isel: &mut Self, shift: u32, mask: u32| -> Result<Comp, BackendError> {
            let v = isel.binary(BinaryOp::ShrLogical, word0, Comp::Const(shift), inst)?;
            isel.binary(BinaryOp::And, v, Comp::Const(mask), inst)
        };
        Ok(MsDescriptor {
            handle: field(self, 0, 0xf_ffff)?,
            sw_log2: field(self, 20, 3)?,
            sh_log2: field(self, 22, 3)?,
            sample_map,
            word0,
        })
    }

    /// The sample grid's coordinates of sample `sample` of texel
    /// `coord` (x, y, then the layer, kept).
    pub(super) fn ms_coords(
        &mut self,
        d: &MsDescriptor,
        coord: &[Comp],
        sample: Comp,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        let b = |isel: &mut Self, op, x, y| isel.binary(op, x, y, inst);
        let shift = b(self, BinaryOp::Shl, sample, Comp::Const(2))?;
        let nibble = b(self, BinaryOp::ShrLogical, d.sample_map, shift)?;
        let sx = b(self, BinaryOp::And, nibble, Comp::Const(3))?;
        let sy = b(self, BinaryOp::ShrLogical, nibble, Comp::Const(2))?;
        let sy = b(self, BinaryOp::And, sy, Comp::Const(3))?;
        let x = b(self, BinaryOp::Shl, coord[0], d.sw_log2)?;
        let x = b(self, BinaryOp::IAdd, x, sx)?;
        let y = b(self, BinaryOp::Shl, coord[1], d.sh_log2)?;
        let y = b(self, BinaryOp::IAdd, y, sy)?;
        let count = self.ms_count(d, inst)?;
        let inside = self.compare(CmpOp::ULt, sample, count);
        let x = self.src_of(x);
        let x = self.select(inside, x, Src::imm(u32::MAX));
        let mut out = vec![x, y];
        out.extend(coord.iter().skip(2));
        Ok(out)
    }

    /// Samples per texel: `1 << (sw_log2 + sh_log2)`.
    pub(super) fn ms_count(
        &mut self,
        d: &MsDescriptor,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        let log2 = self.binary(BinaryOp::IAdd, d.sw_log2, d.sh_log2, inst)?;
        self.binary(BinaryOp::Shl, Comp::Const(1), log2, inst)
    }

    /// OpImageQuerySamples of a multisampled storage image: the count, 0
    /// for the null descriptor.
    pub(super) fn ms_samples(
        &mut self,
        d: &MsDescriptor,
        inst: &InstData,
    ) -> Result<Comp, BackendError> {
        let count = self.ms_count(d, inst)?;
        let null = self.compare(CmpOp::IEq, d.word0, Comp::Const(0));
        let count = self.src_of(count);
        Ok(self.select(null, Src::ZERO, count))
    }

    /// A size query's width and height of the grid, as the image's.
    pub(super) fn ms_size(
        &mut self,
        d: &MsDescriptor,
        mut size: Vec<Comp>,
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        for (c, shift) in size.iter_mut().zip([d.sw_log2, d.sh_log2]) {
            *c = self.binary(BinaryOp::ShrLogical, *c, shift, inst)?;
        }
        Ok(size)
    }
}
