#version 460

// Reference runner test: out[i] = a[i] * scale + offset[i % 4] for i < count,
// with a storage input, a uniform input and push constants. More invocations
// run than there are elements: those past `count` must write nothing.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer A { float a[]; };
layout(set = 0, binding = 1, std140) uniform Offsets { vec4 offset; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { float result[]; };
layout(set = 0, binding = 3, std430) writeonly buffer Index { uint index[]; };

layout(push_constant) uniform Push {
    uint count;
    float scale;
};

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < count) {
        result[i] = a[i] * scale + offset[i % 4u];
        index[i] = gl_WorkGroupID.x * 1000u + gl_LocalInvocationID.x;
    }
}
