#version 460

// Packing and unpacking: norm formats, half floats and doubles.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { vec4 colours[]; };
layout(std430, binding = 1) buffer Packed { uint packed[]; };
layout(std430, binding = 2) buffer Doubles { double d[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec4 c = colours[id];
    uint a = packUnorm4x8(c) ^ packSnorm4x8(c) ^ packUnorm2x16(c.xy) ^ packSnorm2x16(c.zw) ^ packHalf2x16(c.xy);
    packed[id] = a;
    colours[id] = unpackUnorm4x8(a) + unpackSnorm4x8(a) + vec4(unpackUnorm2x16(a), unpackSnorm2x16(a)) + vec4(unpackHalf2x16(a), 0.0, 0.0);
    uvec2 halves = unpackDouble2x32(d[id]);
    d[id] = packDouble2x32(halves.yx);
}
