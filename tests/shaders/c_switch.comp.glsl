#version 460

// A switch per invocation (divergent): fall-through, several cases to one
// target, a default in the middle, a nested switch, negative labels.
layout(local_size_x = 64) in;
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
        r = 100 + v;
        break;
    case 6:
        switch (v / 8) {
        case 0: r = 60; break;
        case -1: r = 61; break;
        case 2: r = 62;
        }
        break;
    }
    data[id] = r;
}
