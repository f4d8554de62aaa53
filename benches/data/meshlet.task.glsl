#version 460
#extension GL_EXT_mesh_shader : require

// The meshlet benchmark's task shader (benches/draw.rs): each invocation
// tests one meshlet of a procedural terrain against the view frustum and a
// normal cone, and the survivors are compacted into the payload with a
// shared-memory counter, as meshlet renderers do (niagara, meshoptimizer).
layout(local_size_x = 32) in;

struct Payload { uint meshletIds[32]; };
taskPayloadSharedEXT Payload payload;
shared uint survivors;

const uint GRID = 64u; // meshlets per row of the terrain

void main()
{
    uint id = gl_WorkGroupID.x * 32u + gl_LocalInvocationIndex;
    // The meshlet's bounding sphere: a patch of the height field.
    float x = (float(id % GRID) + 0.5) * (2.0 / 64.0) - 1.0;
    float z = (float(id / GRID) + 0.5) * (2.0 / 64.0) - 1.0;
    float y = 0.3 * x * z - 0.2 * x * x;
    float radius = 1.5 / 64.0;
    // A camera above the terrain looking down its -z half.
    float dx = x, dy = y - 1.0, dz = z - 1.5;
    bool visible = dz - radius < 0.0 && abs(dx) - radius < -dz;
    // Back-facing test: the patch normal (not normalised: only the sign of
    // the dot product counts) against the view direction.
    visible = visible && (0.4 * x - 0.3 * z) * dx + dy - 0.3 * x * dz < 0.0;
    if (gl_LocalInvocationIndex == 0u) {
        survivors = 0u;
    }
    barrier();
    if (visible) {
        payload.meshletIds[atomicAdd(survivors, 1u)] = id;
    }
    barrier();
    EmitMeshTasksEXT(survivors, 1u, 1u);
}
