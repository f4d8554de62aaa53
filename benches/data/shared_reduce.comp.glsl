#version 450
// The shared-memory reduction of scripts/bench-native.sh: each workgroup of
// 256 invocations sums `per_thread` words per invocation (strided, so a
// warp's loads are contiguous) into a register, then adds the 256 partial
// sums in a tree in shared memory, with a barrier after every level, and
// stores its total.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint sums[]; };
layout(push_constant) uniform Push { uint per_thread; };
shared uint partial[256];

void main()
{
    uint l = gl_LocalInvocationIndex;
    uint base = gl_WorkGroupID.x * 256u * per_thread;
    uint sum = 0u;
    for (uint k = 0u; k < per_thread; k++) {
        sum += data[base + k * 256u + l] * (k + 1u);
    }
    partial[l] = sum;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (l < s) {
            partial[l] += partial[l + s];
        }
        barrier();
    }
    if (l == 0u) {
        sums[gl_WorkGroupID.x] = partial[0];
    }
}
