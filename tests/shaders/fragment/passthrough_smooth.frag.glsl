#version 460

// Reference runner: writes the mesh shader's per-vertex Location-0 colour,
// interpolated (smooth, perspective-correct), into the RGBA32F image.
layout(location = 0) in vec4 colour;
layout(location = 0) out vec4 result;

void main()
{
    result = colour;
}
