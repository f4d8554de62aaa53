#version 460

// for, while and do-while loops with break and continue, nested.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { int data[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    int acc = 0;
    for (int i = 0; i < 100; ++i) {
        if (i % 3 == 0) continue;
        if (acc > 1000) break;
        int j = 0;
        while (true) {
            j++;
            if (j > i) break;
            if ((j & 1) == 0) continue;
            acc += j;
        }
    }
    int k = int(id);
    do {
        k = (k & 1) != 0 ? 3 * k + 1 : k / 2;
        acc++;
    } while (k > 1 && acc < 5000);
    data[id] = acc;
}
