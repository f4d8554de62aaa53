#version 460
#extension GL_EXT_mesh_shader : require

// A barrier in control flow that depends on the invocation (undefined
// behaviour in Vulkan). The compiler assumes such a branch uniform and
// evaluates it once for the workgroup: taken when any invocation takes it.
layout(local_size_x = 64) in;
layout(points, max_vertices = 64, max_primitives = 64) out;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(64, 64);
    if (i < 40u) {
        barrier();
    }
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
