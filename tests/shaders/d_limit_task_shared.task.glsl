#version 460
#extension GL_EXT_mesh_shader : require

// Refused: 32772 bytes of task shared memory (limit 32768), next to a
// payload at its own limit (16384 bytes). tests/limits.rs also compiles it
// with the array one word shorter: both at their limits.
layout(local_size_x = 32) in;

taskPayloadSharedEXT uint payload[4096];
shared uint words[8193];

void main()
{
    uint i = gl_LocalInvocationIndex;
    words[i] = i;
    barrier();
    payload[i] = words[31u - i];
    EmitMeshTasksEXT(1, 1, 1);
}
