#version 450
// A buffer in descriptor set 40: past the 32 sets the root table holds
// addresses for, so the compiler refuses it with an error naming the store.
layout(local_size_x = 32) in;
layout(set = 40, binding = 0) writeonly buffer Out { uint o[]; };
void main() {
    o[gl_GlobalInvocationID.x] = 1u;
}
