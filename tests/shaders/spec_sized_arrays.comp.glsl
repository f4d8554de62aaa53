#version 450
// OpSpecConstantOp IMul/IAdd sizing a shared and a private array.
layout(constant_id = 0) const uint N = 4;
layout(constant_id = 1) const int K = 3;
const uint M = N * 2u + 1u;
layout(local_size_x = 16) in;
layout(binding = 0) buffer Data { uint o[]; } d;
shared uint tmp[M];
void main() { uint arr[M]; for (uint j = 0; j < M; j++) arr[j] = j * uint(K); uint i = gl_LocalInvocationIndex; if (i < M) tmp[i] = arr[i]; barrier(); d.o[i] = i < M ? tmp[M - 1u - i] : M; }
