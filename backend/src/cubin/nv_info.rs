//! The `.nv.info` attribute records a CUDA driver reads from a cubin:
//! `[format: u8, attribute: u8, value]`, where the format says how the
//! value is stored (docs/CUBIN.md, "Attributes"). The attribute numbers are
//! those NVIDIA's compiler writes, read from its cubins next to
//! `cuobjdump -elf`'s names (tests/data/real_sass/cubin_sm*.elf.txt).

/// How an attribute's value is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// No value (EIFMT_NVAL): two padding bytes.
    None = 1,
    /// One byte (EIFMT_BVAL), then a padding byte.
    Byte = 2,
    /// A 16-bit value (EIFMT_HVAL).
    Half = 3,
    /// A 16-bit size, then that many bytes (EIFMT_SVAL).
    Sized = 4,
}

/// The attributes the writer emits (cuobjdump's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attr {
    /// EIATTR_PARAM_CBANK: the constant-bank-0 section's symbol, then
    /// `size << 16 | offset` of the parameters in the bank.
    ParamCbank = 0x0a,
    /// EIATTR_FRAME_SIZE: function symbol, bytes of local memory per thread.
    FrameSize = 0x11,
    /// EIATTR_MIN_STACK_SIZE: function symbol, bytes.
    MinStackSize = 0x12,
    /// EIATTR_KPARAM_INFO: one kernel parameter.
    KparamInfo = 0x17,
    /// EIATTR_CBANK_PARAM_SIZE: bytes of parameters.
    CbankParamSize = 0x19,
    /// EIATTR_MAXREG_COUNT.
    MaxregCount = 0x1b,
    /// EIATTR_EXIT_INSTR_OFFSETS: byte offsets of the EXIT instructions.
    ExitInstrOffsets = 0x1c,
    /// EIATTR_REGCOUNT: function symbol, registers per thread.
    Regcount = 0x2f,
    /// EIATTR_SW2861232_WAR (no value; nvcc writes it before SM90).
    Sw2861232War = 0x35,
    /// EIATTR_SW_WAR (nvcc writes 8 on SM90).
    SwWar = 0x36,
    /// EIATTR_CUDA_API_VERSION.
    CudaApiVersion = 0x37,
    /// EIATTR_NUM_BARRIERS: named barriers the kernel uses.
    NumBarriers = 0x4c,
    /// An ISA version word nvcc writes as 0 before SM90 and 0x101 on SM90
    /// (cuobjdump: EIATTR_MERCURY_ISA_VERSION on SM90).
    IsaVersion = 0x5f,
}

/// A list of attribute records.
#[derive(Default)]
pub struct NvInfo {
    bytes: Vec<u8>,
}

impl NvInfo {
    fn head(&mut self, f: Format, a: Attr) {
        self.bytes.push(f as u8);
        self.bytes.push(a as u8);
    }

    pub fn flag(&mut self, a: Attr) {
        self.head(Format::None, a);
        self.bytes.extend([0, 0]);
    }

    pub fn byte(&mut self, a: Attr, v: u8) {
        self.head(Format::Byte, a);
        self.bytes.extend([v, 0]);
    }

    pub fn half(&mut self, a: Attr, v: u16) {
        self.head(Format::Half, a);
        self.bytes.extend(v.to_le_bytes());
    }

    /// A sized record of 32-bit words.
    pub fn words(&mut self, a: Attr, words: &[u32]) {
        self.head(Format::Sized, a);
        // Callers pass a handful of words (exit offsets: one per EXIT of a
        // program the binary container already bounds).
        self.bytes.extend(((words.len() * 4) as u16).to_le_bytes());
        for w in words {
            self.bytes.extend(w.to_le_bytes());
        }
    }

    /// EIATTR_KPARAM_INFO of parameter `ordinal` at `offset` with `size`
    /// bytes, in constant bank space (the `0x1f` cbank code nvcc writes).
    pub fn kparam(&mut self, ordinal: u16, offset: u16, size: u32) {
        let packed = (size << 18) | (0x1f << 12);
        let mut w = Vec::with_capacity(12);
        w.extend(0u32.to_le_bytes());
        w.extend(ordinal.to_le_bytes());
        w.extend(offset.to_le_bytes());
        w.extend(packed.to_le_bytes());
        self.head(Format::Sized, Attr::KparamInfo);
        self.bytes.extend((w.len() as u16).to_le_bytes());
        self.bytes.extend(w);
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}
