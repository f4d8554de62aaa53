#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_fragment_shading_rate : require

// Cube-map style rendering: each workgroup draws one face to its own layer
// and viewport, with a coarser shading rate for faces far from the camera.
layout(local_size_x = 3) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;

void main()
{
    uint face = gl_WorkGroupID.x % 6u;
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(3, 1);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i) - 1.0, float(i == 1u), 0.0, 1.0);
    if (i == 0u) {
        gl_PrimitiveTriangleIndicesEXT[0] = uvec3(0, 1, 2);
        gl_MeshPrimitivesEXT[0].gl_Layer = int(face);
        gl_MeshPrimitivesEXT[0].gl_ViewportIndex = int(face);
        gl_MeshPrimitivesEXT[0].gl_PrimitiveShadingRateEXT = face >= 4u ? gl_ShadingRateFlag4HorizontalPixelsEXT : 0;
    }
}
