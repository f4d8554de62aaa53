//! The random program generator. Programs are well defined by
//! construction: the printer guards every partial operation, loops run a
//! constant number of times, barriers and subgroup shuffles sit at the top
//! level of main (uniform control flow), other subgroup operations at most
//! inside an `if` there, every invocation writes only its own output words
//! and shared slot, and atomics only combine commutative operations into
//! slots of their own kind whose old values are never read.

use crate::ast::{
    AtomOp, BinOp, CmpOp, Expr, Func, MeshShape, Program, SgOp, Stage, Stmt, TaskShape, Topology,
    Ty, UnOp,
};
use crate::cost;

/// SplitMix64: a small, fixed, seedable generator.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// Where a statement is generated.
#[derive(Clone, Copy)]
struct Place {
    /// At the top level of main (uniform control flow).
    top: bool,
    /// Directly inside an `if` at main's top level.
    top_if: bool,
    in_loop: bool,
    in_helper: bool,
    depth: u32,
}

struct Gen<'a> {
    rng: &'a mut Rng,
    /// Helpers generated so far (callable): parameter and return types.
    sigs: Vec<(Vec<Ty>, Ty)>,
    /// The function being generated.
    vars: Vec<Ty>,
    arrays: u32,
    counters: Vec<u32>,
    next_counter: u32,
    full_subgroups: bool,
    statements: u32,
    /// The return type of the helper being generated.
    pending_ret: Ty,
    config: Config,
}

/// What the generator may produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Conditions that are constants (`false`, `(3u - 3u) > 0u`): dead and
    /// always-taken branches. On by default; off to look past the bugs
    /// they trigger.
    pub constant_conditions: bool,
    /// Which kind of program.
    pub kind: Kind,
}

/// The shader kinds the generator writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Compute,
    /// A mesh shader drawn without a task shader.
    Mesh,
    /// A task shader and the mesh shader it launches.
    Task,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            constant_conditions: true,
            kind: Kind::Compute,
        }
    }
}

/// A random program from `seed`.
pub fn program(seed: u64) -> Program {
    program_with(seed, Config::default())
}

/// The most work a generated workgroup may do ([`cost::workgroup_cost`]):
/// seed 65's program, at 1.9 million, took 8.3 million simulated
/// warp-instructions, past the oracle's step limit of 2 million
/// (`run::SIM_STEPS`); 250,000 keeps well-defined programs several times
/// under it. About 2% of programs go over and are drawn again.
pub const WORK_BUDGET: u64 = 250_000;

/// A random program from `seed` under `config`: the first one the seed's
/// random stream gives whose work stays within [`WORK_BUDGET`].
pub fn program_with(seed: u64, config: Config) -> Program {
    let mut rng = Rng::new(seed);
    loop {
        let p = match config.kind {
            Kind::Compute => attempt(&mut rng, config, false),
            Kind::Mesh => {
                let mut p = attempt(&mut rng, config, true);
                p.stage = Stage::Mesh(mesh_shape(&mut rng, p.invocations(), None));
                p
            }
            Kind::Task => {
                let mut task = attempt(&mut rng, config, true);
                let mut mesh = attempt(&mut rng, config, true);
                mesh.groups = 1;
                let behind = Some(task.invocations());
                mesh.stage = Stage::Mesh(mesh_shape(&mut rng, mesh.invocations(), behind));
                task.stage = Stage::Task(TaskShape {
                    emit: 1 + rng.below(3) as u32,
                    fewer_in_odd_groups: rng.chance(30),
                    mesh: Box::new(mesh),
                });
                task
            }
        };
        if fits(&p) {
            return p;
        }
    }
}

/// Whether `p`'s work (a task's: its own plus its mesh workgroups')
/// stays within [`WORK_BUDGET`].
fn fits(p: &Program) -> bool {
    let own = cost::workgroup_cost(p);
    let launched = match &p.stage {
        Stage::Task(t) => cost::workgroup_cost(&t.mesh).saturating_mul(u64::from(t.emit)),
        Stage::Compute | Stage::Mesh(_) => 0,
    };
    own.saturating_add(launched) <= WORK_BUDGET
}

