#version 460
#extension GL_EXT_mesh_shader : require

// A tree reduction in shared memory in a mesh shader: invocation i stores
// i * i + workgroup, halving strides add pairs, invocation 0 emits the
// sum as a point. The shared array sits in the output ISBE after the
// vertex attributes.
layout(local_size_x = 32) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

shared uint vals[32];

void main()
{
    uint i = gl_LocalInvocationIndex;
    vals[i] = i * i + gl_WorkGroupID.x;
    barrier();
    for (uint stride = 16u; stride > 0u; stride >>= 1u) {
        if (i < stride) {
            vals[i] += vals[i + stride];
        }
        barrier();
    }
    SetMeshOutputsEXT(1u, 1u);
    if (i == 0u) {
        gl_MeshVerticesEXT[0].gl_Position = vec4(float(vals[0]), float(vals[31]), 0.0, 1.0);
        gl_PrimitivePointIndicesEXT[0] = 0u;
    }
}
