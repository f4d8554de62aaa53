#version 460
// Sweeps of 2D textureGrad gradients, to read how the H100's texture unit
// turns a gradient pair into λ (run description tests/runs/tex_grad_sweep.json;
// docs/TEXTURES.md, "Gradient sweeps"). Level L of the 16x16 R32F image
// holds 64·L, so each word is 64·λ to its 1/256 step. Gradients in texels
// (x, y), invocation i:
//   0 ..  4095: x = (1 + i/4096, 0), y = 0            the log2 table
//   4096 .. 20479: x = (1, j/16384), y = 0            the shorter component
//   20480 .. 36863: x = (1 + j/16384, 1/2), y = 0     the longer one beside it
//   36864 .. 45055: x = (0, -1), y = (u/64, -v/64)    pairs (u < 64, v < 128)
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D flat2d; // 16^2, 5 levels
layout(set = 0, binding = 2) buffer Out { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 x;
    vec2 y = vec2(0.0);
    if (i < 4096u) {
        x = vec2(1.0 + float(i) / 4096.0, 0.0);
    } else if (i < 20480u) {
        x = vec2(1.0, float(i - 4096u) / 16384.0);
    } else if (i < 36864u) {
        x = vec2(1.0 + float(i - 20480u) / 16384.0, 0.5);
    } else {
        uint j = i - 36864u;
        x = vec2(0.0, -1.0);
        y = vec2(float(j / 128u) / 64.0, -float(j % 128u) / 64.0);
    }
    o[i] = floatBitsToUint(textureGrad(flat2d, vec2(0.5), x / 16.0, y / 16.0).x);
}
