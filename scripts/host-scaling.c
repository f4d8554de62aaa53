// How far the CPU of a machine scales by itself, to read the simulator's
// multi-thread figures against (BENCHMARKS.md, "The GPU host's own
// scaling"). Weak scaling: T threads (1, 2, 4, 8, 12, 16) each run the same
// fixed loop; the wall time over one thread's gives the machine's
// aggregate speed-up for that kind of work:
//   mode 0  128-bit SIMD: eight chains of FMA and integer multiply/xor/shift
//           (what the native tier's code is made of: Cranelift's 4-lane
//           vectors), latency-bound
//   mode 1  256-bit FMA, eight independent chains: throughput-bound
//   mode 2  scalar integer hash with a branch (the interpreter's kind)
//   mode 3  pairwise: two threads pinned to CPUs a and b, mode 1's loop,
//           time over one thread's (about 2 where a and b share a core)
// Build and run (any x86-64 with AVX2 and FMA):
//   gcc -O2 -mavx2 -mfma -pthread scripts/host-scaling.c -o /tmp/host-scaling
//   for m in 0 1 2; do /tmp/host-scaling $m 60000000; done; /tmp/host-scaling 3 20000000
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long iters;
static int mode;
static volatile float sink;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void fma256(void) {
    __m256 x[8];
    for (int i = 0; i < 8; i++) x[i] = _mm256_set1_ps(1.0f + i * 1e-3f);
    __m256 m = _mm256_set1_ps(0.9999f), c = _mm256_set1_ps(1e-4f);
    for (long n = 0; n < iters; n++)
        for (int i = 0; i < 8; i++) x[i] = _mm256_fmadd_ps(x[i], m, c);
    float s = 0;
    for (int i = 0; i < 8; i++) s += _mm256_cvtss_f32(x[i]);
    sink = s;
}

static void *work(void *arg) {
    if (mode == 3) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((int)(long)arg, &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set);
        fma256();
    } else if (mode == 0) {
        __m128 x[8];
        __m128i y[8];
        for (int i = 0; i < 8; i++) {
            x[i] = _mm_set1_ps(1.0f + i * 1e-3f);
            y[i] = _mm_set1_epi32(i + 1);
        }
        __m128 m = _mm_set1_ps(0.9999f), c = _mm_set1_ps(1e-4f);
        __m128i k = _mm_set1_epi32((int)0x9e3779b9);
        for (long n = 0; n < iters; n++)
            for (int i = 0; i < 8; i++) {
                x[i] = _mm_fmadd_ps(x[i], m, c);
                y[i] = _mm_xor_si128(_mm_mullo_epi32(y[i], k), _mm_srli_epi32(y[i], 7));
            }
        float s = 0;
        for (int i = 0; i < 8; i++) s += _mm_cvtss_f32(x[i]) + _mm_cvtsi128_si32(y[i]);
        sink = s;
    } else if (mode == 1) {
        fma256();
    } else {
        unsigned h = 1;
        for (long n = 0; n < iters * 8; n++) {
            h = h * 2654435761u + (h >> 13);
            if (h & 1) h ^= 0x5bd1e995;
        }
        sink = h;
    }
    return 0;
}

static double run(const int *cpus, int n) {
    pthread_t th[64];
    double t0 = now();
    for (int i = 0; i < n; i++) pthread_create(&th[i], 0, work, (void *)(long)cpus[i]);
    for (int i = 0; i < n; i++) pthread_join(th[i], 0);
    return now() - t0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODE ITERATIONS\n", argv[0]);
        return 2;
    }
    mode = atoi(argv[1]);
    iters = atol(argv[2]);
    int cpus[64];
    for (int i = 0; i < 64; i++) cpus[i] = i;
    if (mode == 3) {
        run(cpus, 1);
        double t1 = run(cpus, 1);
        printf("one thread on cpu 0: %.3f s\n", t1);
        for (int a = 0; a < 16; a++) {
            printf("cpu %2d:", a);
            for (int b = 0; b < 16; b++) {
                int pair[2] = {a, b};
                if (b == a) printf("     -");
                else printf(" %5.2f", run(pair, 2) / t1);
            }
            printf("\n");
        }
        double t16 = run(cpus, 16);
        printf("16 pinned: aggregate speed-up %.2f\n", 16 * t1 / t16);
        return 0;
    }
    const int ts[] = {1, 2, 4, 8, 12, 16};
    double t1 = 0;
    for (int j = 0; j < 6; j++) {
        double dt = run(cpus, ts[j]);
        if (j == 0) t1 = dt;
        printf("mode %d threads %2d wall %.3f s aggregate speed-up %.2f\n", mode, ts[j], dt,
               ts[j] * t1 / dt);
    }
    return 0;
}
