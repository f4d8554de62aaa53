#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_shared_memory_block : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require

// Atomics on an explicitly laid out Workgroup block in a task shader, and
// other views of the same bytes: a total and an 8-bin histogram counted
// with atomics, read back as words (W) and low bytes (Bytes) into the
// payload, which d_workgroup_block_counts.mesh writes to a buffer.
layout(local_size_x = 32) in;

shared Counts { uint total; uint hist[8]; } sc;
shared W { uint w[9]; } sw;
shared Bytes { uint8_t c[36]; } sb;

struct P { uint words[9]; uint low_bytes[9]; };
taskPayloadSharedEXT P p;

void main()
{
    uint i = gl_LocalInvocationIndex;
    if (i < 9u) {
        sw.w[i] = 0u;
    }
    barrier();
    atomicAdd(sc.total, i);
    atomicAdd(sc.hist[i % 8u], 1u + i / 8u);
    barrier();
    if (i < 9u) {
        p.words[i] = sw.w[i];
        p.low_bytes[i] = uint(sb.c[4u * i]);
    }
    EmitMeshTasksEXT(1u, 1u, 1u);
}
