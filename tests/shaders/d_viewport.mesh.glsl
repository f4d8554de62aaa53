#version 460
#extension GL_EXT_mesh_shader : require

// One point per invocation of a 4-wide workgroup, each sent to the viewport
// of its index; no task shader (workgroup index read with SKEW).
layout(local_size_x = 4) in;
layout(points, max_vertices = 4, max_primitives = 4) out;

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(4, 4);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), float(gl_WorkGroupID.x), 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
    gl_MeshPrimitivesEXT[i].gl_ViewportIndex = int(i);
}
