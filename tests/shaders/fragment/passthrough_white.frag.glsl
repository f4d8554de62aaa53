#version 460

// Reference runner: for mesh shaders without a Location-0 output, covered
// pixels become opaque white (the clear colour is 0, so coverage stays visible).
layout(location = 0) out vec4 result;

void main()
{
    result = vec4(1.0);
}
