#version 460

// Arrays whose length is a spec-constant expression over the workgroup
// size composite (OpSpecConstantOp CompositeExtract of the
// OpSpecConstantComposite gl_WorkGroupSize, then IAdd/IMul): a private
// array of x + 2 elements and a shared one of x * y + K.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint K = 3;

const uint N = gl_WorkGroupSize.x * gl_WorkGroupSize.y + K;
shared uint s[N];

layout(binding = 0) buffer O { uint o[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint n = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
    uint arr[gl_WorkGroupSize.x + 2];
    for (uint k = 0u; k < arr.length(); k++) {
        arr[k] = k * i;
    }
    s[i] = arr[i % arr.length()];
    if (i < K) {
        s[n + i] = 1000u + i;
    }
    barrier();
    o[i] = s[(i + 1u) % n] + s[N - 1u] + uint(arr.length()) * 100000u;
}
