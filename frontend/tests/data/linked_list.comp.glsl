#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// A linked list through buffer references: the node type points to itself,
// which the IR's types cannot express. The frontend must say so (and name
// the type), not loop or panic.
// Built with: glslangValidator -V --target-env vulkan1.3 -o linked_list.comp.spv linked_list.comp.glsl
layout(local_size_x = 1) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430) buffer Node { Node next; uint value; };
layout(push_constant) uniform Push { Node head; };
layout(std430, binding = 0) buffer Out { uint sum; };

void main()
{
    uint s = 0u;
    for (Node n = head; uint64_t(n) != 0ul; n = n.next) {
        s += n.value;
    }
    sum = s;
}
