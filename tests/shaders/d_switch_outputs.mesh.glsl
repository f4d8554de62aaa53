#version 460
#extension GL_EXT_mesh_shader : require

// SetMeshOutputsEXT and barriers in the cases of switches, in a workgroup
// of more than 32 invocations (logical subgroups on one warp): the first
// switch's selector (workgroup id mod 3) is provably uniform, the second
// one's is read from a buffer (dynamically uniform, as Vulkan requires:
// voted once for the workgroup). The size is spec constant 0 (64 by
// default; tests/wide_workgroups.rs also uses 96 and 128).
layout(local_size_x = 64, local_size_x_id = 0) in;
layout(points, max_vertices = 128, max_primitives = 128) out;

layout(binding = 0) readonly buffer Modes { uint modes[]; };

shared uint s[128];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint n = gl_WorkGroupSize.x;
    uint g = gl_WorkGroupID.x;
    uint m = modes[g];
    s[i] = i + 10u * g;
    barrier();
    switch (g % 3u) {
    case 0u:
        s[i] += 1000u;
        barrier();
        break;
    case 1u: {
        uint t = s[(i + 1u) % n];
        barrier();
        s[i] = t + 2000u;
        break;
    }
    default:
        break;
    }
    barrier();
    switch (m) {
    case 0u:
        SetMeshOutputsEXT(0, 0);
        return;
    case 1u:
    case 5u: {
        uint t = s[n - 1u - i];
        barrier();
        s[i] = t;
        SetMeshOutputsEXT(n, n);
        gl_MeshVerticesEXT[i].gl_Position = vec4(float(s[i]), float(m), float(g), 1.0);
        gl_PrimitivePointIndicesEXT[i] = i;
        break;
    }
    default:
        SetMeshOutputsEXT(n / 2u, n / 2u);
        if (i < n / 2u) {
            gl_MeshVerticesEXT[i].gl_Position = vec4(float(2u * s[i]), float(m), float(g), 1.0);
            gl_PrimitivePointIndicesEXT[i] = i;
        }
        break;
    }
}
