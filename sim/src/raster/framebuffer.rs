//! The render target: RGBA32F pixels, row 0 at the top, layer after layer
//! (the order of the raw output file).

/// A W×H×layers image of RGBA32F pixels, cleared to 0,0,0,0.
#[derive(Clone, Debug, PartialEq)]
pub struct Framebuffer {
    width: u32,
    height: u32,
    layers: u32,
    pixels: Vec<[f32; 4]>,
}

impl Framebuffer {
    /// A cleared image; the sizes were checked by [`super::RenderState`].
    pub(crate) fn new(width: u32, height: u32, layers: u32) -> Framebuffer {
        let count = width as usize * height as usize * layers as usize;
        Framebuffer {
            width,
            height,
            layers,
            pixels: vec![[0.0; 4]; count],
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn layers(&self) -> u32 {
        self.layers
    }

    /// The pixel in column `x`, row `y` (0 at the top) of `layer`, or
    /// `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32, layer: u32) -> Option<[f32; 4]> {
        (x < self.width && y < self.height && layer < self.layers)
            .then(|| self.pixels[self.index(x, y, layer)])
    }

    /// Every pixel in file order: layer, then row from the top, then column.
    pub fn pixels(&self) -> &[[f32; 4]] {
        &self.pixels
    }

    /// Fragments come from the rasterizer, inside the image.
    pub(crate) fn set(&mut self, x: u32, y: u32, layer: u32, colour: [f32; 4]) {
        let i = self.index(x, y, layer);
        self.pixels[i] = colour;
    }

    fn index(&self, x: u32, y: u32, layer: u32) -> usize {
        (layer as usize * self.height as usize + y as usize) * self.width as usize + x as usize
    }
}
