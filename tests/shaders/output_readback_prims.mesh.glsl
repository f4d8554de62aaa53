#version 460
#extension GL_EXT_mesh_shader : require
// Primitive indices and CullPrimitiveEXT read back by the shader: each
// invocation writes triangle i's indices and cull flag, then, after a
// barrier, reads triangle j = (5i + 1) mod 32's (the MAP bytes and the
// VIEWPORT_MASK the stores wrote; from_ir/mesh_out_load.rs) and stores
// what it read in triangle i's per-primitive outputs.
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 32, max_primitives = 32) out;

layout(location = 0) perprimitiveEXT out uvec4 seen[];

void main() {
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(32, 32);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), 0.0, 0.0, 1.0);
    gl_PrimitiveTriangleIndicesEXT[i] = uvec3(i, (i + 1u) % 32u, (i + 7u) % 32u);
    gl_MeshPrimitivesEXT[i].gl_CullPrimitiveEXT = i % 3u == 0u;
    barrier();
    uint j = (i * 5u + 1u) % 32u;
    uvec3 t = gl_PrimitiveTriangleIndicesEXT[j];
    uint y = gl_PrimitiveTriangleIndicesEXT[j].y;
    bool culled = gl_MeshPrimitivesEXT[j].gl_CullPrimitiveEXT;
    seen[i] = uvec4(t.x * 10000u + t.y * 100u + t.z, y, culled ? 1u : 0u,
                    gl_PrimitiveTriangleIndicesEXT[i].z);
}
