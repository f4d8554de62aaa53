#version 450
// A buffer outside set 0: the root table has no entry for it, so the
// compiler refuses it with an error naming the store.
layout(local_size_x = 32) in;
layout(set = 1, binding = 0) writeonly buffer Out { uint o[]; };
void main() {
    o[gl_GlobalInvocationID.x] = 1u;
}
