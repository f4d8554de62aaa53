#version 460

// Swizzles, composite construction and extraction, selects and boolean
// vector logic.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { vec4 v[]; };
layout(std430, binding = 1) buffer Flags { ivec4 f[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec4 a = v[id];
    vec4 b = a.wzyx * 2.0 + vec4(a.xy, a.zw * 0.5).yxwz;
    bvec4 gt = greaterThan(a, b);
    bvec4 eq = equal(a, b);
    bvec4 either = bvec4(gt.x || eq.x, gt.y && !eq.y, gt.z != eq.z, gt.w == eq.w);
    vec4 pick = mix(a, b, either);
    b.xz = pick.yw;
    v[id] = all(either) ? b : pick;
    f[id] = ivec4(not(either)) - ivec4(lessThanEqual(a, b)) + ivec4(notEqual(a, b));
}
