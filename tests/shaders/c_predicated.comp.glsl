#version 460

// Small branches on per-invocation values, each of which the backend
// predicates (backend/src/opt_predicate.rs): an integer and a float
// if/else merged by SEL, a short-circuit && merged by PLOP3, a uniform
// buffer read only where its index is in range (a guarded LDC: the other
// lanes' indices would fault) and stores only where a condition holds
// (guarded STS and STG).
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) buffer Floats { float f[]; };
layout(std430, binding = 2) buffer Extra { uint extra[]; };
layout(std140, binding = 3) uniform Table { uint table[8]; };
layout(std430, binding = 4) buffer Picked { uint picked; };

shared uint s[64];

void main()
{
    uint id = gl_GlobalInvocationID.x;
    uint v = data[id];
    uint a;
    if ((v & 1u) == 0u) {
        a = v >> 1;
    } else {
        a = v * 3u + 1u;
    }
    float x = f[id];
    float y;
    if (x < 0.0) {
        y = x * -2.0;
    } else {
        y = x + 0.5;
    }
    bool b = v > 10u && a < 40u;
    uint w;
    if (v < 8u) {
        w = table[v];
    } else {
        w = v + 1000u;
    }
    uint lid = gl_LocalInvocationIndex;
    s[lid] = 0u;
    if ((v & 4u) != 0u) {
        s[lid] = v;
    }
    if (id == 5u) {
        picked = a;
    }
    barrier();
    extra[id] = s[lid];
    data[id] = a + (b ? 0x10000u : 0u) + (w << 20);
    f[id] = y;
}
