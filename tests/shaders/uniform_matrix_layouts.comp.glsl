#version 460

// Uniform blocks with std140 layout: row- and column-major matrices,
// matrix arrays, vec3 padding, push constants.
layout(local_size_x = 16) in;
layout(std140, binding = 0) uniform Transforms {
    layout(row_major) mat4 world;
    layout(column_major) mat4 view;
    layout(row_major) mat3x4 normalRows;
    mat4 history[3];
    vec3 tint;
    float exposure;
};
layout(push_constant) uniform Push { uint frame; float time; };
layout(std430, binding = 1) buffer Out { vec4 outv[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec4 p = vec4(float(i), time, 0.0, 1.0);
    vec4 w = view * (world * p);
    vec3 n = vec4(1.0, 0.0, 0.0, 0.0) * normalRows;
    outv[i] = history[frame % 3u] * w + vec4(tint * exposure + n, 0.0);
}