/// A mesh shader's outputs for a workgroup of `n` invocations.
fn mesh_shape(rng: &mut Rng, n: u32, behind_task: Option<u32>) -> MeshShape {
    let topology = rng.pick(&[Topology::Points, Topology::Lines, Topology::Triangles]);
    // Sometimes fewer outputs than invocations, sometimes several each.
    let vertices = 1 + rng.below(u64::from(n.max(2) * 2).min(96)) as u32;
    let primitives = 1 + rng.below(u64::from(n.max(2) * 2).min(96)) as u32;
    let max_vertices = vertices + rng.pick(&[0u32, 0, 1, 7]);
    let max_primitives = primitives + rng.pick(&[0u32, 0, 3]);
    MeshShape {
        topology,
        max_vertices,
        max_primitives,
        vertices,
        primitives,
        fewer_in_odd_groups: vertices > 1 && primitives > 1 && rng.chance(30),
        counts_late: rng.chance(30),
        rot: rng.below(u64::from(vertices)) as u32,
        behind_task,
    }
}

/// 1 to 128 invocations in any shape (task and mesh workgroups), a third
/// of them over 32 (one warp running logical subgroups).
fn mesh_workgroup_size(rng: &mut Rng) -> [u32; 3] {
    let total = match rng.below(3) {
        0 => rng.pick(&[1u32, 2, 3, 5, 8, 13, 16, 24, 31]),
        1 => 32,
        _ => rng.pick(&[33u32, 40, 48, 60, 64, 72, 96, 100, 120, 128]),
    };
    split(rng, total)
}

fn attempt(rng: &mut Rng, config: Config, mesh: bool) -> Program {
    let size = if mesh {
        mesh_workgroup_size(rng)
    } else {
        workgroup_size(rng)
    };
    let n: u32 = size.iter().product();
    let groups = if mesh {
        1 + rng.below(3) as u32
    } else if n <= 256 && rng.chance(30) {
        2
    } else {
        1
    };
    let mut g = Gen {
        rng,
        sigs: Vec::new(),
        vars: Vec::new(),
        arrays: 0,
        counters: Vec::new(),
        next_counter: 0,
        full_subgroups: n.is_multiple_of(32),
        statements: 0,
        pending_ret: Ty::U32,
        config,
    };
    let nhelpers = g.rng.below(3) as usize;
    let mut helpers = Vec::new();
    for _ in 0..nhelpers {
        let f = g.helper();
        g.sigs
            .push((f.params.clone(), f.ret.as_ref().map_or(Ty::U32, |r| r.0)));
        helpers.push(f);
    }
    let main = g.main();
    Program {
        size,
        groups,
        helpers,
        main,
        stage: Stage::Compute,
    }
}

/// 1 to 1024 invocations in any shape, most of them small.
fn workgroup_size(rng: &mut Rng) -> [u32; 3] {
    let total = match rng.below(10) {
        0..=3 => rng.pick(&[1u32, 2, 3, 5, 8, 13, 16, 24, 31, 32]),
        4..=7 => rng.pick(&[33u32, 40, 48, 64, 96, 100, 128]),
        8 => rng.pick(&[192u32, 256, 320, 512]),
        _ => rng.pick(&[768u32, 1000, 1024]),
    };
    split(rng, total)
}

/// `total` invocations split over x, y, z by its factors.
fn split(rng: &mut Rng, total: u32) -> [u32; 3] {
    let mut dims = [total, 1, 1];
    for _ in 0..2 {
        let i = rng.below(3) as usize;
        let j = rng.below(3) as usize;
        if i != j {
            for f in [2u32, 3, 5] {
                if dims[i].is_multiple_of(f) && rng.chance(50) {
                    dims[i] /= f;
                    dims[j] *= f;
                }
            }
        }
    }
    // Vulkan guarantees only 64 invocations along z
    // (maxComputeWorkGroupSize[2]); glslang refuses more. Move factors of
    // z to x (x may reach the 1,024 of the total).
    while dims[2] > 64 {
        let f = (2..=dims[2])
            .find(|&f| dims[2].is_multiple_of(f))
            .expect("a number above 1 has a prime factor");
        dims[2] /= f;
        dims[0] *= f;
    }
    dims
}

