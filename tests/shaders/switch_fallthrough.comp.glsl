#version 460

// A switch with fall-through, a shared target, a default in the middle and
// a nested switch.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { int data[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    int v = data[id];
    int r = 0;
    switch (v & 7) {
    case 0:
        r += 1;
    case 1:
        r += 2;
        break;
    case 2:
    case 3:
        r = -1;
        break;
    default:
        r = 100;
        break;
    case 6:
        switch (v >> 3) {
        case 0: r = 60; break;
        case -1: r = 61; break;
        }
        break;
    }
    data[id] = r;
}
