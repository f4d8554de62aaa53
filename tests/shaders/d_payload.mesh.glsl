#version 460
#extension GL_EXT_mesh_shader : require

// Fed by d_payload.task: one point per mesh workgroup carrying what the
// payload and the launch said (gl_WorkGroupID within the task's launch,
// split by the task's group counts; the counts themselves).
layout(local_size_x = 32) in;
layout(points, max_vertices = 1, max_primitives = 1) out;

struct Payload {
    uint group;
    float scale;
    uint ids[32];
};
taskPayloadSharedEXT Payload p;

layout(location = 0) out vec4 launch[];
layout(location = 1) out vec4 id[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    SetMeshOutputsEXT(1, 1);
    if (i == 0u) {
        gl_MeshVerticesEXT[0].gl_Position = vec4(float(p.group), p.scale, float(p.ids[g + 3u]), float(g));
        launch[0] = vec4(gl_NumWorkGroups, 1.0);
        id[0] = vec4(gl_WorkGroupID, float(gl_LocalInvocationIndex));
        gl_PrimitivePointIndicesEXT[0] = 0;
    }
}
