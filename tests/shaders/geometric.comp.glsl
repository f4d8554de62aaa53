#version 460

// Geometric functions, as lighting code uses them.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Normals { vec4 n[]; };
layout(std430, binding = 1) buffer Lights { vec4 l[]; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec3 N = normalize(n[id].xyz);
    vec3 L = l[id].xyz;
    vec3 I = -L;
    float diffuse = max(dot(N, normalize(L)), 0.0);
    vec3 R = reflect(I, N);
    vec3 T = refract(I, N, 1.0 / 1.33);
    vec3 F = faceforward(N, I, N);
    vec3 tangent = cross(N, vec3(0.0, 1.0, 0.0));
    n[id] = vec4(R + T + F + tangent * diffuse, length(L) + distance(N, L));
}
