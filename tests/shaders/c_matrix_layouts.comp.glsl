#version 460

// Whole matrices loaded and stored: row-major and column-major, in a
// std140 uniform block and a std430 storage block, an array of matrices
// indexed by a push constant.
layout(local_size_x = 1) in;
layout(std140, binding = 0) uniform Transforms {
    layout(row_major) mat4 world;
    layout(row_major) mat3x4 normalRows;
    mat4 history[3];
};
layout(push_constant) uniform Push { uint frame; };
layout(std430, binding = 1) buffer Out {
    layout(row_major) mat4 outRow;
    mat4 outCol;
    vec4 cols[];
};

void main()
{
    mat4 w = world;
    mat3x4 n = normalRows;
    mat4 h = history[frame % 3u];
    outRow = h;
    outCol = w;
    cols[0] = w[0]; cols[1] = w[1]; cols[2] = w[2]; cols[3] = w[3];
    cols[4] = n[0]; cols[5] = n[1]; cols[6] = n[2];
    cols[7] = h[0]; cols[8] = h[1]; cols[9] = h[2]; cols[10] = h[3];
}
