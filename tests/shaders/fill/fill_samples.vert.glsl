#version 450
// The reference runner's multisampled-image fill (src/reference/ms_fill.rs):
// one triangle covering the whole framebuffer, every sample of every pixel.
void main() {
    vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
