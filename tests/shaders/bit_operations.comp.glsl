#version 460

// Bit-field operations, bit counts, carries and extended multiplies.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { uint u[]; };
layout(std430, binding = 1) buffer Signed { int s[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    uint x = u[id];
    int y = s[id];
    uint r = bitfieldInsert(x, 0x5u, 4, 3) ^ bitfieldExtract(x, 8, 5) ^ bitfieldReverse(x);
    r += uint(bitCount(x)) + uint(findLSB(x)) + uint(findMSB(x)) + uint(findMSB(y));
    int e = bitfieldExtract(y, 3, 6);
    uint carry, borrow, hi, lo;
    uint sum = uaddCarry(x, r, carry);
    uint diff = usubBorrow(x, r, borrow);
    umulExtended(x, r, hi, lo);
    int shi, slo;
    imulExtended(y, e, shi, slo);
    u[id] = sum + diff + carry + borrow + hi + lo + (x << 3) + (x >> 5) + (~x & 0xffu) + (x | 1u);
    s[id] = shi ^ slo ^ (y >> 2) ^ (y % 7) ^ (y / 3) ^ -y;
}
