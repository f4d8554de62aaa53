#version 460
#extension GL_EXT_mesh_shader : require

// A loop around barriers whose exit condition is read from shared memory:
// uniform (every invocation reads the same word between the same
// barriers) but data dependent, so no analysis can prove it; the compiler
// assumes it, as Vulkan requires. Workgroup g runs 3 + 2g rounds of
// acc[i] = acc[(i + 1) % n] + 1, so acc[i] ends as (i + R) % n + R.
// The size is spec constant 0 (128 by default; tests also use 80, whose
// last logical subgroup has 16 invocations).
layout(local_size_x = 128, local_size_x_id = 0) in;
layout(points, max_vertices = 128, max_primitives = 128) out;

shared uint remaining;
shared uint acc[128];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint n = gl_WorkGroupSize.x;
    if (i == 0u) {
        remaining = 3u + 2u * gl_WorkGroupID.x;
    }
    acc[i] = i;
    barrier();
    uint rounds = 0u;
    while (remaining != 0u) {
        uint v = acc[(i + 1u) % n];
        barrier();
        acc[i] = v + 1u;
        if (i == 0u) {
            remaining -= 1u;
        }
        rounds += 1u;
        barrier();
    }
    SetMeshOutputsEXT(n, n);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(acc[i]), float(rounds), float(remaining), 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
