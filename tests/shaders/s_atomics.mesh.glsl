#version 460
#extension GL_EXT_mesh_shader : require
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_null_initializer : require

// Every atomic op GLSL has on shared memory, eight invocations per address
// (group g = i & 3, j = i >> 2): vertex i gets the old values its atomics
// returned (locations 0..3) and, after a barrier, the final values of its
// group (locations 4..7). `hits` has a null initializer (zero-filled by
// the compiler) and takes a uniform add of 3 (the aggregated path); `sum`
// a uniform address with per-invocation values (the MATCH loop).
layout(local_size_x = 32) in;
layout(points, max_vertices = 32, max_primitives = 32) out;

shared uint uadd[4], umin_[4], umax_[4], uand[4], uor[4], uxor[4], uexch[4], ucas[4];
shared int smin_[4], smax_[4];
shared float fadd[4], fmin_[4], fmax_[4];
shared uint hits = {};
shared uint sum;

layout(location = 0) out vec4 old0[];
layout(location = 1) out vec4 old1[];
layout(location = 2) out vec4 old2[];
layout(location = 3) out vec4 old3[];
layout(location = 4) out vec4 fin0[];
layout(location = 5) out vec4 fin1[];
layout(location = 6) out vec4 fin2[];
layout(location = 7) out vec4 fin3[];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = i & 3u;
    uint j = i >> 2u;
    if (i < 4u) {
        uadd[i] = 0u; umin_[i] = 1000u; umax_[i] = 0u; uand[i] = 0xffu;
        uor[i] = 0u; uxor[i] = 0u; uexch[i] = 7u; ucas[i] = 0u;
        smin_[i] = 100; smax_[i] = -100;
        fadd[i] = 0.0; fmin_[i] = 1000.0; fmax_[i] = -1000.0;
    }
    if (i == 0u) {
        sum = 0u;
    }
    barrier();
    uint o0 = atomicAdd(uadd[g], i + 1u);
    uint o1 = atomicMin(umin_[g], 500u + i * 3u);
    uint o2 = atomicMax(umax_[g], i * 5u);
    uint o3 = atomicAnd(uand[g], ~(1u << j) & 0xffu);
    uint o4 = atomicOr(uor[g], 1u << j);
    uint o5 = atomicXor(uxor[g], 1u << j);
    uint o6 = atomicExchange(uexch[g], i + 10u);
    uint o7 = atomicCompSwap(ucas[g], 0u, i + 1u);
    int o8 = atomicMin(smin_[g], int(i) - 16);
    int o9 = atomicMax(smax_[g], int(i) - 16);
    float o10 = atomicAdd(fadd[g], 0.5 * float(j + 1u));
    float o11 = atomicMin(fmin_[g], float(i) * 1.5);
    float o12 = atomicMax(fmax_[g], float(i) * 1.5);
    uint o13 = atomicAdd(hits, 3u);
    uint o14 = atomicAdd(sum, i);
    barrier();
    SetMeshOutputsEXT(32u, 32u);
    old0[i] = vec4(float(o0), float(o1), float(o2), float(o3));
    old1[i] = vec4(float(o4), float(o5), float(o6), float(o7));
    old2[i] = vec4(float(o8), float(o9), o10, o11);
    old3[i] = vec4(o12, float(o13), float(o14), 0.0);
    fin0[i] = vec4(float(uadd[g]), float(umin_[g]), float(umax_[g]), float(uand[g]));
    fin1[i] = vec4(float(uor[g]), float(uxor[g]), float(uexch[g]), float(ucas[g]));
    fin2[i] = vec4(float(smin_[g]), float(smax_[g]), fadd[g], fmin_[g]);
    fin3[i] = vec4(fmax_[g], float(hits), float(sum), 0.0);
    gl_MeshVerticesEXT[i].gl_Position = vec4(float(i), 0.0, 0.0, 1.0);
    gl_PrimitivePointIndicesEXT[i] = i;
}
