#version 450
#extension GL_EXT_shader_atomic_float : require
// Float atomic adds: on a storage buffer (ATOMG.ADD.F32) and on shared
// memory (no instruction there: a CAS loop on ATOMS.CAS).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Sums { float total; float group_total[]; };
shared float local_total;
void main() {
    float v = float(gl_LocalInvocationIndex) * 0.5;
    atomicAdd(total, v);
    atomicAdd(local_total, v);
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        group_total[gl_WorkGroupID.x] = local_total;
    }
}