impl Gen<'_> {
    fn ty(&mut self) -> Ty {
        let r = self.rng.below(100);
        match r {
            0..=29 => Ty::U32,
            30..=44 => Ty::I32,
            45..=49 => Ty::U8,
            50..=54 => Ty::I8,
            55..=59 => Ty::U16,
            60..=64 => Ty::I16,
            65..=71 => Ty::U64,
            72..=77 => Ty::I64,
            78..=83 => Ty::F32,
            84..=87 => Ty::F64,
            88..=91 => Ty::UV2,
            92..=95 => Ty::IV3,
            96..=98 => Ty::V4,
            _ => Ty::Bool,
        }
    }

    fn helper(&mut self) -> Func {
        let nparams = 1 + self.rng.below(3) as usize;
        let params: Vec<Ty> = (0..nparams).map(|_| self.ty()).collect();
        let ret = self.ty();
        self.pending_ret = ret;
        self.vars = params.clone();
        // Set before the initialisers, which may read the arrays.
        self.arrays = u32::from(self.rng.chance(30));
        let nlocals = self.rng.below(3) as usize;
        let mut inits = Vec::new();
        for _ in 0..nlocals {
            let t = self.ty();
            let e = self.expr(t, 2);
            self.vars.push(t);
            inits.push(e);
        }
        self.counters.clear();
        self.statements = 0;
        let place = Place {
            top: false,
            top_if: false,
            in_loop: false,
            in_helper: true,
            depth: 0,
        };
        let body = {
            let k = 2 + self.rng.below(5) as u32;
            self.block(place, k)
        };
        let r = self.expr(ret, 3);
        Func {
            params,
            vars: self.vars.clone(),
            inits,
            arrays: self.arrays,
            body,
            ret: Some((ret, r)),
        }
    }

    fn main(&mut self) -> Func {
        self.vars.clear();
        let nvars = 3 + self.rng.below(5) as usize;
        let mut inits = Vec::new();
        // v0 is always a uint (shared memory and subgroup results).
        for i in 0..nvars {
            let t = if i == 0 { Ty::U32 } else { self.ty() };
            let e = self.input_init(t, i as u32);
            self.vars.push(t);
            inits.push(e);
        }
        self.arrays = self.rng.below(2) as u32;
        self.counters.clear();
        self.statements = 0;
        let place = Place {
            top: true,
            top_if: false,
            in_loop: false,
            in_helper: false,
            depth: 0,
        };
        let body = {
            let k = 4 + self.rng.below(10) as u32;
            self.block(place, k)
        };
        Func {
            params: Vec::new(),
            vars: self.vars.clone(),
            inits,
            arrays: self.arrays,
            body,
            ret: None,
        }
    }

    /// A main variable's initial value from the input buffer.
    fn input_init(&mut self, t: Ty, i: u32) -> Expr {
        let word = || Box::new(Expr::Input(i % 8));
        let word2 = || Box::new(Expr::Input((i + 3) % 8));
        match t {
            Ty::U32 => Expr::Input(i % 8),
            Ty::U8 | Ty::I8 | Ty::U16 | Ty::I16 | Ty::I32 => Expr::Conv(t, Ty::U32, word()),
            Ty::U64 | Ty::I64 => Expr::Bin(
                BinOp::Or,
                t,
                Box::new(Expr::Bin(
                    BinOp::Shl,
                    t,
                    Box::new(Expr::Conv(t, Ty::U32, word())),
                    Box::new(Expr::Lit(t, 32)),
                )),
                Box::new(Expr::Conv(t, Ty::U32, word2())),
            ),
            // Integers of up to 16 bits over 8: exact, moderate floats.
            Ty::F32 | Ty::F64 => Expr::Bin(
                BinOp::Mul,
                t,
                Box::new(Expr::Conv(
                    t,
                    Ty::I32,
                    Box::new(Expr::Conv(
                        Ty::I32,
                        Ty::I16,
                        Box::new(Expr::Conv(Ty::I16, Ty::U32, word())),
                    )),
                )),
                Box::new(Expr::Lit(t, 0.125f64.to_bits())),
            ),
            Ty::Bool => Expr::Cmp(
                CmpOp::Ne,
                Ty::U32,
                Box::new(Expr::Bin(
                    BinOp::And,
                    Ty::U32,
                    word(),
                    Box::new(Expr::Lit(Ty::U32, 1)),
                )),
                Box::new(Expr::Lit(Ty::U32, 0)),
            ),
            Ty::UV2 => Expr::Splat(t, word()),
            Ty::IV3 => Expr::Splat(t, Box::new(Expr::Conv(Ty::I32, Ty::U32, word()))),
            Ty::V4 => Expr::Splat(t, Box::new(self.input_init(Ty::F32, i))),
        }
    }

    fn block(&mut self, place: Place, n: u32) -> Vec<Stmt> {
        let mut v = Vec::new();
        for _ in 0..n {
            if self.statements > 60 {
                break;
            }
            self.statements += 1;
            v.push(self.stmt(place));
        }
        v
    }

    fn var_of(&mut self, pred: impl Fn(Ty) -> bool) -> Option<u32> {
        let c: Vec<u32> = (0..self.vars.len() as u32)
            .filter(|&i| pred(self.vars[i as usize]))
            .collect();
        (!c.is_empty()).then(|| self.rng.pick(&c))
    }

    fn stmt(&mut self, place: Place) -> Stmt {
        let nested = Place {
            top: false,
            top_if: false,
            depth: place.depth + 1,
            ..place
        };
        let deep = place.depth >= 3;
        loop {
            match self.rng.below(22) {
                0..=6 => {
                    let v = self.rng.below(self.vars.len() as u64) as u32;
                    let t = self.vars[v as usize];
                    return Stmt::Assign(v, self.expr(t, 3));
                }
                7 if self.arrays > 0 => {
                    let a = self.rng.below(u64::from(self.arrays)) as u32;
                    let i = self.expr(Ty::U32, 2);
                    return Stmt::ArrStore(a, i, self.expr(Ty::U32, 3));
                }
                8..=10 if !deep => {
                    let c = self.cond();
                    let inner = Place {
                        top_if: place.top,
                        ..nested
                    };
                    let t = {
                        let k = 1 + self.rng.below(3) as u32;
                        self.block(inner, k)
                    };
                    let e = if self.rng.chance(40) {
                        {
                            let k = 1 + self.rng.below(2) as u32;
                            self.block(inner, k)
                        }
                    } else {
                        Vec::new()
                    };
                    return Stmt::If(c, t, e);
                }
                11 | 12 if !deep => {
                    let id = self.next_counter;
                    self.next_counter += 1;
                    let n = 1 + self.rng.below(6) as u32;
                    self.counters.push(id);
                    let k = 1 + self.rng.below(4) as u32;
                    let body = self.block(
                        Place {
                            in_loop: true,
                            ..nested
                        },
                        k,
                    );
                    self.counters.pop();
                    return Stmt::Loop(id, n, body);
                }
                13 if place.in_loop => return Stmt::Break(self.cond()),
                14 if place.in_loop => return Stmt::Continue(self.cond()),
                15 if !deep => {
                    let sel = self.expr(Ty::U32, 2);
                    let ncases = 1 + self.rng.below(3);
                    let mut labels: Vec<u32> = Vec::new();
                    let mut cases = Vec::new();
                    for _ in 0..ncases {
                        let l = self.rng.below(8) as u32;
                        if labels.contains(&l) {
                            continue;
                        }
                        labels.push(l);
                        let body = {
                            let k = 1 + self.rng.below(2) as u32;
                            self.block(nested, k)
                        };
                        cases.push((l, body, self.rng.chance(25)));
                    }
                    let default = {
                        let k = self.rng.below(2) as u32;
                        self.block(nested, k)
                    };
                    return Stmt::Switch(sel, cases, default);
                }
                16 if place.in_helper => {
                    let ret = self.current_ret();
                    let c = self.cond();
                    return Stmt::Return(c, self.expr(ret, 2));
                }
                17 => {
                    let op = self.rng.pick(&[
                        AtomOp::Add,
                        AtomOp::Or,
                        AtomOp::Xor,
                        AtomOp::And,
                        AtomOp::Min,
                        AtomOp::Max,
                    ]);
                    let slot = self.expr(Ty::U32, 2);
                    return Stmt::Atomic(op, slot, self.expr(Ty::U32, 2));
                }
                18 if place.top => {
                    if let Some(v) = self.var_of(|t| t == Ty::U32) {
                        let e = self.expr(Ty::U32, 3);
                        let rot = self.rng.below(40) as u32;
                        return Stmt::Shared(v, e, rot);
                    }
                }
                19 | 20 if place.top || place.top_if => {
                    if let Some(v) = self.var_of(|t| t == Ty::U32) {
                        let mut ops = vec![
                            SgOp::Add,
                            SgOp::Min,
                            SgOp::Max,
                            SgOp::And,
                            SgOp::Or,
                            SgOp::Xor,
                            SgOp::InclusiveAdd,
                            SgOp::ExclusiveAdd,
                            SgOp::BroadcastFirst,
                            SgOp::Ballot,
                            SgOp::Elect,
                            SgOp::All,
                            SgOp::Any,
                        ];
                        if place.top && self.full_subgroups {
                            let m = 1 + self.rng.below(31) as u32;
                            ops.push(SgOp::ShuffleXor(m));
                        }
                        let op = self.rng.pick(&ops);
                        return Stmt::Subgroup(v, op, self.expr(Ty::U32, 2));
                    }
                }
                21 if place.in_helper || !self.sigs.is_empty() => {
                    let v = self.rng.below(self.vars.len() as u64) as u32;
                    let t = self.vars[v as usize];
                    return Stmt::Assign(v, self.expr(t, 3));
                }
                _ => {}
            }
        }
    }

    fn current_ret(&self) -> Ty {
        self.pending_ret
    }

    fn cond(&mut self) -> Expr {
        let pick = self.rng.below(10);
        if !self.config.constant_conditions {
            return self.expr(Ty::Bool, 3);
        }
        match pick {
            // Constant conditions: dead or always-taken branches.
            0 => Expr::Lit(Ty::Bool, self.rng.below(2)),
            1 => {
                let a = self.rng.below(4);
                Expr::Cmp(
                    CmpOp::Gt,
                    Ty::U32,
                    Box::new(Expr::Bin(
                        BinOp::Sub,
                        Ty::U32,
                        Box::new(Expr::Lit(Ty::U32, a)),
                        Box::new(Expr::Lit(Ty::U32, a)),
                    )),
                    Box::new(Expr::Lit(Ty::U32, 0)),
                )
            }
            _ => self.expr(Ty::Bool, 3),
        }
    }

    fn lit(&mut self, t: Ty) -> Expr {
        let bits = match t {
            Ty::F32 | Ty::F64 | Ty::V4 => {
                let v = (self.rng.below(513) as f64 - 256.0) * 0.25;
                v.to_bits()
            }
            Ty::Bool => self.rng.below(2),
            _ => {
                let w = t.elem().width();
                let m = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
                match self.rng.below(6) {
                    0 => 0,
                    1 => 1,
                    2 => m,
                    3 if t.is_signed() => 1u64 << (w - 1),
                    3 => m >> 1,
                    _ => self.rng.below(64),
                }
            }
        };
        let bits = if t.is_signed() && t.lanes() == 1 {
            let w = t.width();
            // Sign-extend so printing shows the negative value.
            let sh = 64 - w;
            (((bits << sh) as i64) >> sh) as u64
        } else {
            bits
        };
        Expr::Lit(t, bits)
    }

    /// An expression of type `t`.
    fn expr(&mut self, t: Ty, depth: u32) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(t);
        }
        let d = depth - 1;
        let bx = |e: Expr| Box::new(e);
        match t {
            Ty::Bool => match self.rng.below(4) {
                0 => {
                    let op = self.rng.pick(&[BinOp::LAnd, BinOp::LOr, BinOp::LXor]);
                    Expr::Bin(op, t, bx(self.expr(t, d)), bx(self.expr(t, d)))
                }
                1 => Expr::Un(UnOp::Not, t, bx(self.expr(t, d))),
                _ => {
                    let ct = self.rng.pick(&[
                        Ty::U32,
                        Ty::I32,
                        Ty::U8,
                        Ty::I16,
                        Ty::U64,
                        Ty::I64,
                        Ty::F32,
                        Ty::F64,
                    ]);
                    let op = self.rng.pick(&[
                        CmpOp::Lt,
                        CmpOp::Le,
                        CmpOp::Gt,
                        CmpOp::Ge,
                        CmpOp::Eq,
                        CmpOp::Ne,
                    ]);
                    Expr::Cmp(op, ct, bx(self.expr(ct, d)), bx(self.expr(ct, d)))
                }
            },
            _ => match self.rng.below(12) {
                0..=5 => {
                    let ops: &[BinOp] = if t.is_float() || t == Ty::V4 {
                        &[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Min, BinOp::Max]
                    } else {
                        &[
                            BinOp::Add,
                            BinOp::Sub,
                            BinOp::Mul,
                            BinOp::Div,
                            BinOp::Mod,
                            BinOp::And,
                            BinOp::Or,
                            BinOp::Xor,
                            BinOp::Shl,
                            BinOp::Shr,
                            BinOp::Min,
                            BinOp::Max,
                        ]
                    };
                    let op = self.rng.pick(ops);
                    Expr::Bin(op, t, bx(self.expr(t, d)), bx(self.expr(t, d)))
                }
                6 => {
                    let ops: &[UnOp] = if t.is_float() || t == Ty::V4 {
                        &[
                            UnOp::Neg,
                            UnOp::Abs,
                            UnOp::Floor,
                            UnOp::Ceil,
                            UnOp::Trunc,
                            UnOp::Fract,
                        ]
                    } else if t.is_signed() {
                        &[UnOp::Neg, UnOp::BitNot, UnOp::Abs]
                    } else {
                        &[UnOp::Neg, UnOp::BitNot]
                    };
                    let op = self.rng.pick(ops);
                    Expr::Un(op, t, bx(self.expr(t, d)))
                }
                7 if t.lanes() == 1 => {
                    let from = self.rng.pick(Ty::SCALARS);
                    if from == t || (from == Ty::Bool && t.is_float()) {
                        return self.expr(t, d);
                    }
                    Expr::Conv(t, from, bx(self.expr(from, d)))
                }
                8 => {
                    let c = self.expr(Ty::Bool, d);
                    Expr::Select(t, bx(c), bx(self.expr(t, d)), bx(self.expr(t, d)))
                }
                9 if t == Ty::U32 && self.arrays > 0 => {
                    let a = self.rng.below(u64::from(self.arrays)) as u32;
                    Expr::Arr(a, bx(self.expr(Ty::U32, d)))
                }
                10 if t.lanes() == 1 => {
                    let vt = match t {
                        Ty::U32 => Ty::UV2,
                        Ty::I32 => Ty::IV3,
                        Ty::F32 => Ty::V4,
                        _ => return self.leaf(t),
                    };
                    let c = self.rng.below(u64::from(vt.lanes())) as u8;
                    Expr::Comp(vt, bx(self.expr(vt, d)), c)
                }
                10 => Expr::Splat(t, bx(self.expr(t.elem(), d))),
                11 => {
                    let c: Vec<usize> = (0..self.sigs.len())
                        .filter(|&i| self.sigs[i].1 == t)
                        .collect();
                    if c.is_empty() {
                        return self.leaf(t);
                    }
                    let n = self.rng.pick(&c);
                    let params = self.sigs[n].0.clone();
                    let args = params.iter().map(|p| self.expr(*p, d.min(1))).collect();
                    Expr::Call(n as u32, args)
                }
                _ => self.leaf(t),
            },
        }
    }

    fn leaf(&mut self, t: Ty) -> Expr {
        if t == Ty::Bool && !self.config.constant_conditions {
            // A bool that is not a constant: a variable or a comparison
            // with the invocation index.
            if let Some(v) = self.var_of(|x| x == Ty::Bool) {
                return Expr::Var(v);
            }
            return Expr::Cmp(
                CmpOp::Lt,
                Ty::U32,
                Box::new(Expr::Lid),
                Box::new(self.lit(Ty::U32)),
            );
        }
        if t == Ty::U32 && !self.counters.is_empty() && self.rng.chance(25) {
            return Expr::Counter(self.rng.pick(&self.counters.clone()));
        }
        if t == Ty::U32 && self.rng.chance(10) {
            return Expr::Lid;
        }
        if self.rng.chance(65)
            && let Some(v) = self.var_of(|x| x == t)
        {
            return Expr::Var(v);
        }
        self.lit(t)
    }
}
