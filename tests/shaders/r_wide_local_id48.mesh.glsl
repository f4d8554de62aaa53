#version 460
#extension GL_EXT_mesh_shader : require
// Issue 18: gl_LocalInvocationID of a workgroup over 32 invocations whose
// x and x*y are not powers of two (6 x 4 x 2 = 48) was refused.
layout(local_size_x = 6, local_size_y = 4, local_size_z = 2) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
    SetMeshOutputsEXT(0, 0);
    uvec3 l = gl_LocalInvocationID;
    o[gl_LocalInvocationIndex] = l.x | (l.y << 8) | (l.z << 16);
}
