//! The formats the texture unit reads and writes: one row per format in
//! the `formats!` table below, giving its Vulkan number, NVIDIA's
//! component layout and data type (the texture header's `COMPONENTS` and
//! `DATA_TYPE` fields, docs/TEXTURES.md), the bits of each component in
//! memory from the lowest bit up, and the swizzle a header for it holds.
//! Everything else (texel size, decoding, the header's fields, the
//! reference runner's `VkFormat`) is derived from the row.

use serde::{Deserialize, Serialize};

/// NVIDIA's `COMPONENTS` codes of the formats in the table (the header's
/// bits 112..118).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Components {
    R32G32B32A32 = 0x01,
    R16G16B16A16 = 0x03,
    R32G32 = 0x04,
    A8B8G8R8 = 0x08,
    A2B10G10R10 = 0x09,
    R16G16 = 0x0c,
    R32 = 0x0f,
    G8R8 = 0x18,
    R16 = 0x1b,
    R8 = 0x1d,
    Bf10Gf11Rf11 = 0x21,
    Zf32 = 0x2f,
    Z16 = 0x3a,
}

/// NVIDIA's `DATA_TYPE` codes (the header's bits 108..111) the table uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum DataType {
    Unorm = 0,
    Snorm = 1,
    Float = 2,
    Uint = 6,
    Sint = 7,
}

/// Where a result component comes from (the header's X/Y/Z/W_SOURCE
/// fields): a component of the texel as stored, or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Source {
    Zero = 0,
    R = 2,
    G = 3,
    B = 4,
    A = 5,
    /// Integer 1.
    OneInt = 6,
    /// 1.0.
    OneFloat = 7,
}

impl Source {
    pub const ALL: [Source; 7] = [
        Source::Zero,
        Source::R,
        Source::G,
        Source::B,
        Source::A,
        Source::OneInt,
        Source::OneFloat,
    ];

    pub fn from_bits(bits: u64) -> Option<Source> {
        Source::ALL.into_iter().find(|s| *s as u64 == bits)
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    pub format: Format,
    /// The Rust name, which is the Vulkan name without `VK_FORMAT_` and
    /// underscores, in camel case.
    pub name: &'static str,
    /// `VkFormat`'s value.
    pub vk: i32,
    pub components: Components,
    pub data_type: DataType,
    /// Bits of the stored components R, G, B, A (as NVIDIA names them,
    /// from the texel's lowest bit up); as many as the texel has.
    pub bits: &'static [u8],
    /// The header's X/Y/Z/W_SOURCE for this format.
    pub swizzle: [Source; 4],
    /// R, G and B are sRGB-encoded (the header's `S_R_G_B_CONVERSION`).
    pub srgb: bool,
}

impl FormatInfo {
    /// Bytes of one texel.
    pub fn texel_bytes(&self) -> u32 {
        self.bits.iter().map(|&b| u32::from(b)).sum::<u32>() / 8
    }

    /// Whether sampling returns integers (no filtering, no conversion).
    pub fn is_integer(&self) -> bool {
        matches!(self.data_type, DataType::Uint | DataType::Sint)
    }

