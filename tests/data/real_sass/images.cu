// Image, texel-buffer and surface instructions as NVIDIA's compiler emits them, for
// docs/ISA.md and the encoding tests of the image ops (see README.md for the command).
#include <cstdint>
#include <cuda_runtime.h>

// Texel buffer fetch (GLSL texelFetch on a samplerBuffer): TLD.
__global__ void k_texel_buffer(cudaTextureObject_t t, cudaTextureObject_t ti, float4* out, int4* iout) {
    int i = threadIdx.x;
    out[i] = tex1Dfetch<float4>(t, i * 3);
    iout[i] = tex1Dfetch<int4>(ti, i + 7);
}

// Filtered lookups: explicit LOD, gradients, layers, 3D, cube, gather.
__global__ void k_sample(cudaTextureObject_t t2, cudaTextureObject_t t3, cudaTextureObject_t tc,
                         cudaTextureObject_t ta, float4* out, const float* c) {
    int i = threadIdx.x;
    float x = c[i], y = c[i + 32], z = c[i + 64], l = c[i + 96];
    float4 r = tex2DLod<float4>(t2, x, y, l);
    float4 a = tex2D<float4>(t2, x, y);
    float4 g = tex2DGrad<float4>(t2, x, y, make_float2(l, 0.f), make_float2(0.f, l));
    float4 v = tex3DLod<float4>(t3, x, y, z, l);
    float4 cu = texCubemapLod<float4>(tc, x, y, z, l);
    float4 la = tex2DLayeredLod<float4>(ta, x, y, i & 3, l);
    float4 ga = tex2Dgather<float4>(t2, x, y, 1);
    out[i] = r;
    out[i + 32] = a;
    out[i + 64] = g;
    out[i + 96] = v;
    out[i + 128] = cu;
    out[i + 160] = la;
    out[i + 192] = ga;
}

// Integer-coordinate fetches with and without LOD, and size queries (PTX tex/txq).
__global__ void k_fetch_query(cudaTextureObject_t t2, float4* out, int* q) {
    int i = threadIdx.x;
    float a, b, c, d;
    asm volatile("tex.2d.v4.f32.s32 {%0,%1,%2,%3}, [%4, {%5,%6}];"
                 : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(t2), "r"(i), "r"(i >> 2));
    out[i] = make_float4(a, b, c, d);
    asm volatile("tex.level.2d.v4.f32.s32 {%0,%1,%2,%3}, [%4, {%5,%6}], %7;"
                 : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(t2), "r"(i), "r"(i >> 2), "r"(2));
    out[i + 32] = make_float4(a, b, c, d);
    int w, h, lv;
    asm volatile("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t2));
    asm volatile("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t2));
    asm volatile("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(lv) : "l"(t2));
    q[i] = w + h * 3 + lv * 7;
}

// Storage images: loads, stores, reductions and size queries: SULD, SUST, SURED, SUQUERY.
__global__ void k_surface(cudaSurfaceObject_t s2, cudaSurfaceObject_t s1, cudaSurfaceObject_t s3,
                          float* out, int* q) {
    int x = threadIdx.x, y = blockIdx.x;
    float4 p = surf2Dread<float4>(s2, x * 16, y);
    unsigned u = surf1Dread<unsigned>(s1, x * 4);
    surf2Dwrite(make_float4(p.y, p.x, p.w, p.z), s2, x * 16, y + 1);
    surf1Dwrite(u + 1u, s1, x * 4 + 128);
    surf3Dwrite(p.x, s3, x * 4, y, 2);
    unsigned char b = surf2Dread<unsigned char>(s2, x, y, cudaBoundaryModeZero);
    asm volatile("sured.b.add.2d.u32.trap [%0, {%1,%2}], %3;" :: "l"(s2), "r"(x * 4), "r"(y), "r"(7u));
    int w;
    asm volatile("suq.width.b32 %0, [%1];" : "=r"(w) : "l"(s2));
    out[x] = p.x + (float)u + (float)b;
    q[x] = w;
}
