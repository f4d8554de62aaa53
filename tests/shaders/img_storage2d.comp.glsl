#version 450
// Storage images: imageLoad / imageStore / imageSize on 2D rgba8, r32f and
// rgba32ui images.
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) uniform image2D colour;
layout(set = 0, binding = 1, r32f) uniform image2D depth;
layout(set = 0, binding = 2, rgba32ui) uniform uimage2D ids;
layout(set = 0, binding = 3) buffer Out { ivec2 size[3]; } o;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 c = imageLoad(colour, p);
    imageStore(colour, p, c.bgra);
    float d = imageLoad(depth, p).r;
    imageStore(depth, p, vec4(d * 2.0 + 1.0));
    uvec4 id = imageLoad(ids, p);
    imageStore(ids, p, id + uvec4(p, 7, 9));
    if (p == ivec2(0)) {
        o.size[0] = imageSize(colour);
        o.size[1] = imageSize(depth);
        o.size[2] = imageSize(ids);
    }
}