    /// Whether it is a depth format (compare lookups read it).
    pub fn is_depth(&self) -> bool {
        matches!(self.components, Components::Z16 | Components::Zf32)
    }
}

macro_rules! formats {
    ($($name:ident = $vk:literal, $comp:ident, $data:ident, [$($bits:literal),+],
       [$x:ident, $y:ident, $z:ident, $w:ident], $srgb:literal;)+) => {
        /// A format of the table; `Format::info` gives its row.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Format { $($name),+ }

        impl Format {
            /// The table, in order.
            pub const TABLE: &[FormatInfo] = &[$(FormatInfo {
                format: Format::$name,
                name: stringify!($name),
                vk: $vk,
                components: Components::$comp,
                data_type: DataType::$data,
                bits: &[$($bits),+],
                swizzle: [Source::$x, Source::$y, Source::$z, Source::$w],
                srgb: $srgb,
            }),+];
        }
    };
}

formats! {
    // name              vk  components    data   bits            swizzle x y z w       sRGB
    R8Unorm          =   9, R8,           Unorm, [8],            [R, Zero, Zero, OneFloat], false;
    R8Snorm          =  10, R8,           Snorm, [8],            [R, Zero, Zero, OneFloat], false;
    R8Uint           =  13, R8,           Uint,  [8],            [R, Zero, Zero, OneInt],   false;
    R8Sint           =  14, R8,           Sint,  [8],            [R, Zero, Zero, OneInt],   false;
    R8Srgb           =  15, R8,           Unorm, [8],            [R, Zero, Zero, OneFloat], true;
    R8G8Unorm        =  16, G8R8,         Unorm, [8, 8],         [R, G, Zero, OneFloat],    false;
    R8G8Snorm        =  17, G8R8,         Snorm, [8, 8],         [R, G, Zero, OneFloat],    false;
    R8G8Uint         =  20, G8R8,         Uint,  [8, 8],         [R, G, Zero, OneInt],      false;
    R8G8Sint         =  21, G8R8,         Sint,  [8, 8],         [R, G, Zero, OneInt],      false;
    R8G8B8A8Unorm    =  37, A8B8G8R8,     Unorm, [8, 8, 8, 8],   [R, G, B, A],              false;
    R8G8B8A8Snorm    =  38, A8B8G8R8,     Snorm, [8, 8, 8, 8],   [R, G, B, A],              false;
    R8G8B8A8Uint     =  41, A8B8G8R8,     Uint,  [8, 8, 8, 8],   [R, G, B, A],              false;
    R8G8B8A8Sint     =  42, A8B8G8R8,     Sint,  [8, 8, 8, 8],   [R, G, B, A],              false;
    R8G8B8A8Srgb     =  43, A8B8G8R8,     Unorm, [8, 8, 8, 8],   [R, G, B, A],              true;
    B8G8R8A8Unorm    =  44, A8B8G8R8,     Unorm, [8, 8, 8, 8],   [B, G, R, A],              false;
    B8G8R8A8Srgb     =  50, A8B8G8R8,     Unorm, [8, 8, 8, 8],   [B, G, R, A],              true;
    A2B10G10R10UnormPack32 = 64, A2B10G10R10, Unorm, [10, 10, 10, 2], [R, G, B, A],         false;
    A2B10G10R10UintPack32  = 68, A2B10G10R10, Uint,  [10, 10, 10, 2], [R, G, B, A],         false;
    R16Unorm         =  70, R16,          Unorm, [16],           [R, Zero, Zero, OneFloat], false;
    R16Snorm         =  71, R16,          Snorm, [16],           [R, Zero, Zero, OneFloat], false;
    R16Uint          =  74, R16,          Uint,  [16],           [R, Zero, Zero, OneInt],   false;
    R16Sint          =  75, R16,          Sint,  [16],           [R, Zero, Zero, OneInt],   false;
    R16Sfloat        =  76, R16,          Float, [16],           [R, Zero, Zero, OneFloat], false;
    R16G16Unorm      =  77, R16G16,       Unorm, [16, 16],       [R, G, Zero, OneFloat],    false;
    R16G16Snorm      =  78, R16G16,       Snorm, [16, 16],       [R, G, Zero, OneFloat],    false;
    R16G16Uint       =  81, R16G16,       Uint,  [16, 16],       [R, G, Zero, OneInt],      false;
    R16G16Sint       =  82, R16G16,       Sint,  [16, 16],       [R, G, Zero, OneInt],      false;
    R16G16Sfloat     =  83, R16G16,       Float, [16, 16],       [R, G, Zero, OneFloat],    false;
    R16G16B16A16Unorm  = 91, R16G16B16A16, Unorm, [16, 16, 16, 16], [R, G, B, A],           false;
    R16G16B16A16Snorm  = 92, R16G16B16A16, Snorm, [16, 16, 16, 16], [R, G, B, A],           false;
    R16G16B16A16Uint   = 95, R16G16B16A16, Uint,  [16, 16, 16, 16], [R, G, B, A],           false;
    R16G16B16A16Sint   = 96, R16G16B16A16, Sint,  [16, 16, 16, 16], [R, G, B, A],           false;
    R16G16B16A16Sfloat = 97, R16G16B16A16, Float, [16, 16, 16, 16], [R, G, B, A],           false;
    R32Uint          =  98, R32,          Uint,  [32],           [R, Zero, Zero, OneInt],   false;
    R32Sint          =  99, R32,          Sint,  [32],           [R, Zero, Zero, OneInt],   false;
    R32Sfloat        = 100, R32,          Float, [32],           [R, Zero, Zero, OneFloat], false;
    R32G32Uint       = 101, R32G32,       Uint,  [32, 32],       [R, G, Zero, OneInt],      false;
    R32G32Sint       = 102, R32G32,       Sint,  [32, 32],       [R, G, Zero, OneInt],      false;
    R32G32Sfloat     = 103, R32G32,       Float, [32, 32],       [R, G, Zero, OneFloat],    false;
    R32G32B32A32Uint   = 107, R32G32B32A32, Uint,  [32, 32, 32, 32], [R, G, B, A],          false;
    R32G32B32A32Sint   = 108, R32G32B32A32, Sint,  [32, 32, 32, 32], [R, G, B, A],          false;
    R32G32B32A32Sfloat = 109, R32G32B32A32, Float, [32, 32, 32, 32], [R, G, B, A],          false;
    B10G11R11UfloatPack32 = 122, Bf10Gf11Rf11, Float, [11, 11, 10], [R, G, B, OneFloat],    false;
    D16Unorm         = 124, Z16,          Unorm, [16],           [R, Zero, Zero, OneFloat], false;
    D32Sfloat        = 126, Zf32,         Float, [32],           [R, Zero, Zero, OneFloat], false;
}

impl Format {
    /// This format's row.
    pub fn info(self) -> &'static FormatInfo {
        // The table lists the variants in declaration order.
        &Format::TABLE[self as usize]
    }

