#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_multiview : require
#extension GL_ARB_shader_draw_parameters : require

// Stereo rendering: the view index picks the eye's matrix, the draw index
// picks the object.
layout(local_size_x = 3) in;
layout(triangles, max_vertices = 3, max_primitives = 1) out;

layout(binding = 0) uniform Eyes { mat4 eyeViewProj[2]; };
layout(std430, binding = 1) readonly buffer Objects { mat4 model[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(3, 1);
    vec4 local = vec4(float(i == 1u), float(i == 2u), 0.0, 1.0);
    gl_MeshVerticesEXT[i].gl_Position = eyeViewProj[gl_ViewIndex] * (model[gl_DrawIDARB] * local);
    if (i == 0u) {
        gl_PrimitiveTriangleIndicesEXT[0] = uvec3(0, 1, 2);
    }
}
