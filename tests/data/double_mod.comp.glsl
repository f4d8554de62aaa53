#version 460

// mod() of doubles (OpFMod) has no lowering: the CLI must reject it naming
// the instruction and its result id.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Doubles { double d[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    d[i] = mod(d[i], d[i + 32]);
}
