#!/usr/bin/env python3
# Where a run's wall time goes (BENCHMARKS.md, "Serial time of a 16-thread
# run"): rounds of interleaved runs of `--version`, `compile`, and the ALU
# kernel's dispatch shape with one loop iteration (tiny) at 1 and 16 threads
# (and with FULL=1 the size, 16384 iterations), each timed from
# this process (fork, exec and exit included) and stamped by the binary
# (SPVSASS_PHASES, sim/src/phases.rs). Prints the median of each stamp, in
# milliseconds since `main` started, and writes OUT.txt and the raw
# OUT.json. The first round is a warm-up and is not counted.
#
#   scripts/run-phases.py SPVSASS KERNEL.spv OUT [ROUNDS]
#   e.g. taskset -c 0-15 scripts/run-phases.py target/release/spvsass \
#            benches/data/alu_heavy.comp.spv /tmp/phases 40
import json, os, shutil, statistics, subprocess, sys, tempfile, time
B, K, out = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 30
work = tempfile.mkdtemp(prefix='run-phases-')
open(os.path.join(work, 'one'), 'wb').write((1).to_bytes(4, 'little'))
open(os.path.join(work, 'full'), 'wb').write((16384).to_bytes(4, 'little'))
def run(push):
    return [B, 'run', K, '--groups', '256', '--buffer', '0=65536', '--push',
            os.path.join(work, push), '--tier', 'native', '--check-ctrl=off',
            '--out', '0=' + os.path.join(work, 'out.bin'), '--stats']
configs = [
    ('version1', ['1'], [B, '--version']),
    ('compile1', ['1'], [B, 'compile', K]),
    ('tiny1', ['1'], run('one')),
    ('tiny16', ['16'], run('one')),
]
if os.environ.get('FULL'):
    configs += [('full1', ['1'], run('full')), ('full16', ['16'], run('full'))]
data = {c[0]: {'wall': []} for c in configs}
for r in range(rounds):
    for name, (t,), cmd in configs:
        env = dict(os.environ, RAYON_NUM_THREADS=t, SPVSASS_PHASES='1')
        # Each run writes a new output, as in bench-native.sh: replacing
        # the last one would add the file system's freeing of the old
        # file (about 0.5 ms on ext4) to the run.
        try:
            os.unlink(os.path.join(work, 'out.bin'))
        except FileNotFoundError:
            pass
        t0 = time.perf_counter()
        p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = (time.perf_counter() - t0) * 1e3
        if r == 0:
            continue  # warm-up round
        d = data[name]
        d['wall'].append(wall)
        for line in p.stderr.splitlines():
            w = line.split()
            if w and w[0] == 'phase':
                d.setdefault(w[1], []).append(float(w[2]))
            if line.startswith('simulated'):
                d.setdefault('sim', []).append(float(line.split(' in ')[1].split()[0]))
            if 'translated' in line and ' in ' in line:
                d.setdefault('translate', []).append(float(line.split(' in ')[1].split()[0]))
lines = []
for name, d in data.items():
    med = {k: statistics.median(v) for k, v in d.items() if v}
    lines.append(name + ': ' + ', '.join(f'{k} {v:.3f}' for k, v in med.items()))
    if 'committed' in med:
        lines.append(f'   outside main (exec, loader, exit, spawn): {med["wall"] - med["committed"]:.3f} ms')
open(out + '.txt', 'w').write('\n'.join(lines) + '\n')
json.dump(data, open(out + '.json', 'w'))
print('\n'.join(lines))
shutil.rmtree(work)
