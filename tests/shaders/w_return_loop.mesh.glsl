#version 460
#extension GL_EXT_mesh_shader : require

// A return inside a loop, in uniform control flow (it depends on the
// workgroup only), before the barriers of the loop's next round.
// Workgroup g runs min(g + 1, 3) rounds of s[i] = s[(i + 1) % 64] + 1 from
// s[i] = 10i, showing after each round vertex i = (s[i], round, 0, 1).
layout(local_size_x = 64) in;
layout(points, max_vertices = 64, max_primitives = 64) out;

shared uint s[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    SetMeshOutputsEXT(64, 64);
    gl_PrimitivePointIndicesEXT[i] = i;
    s[i] = 10u * i;
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(10u * i), 0.0, 0.0, 1.0);
    for (uint k = 0u; k < 3u; k++) {
        if (k == g + 1u) {
            return;
        }
        barrier();
        uint v = s[(i + 1u) % 64u] + 1u;
        barrier();
        s[i] = v;
        gl_MeshVerticesEXT[i].gl_Position = vec4(float(v), float(k + 1u), 0.0, 1.0);
    }
}
