#version 460
// The Vulkan resource model beyond set 0's first 16 bindings (issue 19):
// buffers in several descriptor sets, a binding above 15, a uniform buffer
// found through its descriptor, descriptor arrays indexed by constants,
// by a dynamically uniform value and non-uniformly, a runtime-sized
// descriptor array with its array length, and atomics through it.
// The uniform-buffer array and the array length take workgroup-uniform
// indices: lavapipe of Mesa 22.3 evaluates a non-uniform index there
// with one lane's value.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 5) uniform Sel { uint k; } sel[2];
layout(set = 1, binding = 20) readonly buffer In { uint v[]; } inb;
layout(set = 2, binding = 3) uniform Params { uint scale; uint bias; } params;
layout(set = 3, binding = 1) readonly buffer Arr { uint v[]; } arr[3];
layout(set = 3, binding = 2) buffer Rt { uint count; uint v[]; } rt[];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = inb.v[i];
    uint a = x * params.scale + params.bias;
    // A constant element, then one chosen per workgroup (uniform).
    uint b = arr[1].v[i] + arr[gl_WorkGroupID.x % 3u].v[i];
    // One chosen per invocation from the data.
    uint j = x % 2u;
    uint g = gl_WorkGroupID.x;
    uint c = rt[nonuniformEXT(j)].v[i] + uint(rt[g % 2u].v.length());
    atomicAdd(rt[nonuniformEXT(j)].count, 1u);
    o[i] = a + b * 16u + c * 256u + sel[g & 1u].k;
}
