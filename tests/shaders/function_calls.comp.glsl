#version 460

// Function calls: in, out and inout parameters (pointers to the caller's
// variables), early returns, calls inside loops and nested calls.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Data { vec4 data[]; };

struct Ray { vec3 origin; vec3 dir; };

float sphereHit(Ray r, vec3 centre, float radius)
{
    vec3 oc = r.origin - centre;
    float b = dot(oc, r.dir);
    float c = dot(oc, oc) - radius * radius;
    float h = b * b - c;
    if (h < 0.0) return -1.0;
    return -b - sqrt(h);
}

void swapIfGreater(inout float a, inout float b)
{
    if (a > b) {
        float t = a;
        a = b;
        b = t;
    }
}

bool closest(Ray r, out float t, out int which)
{
    t = 1e30;
    which = -1;
    for (int s = 0; s < 4; ++s) {
        float h = sphereHit(r, vec3(float(s) * 2.0, 0.0, 5.0), 1.0);
        if (h > 0.0 && h < t) {
            t = h;
            which = s;
        }
    }
    return which >= 0;
}

void main()
{
    uint id = gl_GlobalInvocationID.x;
    Ray r = Ray(vec3(0.0), normalize(data[id].xyz));
    float t;
    int which;
    float lo = data[id].w, hi = 1.0;
    swapIfGreater(lo, hi);
    if (closest(r, t, which)) {
        data[id] = vec4(r.origin + r.dir * t, float(which) + lo);
    } else {
        data[id] = vec4(hi);
    }
}
