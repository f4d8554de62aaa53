#version 460
#extension GL_EXT_mesh_shader : require

// Reference runner test: a Location-0 output that is a vec3, which the
// pass-through fragment shaders (vec4) cannot take; the runner must refuse it
// before any driver sees it.
layout(local_size_x = 1) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;

layout(location = 0) out vec3 colour[];

void main()
{
    SetMeshOutputsEXT(3, 1);
    for (uint i = 0u; i < 3u; i++) {
        gl_MeshVerticesEXT[i].gl_Position = vec4(float(i) * 0.5 - 0.5, float(i & 1u) - 0.5, 0.0, 1.0);
        colour[i] = vec3(1.0);
    }
    gl_PrimitiveTriangleIndicesEXT[0] = uvec3(0, 1, 2);
}
