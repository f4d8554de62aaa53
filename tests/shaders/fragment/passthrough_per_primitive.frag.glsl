#version 460
#extension GL_EXT_mesh_shader : require

// Reference runner: writes the mesh shader's per-primitive Location-0 colour
// (declared perprimitiveEXT there, so it must be here too) into the image.
layout(location = 0) perprimitiveEXT in vec4 colour;
layout(location = 0) out vec4 result;

void main()
{
    result = colour;
}
