#version 460
#extension GL_EXT_mesh_shader : require

// Per-primitive colours: every triangle gets a flat colour hashed from its
// primitive id, and writes gl_PrimitiveID for the fragment stage.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 32, max_primitives = 32) out;

layout(location = 0) perprimitiveEXT out vec4 primColour[];
layout(location = 1) perprimitiveEXT flat out uint primMaterial[];

vec3 hashColour(uint id)
{
    uint h = id * 2654435761u;
    return vec3(float(h & 255u), float((h >> 8) & 255u), float((h >> 16) & 255u)) / 255.0;
}

void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 30);
    float angle = float(i) * (6.2831853 / 32.0);
    gl_MeshVerticesEXT[i].gl_Position = vec4(cos(angle), sin(angle), 0.0, 1.0);
    if (i < 30u) {
        gl_PrimitiveTriangleIndicesEXT[i] = uvec3(0u, i + 1u, i + 2u);
        gl_MeshPrimitivesEXT[i].gl_PrimitiveID = int(gl_WorkGroupID.x * 30u + i);
        primColour[i] = vec4(hashColour(gl_WorkGroupID.x * 30u + i), 1.0);
        primMaterial[i] = i % 4u;
    }
}
