#version 460

// packDouble2x32 makes a 64-bit float, which the backend does not support
// yet: the CLI must reject it naming the instruction and its result id.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Words { uvec2 w[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    w[i] = unpackDouble2x32(packDouble2x32(w[i].yx));
}