    /// The format whose `VkFormat` value is `vk`.
    pub fn from_vk(vk: i32) -> Option<Format> {
        Format::TABLE.iter().find(|r| r.vk == vk).map(|r| r.format)
    }

    /// The format named `name` (the table's Rust name, or the Vulkan name
    /// with or without `VK_FORMAT_`, any case: `r8g8b8a8_unorm`).
    pub fn from_name(name: &str) -> Option<Format> {
        let key = |s: &str| {
            s.trim_start_matches("VK_FORMAT_")
                .chars()
                .filter(|c| *c != '_')
                .collect::<String>()
                .to_ascii_lowercase()
        };
        let want = key(name);
        Format::TABLE
            .iter()
            .find(|r| key(r.name) == want)
            .map(|r| r.format)
    }

    /// The first row stored as `components`/`data_type` (rows differing
    /// only in swizzle or sRGB store texels alike).
    pub fn stored_as(components: u64, data_type: u64) -> Option<&'static FormatInfo> {
        Format::TABLE
            .iter()
            .find(|r| r.components as u64 == components && r.data_type as u64 == data_type)
    }
}

/// Written as the table's name; read from it or the Vulkan name, any
/// case, with or without underscores and `VK_FORMAT_`
/// (`"r8g8b8a8_unorm"`).
impl Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.info().name)
    }
}

impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Format, D::Error> {
        let name = String::deserialize(d)?;
        Format::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown or unsupported format `{name}`"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_declaration_order_with_whole_byte_texels() {
        for (i, row) in Format::TABLE.iter().enumerate() {
            assert_eq!(row.format as usize, i, "{}", row.name);
            let bits: u32 = row.bits.iter().map(|&b| u32::from(b)).sum();
            assert!(bits.is_multiple_of(8), "{}", row.name);
        }
    }

    #[test]
    fn names_and_vulkan_numbers_find_rows() {
        assert_eq!(
            Format::from_name("VK_FORMAT_R8G8B8A8_UNORM"),
            Some(Format::R8G8B8A8Unorm)
        );
        assert_eq!(
            Format::from_name("b10g11r11_ufloat_pack32"),
            Some(Format::B10G11R11UfloatPack32)
        );
        assert_eq!(Format::from_name("r8g8b8a8"), None);
        let f: Format = serde_json::from_str("\"r16g16_sfloat\"").unwrap();
        assert_eq!(f, Format::R16G16Sfloat);
        assert_eq!(serde_json::to_string(&f).unwrap(), "\"R16G16Sfloat\"");
        assert!(serde_json::from_str::<Format>("\"bc1_rgb\"").is_err());
        assert_eq!(Format::from_vk(126), Some(Format::D32Sfloat));
        assert_eq!(Format::R16G16B16A16Sfloat.info().texel_bytes(), 8);
        assert_eq!(Format::A2B10G10R10UintPack32.info().texel_bytes(), 4);
    }
}
