#version 460
#extension GL_EXT_mesh_shader : require

// A return under a branch on the invocation in a 64-invocation workgroup:
// invocations 40..63 return (lanes 8..31 of the second logical subgroup),
// and write neither their vertex nor their point; the others go on.
layout(local_size_x = 64) in;
layout(points, max_vertices = 64, max_primitives = 64) out;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(64, 64);
    if (i >= 40u) {
        return;
    }
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
