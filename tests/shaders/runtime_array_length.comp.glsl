#version 460

// Runtime arrays at the end of std430 blocks, with .length() and explicit
// member offsets.
layout(local_size_x = 64) in;

struct Particle { vec3 position; float life; vec3 velocity; uint flags; };
layout(std430, binding = 0) buffer Particles { uint alive; layout(offset = 16) Particle particles[]; };
layout(std430, binding = 1) buffer Scratch { float weights[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint n = uint(particles.length());
    if (i >= n) return;
    Particle p = particles[i];
    p.position += p.velocity * 0.016;
    p.life -= 0.016;
    particles[i] = p;
    weights[i % uint(weights.length())] = p.life;
    if (p.life > 0.0) atomicAdd(alive, 1u);
}
