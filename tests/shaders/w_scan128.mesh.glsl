#version 460
#extension GL_EXT_mesh_shader : require

// 128 invocations, a loop whose body holds two barriers and passes data
// through shared memory from one round to the next: a Hillis-Steele scan
// of s[i] = (37i + 11g) % 101. Workgroup g runs 6 + g rounds (a uniform,
// non-constant trip count), so s[i] ends as the sum of the 2^(6 + g)
// values up to i. Vertex i shows (s[i], rounds run, the value read from
// s[i - d] in the last round, 1).
layout(local_size_x = 128) in;
layout(points, max_vertices = 128, max_primitives = 128) out;

shared uint s[128];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    SetMeshOutputsEXT(128, 128);
    gl_PrimitivePointIndicesEXT[i] = i;
    s[i] = (37u * i + 11u * g) % 101u;
    uint rounds = 0u;
    uint last = 0u;
    for (uint d = 1u; d < (64u << g); d <<= 1u) {
        barrier();
        uint v = s[i];
        last = 0u;
        if (i >= d) {
            last = s[i - d];
            v += last;
        }
        barrier();
        s[i] = v;
        rounds++;
    }
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(s[i]), float(rounds), float(last), 1.0);
}
