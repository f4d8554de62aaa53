#version 450
// gl_WorkGroupSize.xy with local_size_x_id/local_size_y_id: glslang emits
// OpSpecConstantOp VectorShuffle (and an IMul of the vector by 2 as a
// spec-constant operation), which rspirv's parser refuses.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(binding = 0) buffer Data { uvec2 o[]; } d;
const uvec2 twice = gl_WorkGroupSize.xy * 2u;
void main() { d.o[gl_LocalInvocationIndex] = twice + gl_LocalInvocationID.xy; }
