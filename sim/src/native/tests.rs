//! The native tier against the interpreter on random programs: straight
//! runs and counted loops of ALU ops drawn from the op table (translated
//! ones, and a few the interpreter keeps, so the two hand over to each
//! other), with guards, immediates, constant-bank operands, forward
//! branches that split the warp and step limits that cut a run short.
//! Both tiers start from the same registers; the register file, the
//! predicates, the counters and the outcome (stop or error) must be equal.

use crate::SimOptions;
use crate::counters::Counters;
use crate::error::SimError;
use crate::exec_row::tests::{EDGES, INT_EDGES};
use crate::isbe::Isbe;
use crate::memory::{Resources, WorkgroupMemory};
use crate::native::{Handover, Tier};
use crate::program::Program;
use crate::warp::{Env, Launch, RZ, Row, Stop, Warp};
use proptest::prelude::*;
use spvsass_isa::isa::*;
use spvsass_isa::program::{INSTR_BYTES, encode};
use spvsass_isa::target::Arch;

/// Registers the random ops read and write; R10 / P5 count loops.
const DATA_REGS: u8 = 8;
const LOOP_REG: u8 = 10;
const LOOP_PRED: u8 = 5;

fn r(n: u8) -> Src {
    Src::reg(Reg::Phys(n))
}

fn d(n: u8) -> Dst {
    Dst::Reg(Reg::Phys(n))
}

fn cbuf(offset: u16) -> Src {
    Src {
        src: SrcRef::CBuf { bank: 0, offset },
        neg: false,
        abs: false,
    }
}

fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        proptest::sample::select(INT_EDGES.to_vec()),
        proptest::sample::select(EDGES.to_vec()),
        any::<u32>(),
    ]
}

/// A register (mostly), RZ, an immediate or a constant-bank word: the
/// second source slot, which takes every form.
fn any_src() -> impl Strategy<Value = Src> {
    prop_oneof![
        6 => (0..DATA_REGS).prop_map(r),
        1 => Just(Src::ZERO),
        2 => word().prop_map(Src::imm),
        1 => (0u16..4).prop_map(|i| cbuf(4 * i)),
    ]
}

/// An immediate the translation multiplies by with a shift (and an add or
/// subtract: `emit::times`), or one beside those: 0, 1, 2^k and 2^k ± 1,
/// up to 2^31 and 2^32 - 1.
fn multiplier() -> impl Strategy<Value = Src> {
    (0u32..32, -2i64..=2)
        .prop_map(|(k, d)| Src::imm(((1i64 << k) + d).clamp(0, i64::from(u32::MAX)) as u32))
}

/// A register or RZ: the first and third slots.
fn reg_src() -> impl Strategy<Value = Src> {
    prop_oneof![6 => (0..DATA_REGS).prop_map(r), 1 => Just(Src::ZERO)]
}

/// Float modifiers on a source.
fn float(s: impl Strategy<Value = Src>) -> impl Strategy<Value = Src> {
    (s, any::<bool>(), any::<bool>()).prop_map(|(s, neg, abs)| Src { neg, abs, ..s })
}

fn pred() -> impl Strategy<Value = PredSrc> {
    prop_oneof![
        4 => ((0u8..4), any::<bool>()).prop_map(|(n, neg)| PredSrc { reg: Some(Reg::Phys(n)), neg }),
        1 => Just(PredSrc::TRUE),
        1 => Just(FALSE),
    ]
}

fn pdst() -> impl Strategy<Value = Dst> {
    (0u8..4).prop_map(d)
}

fn gdst() -> impl Strategy<Value = Dst> {
    prop_oneof![8 => (0..DATA_REGS).prop_map(d), 1 => Just(Dst::None)]
}

fn combine() -> impl Strategy<Value = PredCombine> {
    proptest::sample::select(PredCombine::ALL.to_vec())
}

/// One ALU op of the op table, its operands random.
fn alu_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (gdst(), any_src()).prop_map(|(dst, src)| Op::Mov(OpMov { dst, src })),
        (gdst(), reg_src(), any_src(), reg_src(), any::<[bool; 3]>()).prop_map(
            |(dst, a, b, c, neg)| {
                let srcs = [a, b, c];
                let srcs = std::array::from_fn(|i| Src {
                    neg: neg[i],
                    ..srcs[i]
                });
                Op::IAdd3(OpIAdd3 { dst, srcs })
            }
        ),
        (
            gdst(),
            reg_src(),
            prop_oneof![2 => any_src(), 1 => multiplier()],
            reg_src(),
            any::<bool>()
        )
            .prop_map(|(dst, a, b, c, signed)| Op::IMad(OpIMad {
                dst,
                srcs: [a, b, c],
                signed
            })),
        (gdst(), reg_src(), any_src(), reg_src(), any::<u8>()).prop_map(|(dst, a, b, c, lut)| {
            Op::Lop3(OpLop3 {
                dst,
                srcs: [a, b, c],
                lut,
            })
        }),
        (
            gdst(),
            reg_src(),
            prop_oneof![3 => (0u32..40).prop_map(Src::imm), 1 => reg_src()],
            reg_src(),
            any::<[bool; 3]>()
        )
            .prop_map(|(dst, a, b, c, [right, wrap, high])| Op::Shf(OpShf {
                dst,
                srcs: [a, b, c],
                right,
                wrap,
                high
            })),
        (
            pdst(),
            proptest::sample::select(IntCmp::ALL.to_vec()),
            any::<bool>(),
            combine(),
            reg_src(),
            any_src(),
            pred()
        )
            .prop_map(
                |(dst, cmp, signed, combine, a, b, accum)| Op::ISetP(OpISetP {
                    dst,
                    cmp,
                    signed,
                    combine,
                    srcs: [a, b],
                    accum
                })
            ),
        (
            pdst(),
            proptest::sample::select(FloatCmp::ALL.to_vec()),
            combine(),
            any::<bool>(),
            float(reg_src()),
            float(any_src()),
            pred()
        )
            .prop_map(|(dst, cmp, combine, ftz, a, b, accum)| Op::FSetP(OpFSetP {
                dst,
                cmp,
                combine,
                ftz,
                srcs: [a, b],
                accum
            })),
        (
            gdst(),
            proptest::sample::select(vec![FloatArith::Add, FloatArith::Mul, FloatArith::Fma]),
            float(reg_src()),
            float(any_src()),
            float(reg_src()),
            any::<bool>(),
            prop_oneof![6 => Just(Round::Rn), 1 => proptest::sample::select(Round::ALL.to_vec())]
        )
            .prop_map(|(dst, kind, a, b, c, ftz, rnd)| {
                let c = if kind == FloatArith::Fma {
                    c
                } else {
                    Src::ZERO
                };
                Op::FArith(OpFArith {
                    kind,
                    dst,
                    srcs: [a, b, c],
                    ftz,
                    rnd,
                })
            }),
        (gdst(), reg_src(), any_src(), pred()).prop_map(|(dst, a, b, cond)| Op::Sel(OpSel {
            dst,
            srcs: [a, b],
            cond
        })),
        (gdst(), reg_src(), any_src(), any::<bool>(), pred()).prop_map(
            |(dst, a, b, signed, min)| {
                Op::IMnMx(OpIMnMx {
                    dst,
                    srcs: [a, b],
                    signed,
                    min,
                })
            }
        ),
        (
            gdst(),
            float(reg_src()),
            float(any_src()),
            any::<bool>(),
            pred()
        )
            .prop_map(|(dst, a, b, ftz, min)| Op::FMnMx(OpFMnMx {
                dst,
                srcs: [a, b],
                ftz,
                min
            })),
        (gdst(), float(reg_src()), float(any_src()), pred()).prop_map(
            |(dst, a, b, cond)| Op::FSel(OpFSel {
                dst,
                srcs: [a, b],
                cond
            })
        ),
        (gdst(), any_src(), any::<bool>(), any::<bool>()).prop_map(|(dst, src, i2f, signed)| {
            let kind = if i2f {
                ConvKind::IntToFloat
            } else {
                ConvKind::FloatToInt
            };
            Op::Conv(OpConv {
                kind,
                dst,
                src,
                signed,
            })
        }),
        (
            gdst(),
            float(any_src()),
            any::<bool>(),
            proptest::sample::select(Round::ALL.to_vec())
        )
            .prop_map(|(dst, src, ftz, rnd)| Op::Frnd(OpFrnd { dst, src, rnd, ftz })),
        (gdst(), any_src()).prop_map(|(dst, src)| Op::IAbs(OpIAbs { dst, src })),
        // Left to the interpreter.
        (gdst(), any_src()).prop_map(|(dst, src)| Op::Bit(OpBit {
            dst,
            src,
            op: BitOp::Popc
        })),
    ]
}

/// An instruction: an ALU op, mostly unguarded.
fn instr() -> impl Strategy<Value = Instr> {
    (alu_op(), prop_oneof![3 => Just(PredSrc::TRUE), 1 => pred()]).prop_map(|(op, guard)| Instr {
        guard,
        ..Instr::new(op)
    })
}

/// A body of ALU ops, with a forward branch on a random predicate (which
/// may split the warp) at `branch.0` skipping `branch.1` instructions.
fn body() -> impl Strategy<Value = (Vec<Instr>, Option<(usize, usize, PredSrc)>)> {
    (
        proptest::collection::vec(instr(), 1..24),
        proptest::option::of((any::<prop::sample::Index>(), 1usize..4, pred())),
    )
        .prop_map(|(body, branch)| {
            let branch = branch.map(|(at, skip, p)| (at.index(body.len()), skip, p));
            (body, branch)
        })
}

/// The instructions of a program: `body` (with its branch), run `loops`
/// times when `loops > 0`, then EXIT.
fn program(body: &[Instr], branch: Option<(usize, usize, PredSrc)>, loops: u32) -> Vec<Instr> {
    let mut out = Vec::new();
    if loops > 0 {
        out.push(Instr::new(Op::Mov(OpMov {
            dst: d(LOOP_REG),
            src: Src::imm(loops),
        })));
    }
    let head = out.len();
    let bra_at = |n: usize| n as u32 * INSTR_BYTES;
    let body_start = out.len();
    for (i, ins) in body.iter().enumerate() {
        if let Some((at, skip, p)) = branch
            && at == i
        {
            // The target is inside the body or just after it.
            let target = body_start + i + 1 + skip.min(body.len() - i);
            out.push(Instr {
                guard: p,
                ..Instr::new(Op::Bra(OpBra {
                    target: Target::Addr(bra_at(target)),
                }))
            });
        }
        out.push(*ins);
    }
    if loops > 0 {
        out.push(Instr::new(Op::IAdd3(OpIAdd3 {
            dst: d(LOOP_REG),
            srcs: [r(LOOP_REG), Src::imm(u32::MAX), Src::ZERO],
        })));
        out.push(Instr::new(Op::ISetP(OpISetP {
            dst: d(LOOP_PRED),
            cmp: IntCmp::Ne,
            signed: false,
            combine: PredCombine::And,
            srcs: [r(LOOP_REG), Src::ZERO],
            accum: PredSrc::TRUE,
        })));
        out.push(Instr {
            guard: PredSrc::reg(Reg::Phys(LOOP_PRED)),
            ..Instr::new(Op::Bra(OpBra {
                target: Target::Addr(bra_at(head)),
            }))
        });
    }
    out.push(Instr::new(Op::Exit));
    out
}

/// A loop whose trip count differs from lane to lane (1 to 8 rounds, from
/// the low bits of R`count_reg`) around an if/else on a random predicate,
/// both inside convergence regions (BSSY / BSYNC), as the compiler lays
/// out divergent control flow: the warp splits at the if, at the loop's
/// exit and at `then`'s own forward branch, and meets again at the BSYNCs.
///
/// ```text
///         LOP3 R10 = R[count_reg] & 7 ; IADD3 R10 += 1
///         BSSY B0, exit
/// head:   ISETP.NE P5 = R10 != 0
///         @!P5 BRA exit
///         BSSY B1, join
///         @p BRA else
///         then (with its branch) ; BRA join
/// else:   otherwise
/// join:   BSYNC B1
///         IADD3 R10 -= 1 ; BRA head
/// exit:   BSYNC B0
///         EXIT
/// ```
fn divergent(
    then: &[Instr],
    branch: Option<(usize, usize, PredSrc)>,
    otherwise: &[Instr],
    p: PredSrc,
    count_reg: u8,
) -> Vec<Instr> {
    let at = |n: usize| Target::Addr(n as u32 * INSTR_BYTES);
    let bra = |guard: PredSrc, n: usize| Instr {
        guard,
        ..Instr::new(Op::Bra(OpBra { target: at(n) }))
    };
    let then = program(then, branch, 0);
    let then = &then[..then.len() - 1];
    let mut out = vec![
        Instr::new(Op::Lop3(OpLop3 {
            dst: d(LOOP_REG),
            srcs: [r(count_reg), Src::imm(7), Src::ZERO],
            lut: 0xc0,
        })),
        Instr::new(Op::IAdd3(OpIAdd3 {
            dst: d(LOOP_REG),
            srcs: [r(LOOP_REG), Src::imm(1), Src::ZERO],
        })),
    ];
    let head = out.len() + 1;
    let else_at = head + 4 + then.len() + 1;
    let join = else_at + otherwise.len();
    let exit = join + 3;
    // Branch targets inside `then` are relative to its start.
    let then_start = head + 4;
    out.push(Instr::new(Op::Bssy(OpBssy {
        bar: 0,
        target: at(exit),
    })));
    out.push(Instr::new(Op::ISetP(OpISetP {
        dst: d(LOOP_PRED),
        cmp: IntCmp::Ne,
        signed: false,
        combine: PredCombine::And,
        srcs: [r(LOOP_REG), Src::ZERO],
        accum: PredSrc::TRUE,
    })));
    out.push(bra(
        PredSrc {
            reg: Some(Reg::Phys(LOOP_PRED)),
            neg: true,
        },
        exit,
    ));
    out.push(Instr::new(Op::Bssy(OpBssy {
        bar: 1,
        target: at(join),
    })));
    out.push(bra(p, else_at));
    for ins in then {
        let mut ins = *ins;
        if let Op::Bra(OpBra {
            target: Target::Addr(t),
        }) = &mut ins.op
        {
            *t += then_start as u32 * INSTR_BYTES;
        }
        out.push(ins);
    }
    out.push(bra(PredSrc::TRUE, join));
    out.extend_from_slice(otherwise);
    out.push(Instr::new(Op::Bsync(OpBsync { bar: 1 })));
    out.push(Instr::new(Op::IAdd3(OpIAdd3 {
        dst: d(LOOP_REG),
        srcs: [r(LOOP_REG), Src::imm(u32::MAX), Src::ZERO],
    })));
    out.push(bra(PredSrc::TRUE, head));
    out.push(Instr::new(Op::Bsync(OpBsync { bar: 0 })));
    out.push(Instr::new(Op::Exit));
    out
}

/// The state both tiers start from.
#[derive(Clone, Debug)]
pub(super) struct Start {
    gpr: Vec<Row>,
    preds: [u32; 7],
    consts: [u32; 4],
}

fn start() -> impl Strategy<Value = Start> {
    (
        proptest::collection::vec(proptest::array::uniform32(word()), DATA_REGS as usize),
        any::<[u32; 7]>(),
        proptest::array::uniform4(word()),
    )
        .prop_map(|(gpr, preds, consts)| Start { gpr, preds, consts })
}

/// What a run ends with.
#[derive(Debug, PartialEq)]
pub(super) struct End {
    outcome: Result<Stop, SimError>,
    gpr: Vec<Row>,
    preds: [u32; 7],
    counters: Counters,
}

/// Runs `program` on a warp of `lanes` lanes from `start` in `tier`; also
/// returns the warp-instructions run natively.
fn run(program: &Program, start: &Start, lanes: u32, max_steps: u64, tier: Tier) -> (End, u64) {
    run_with(program, start, lanes, max_steps, tier, Handover::Wait)
}

/// `run` with the native code handed over as `handover` says.
fn run_with(
    program: &Program,
    start: &Start,
    lanes: u32,
    max_steps: u64,
    tier: Tier,
    handover: Handover,
) -> (End, u64) {
    // Random programs with unscheduled control bits: the checker would
    // stop them (and keep the native tier from running).
    let options = SimOptions {
        max_steps,
        tier,
        handover,
        check_ctrl: false,
        ..SimOptions::default()
    };
    run_options(program, start, lanes, &options)
}

/// `run` with all of `options`.
pub(super) fn run_options(
    program: &Program,
    start: &Start,
    lanes: u32,
    options: &SimOptions,
) -> (End, u64) {
    let mut resources = Resources::default();
    let bank: Vec<u8> = start.consts.iter().flat_map(|w| w.to_le_bytes()).collect();
    resources.constants.set(0, bank);
    let launch = Launch {
        workgroup_size: [lanes, 1, 1],
        workgroup_id: [0; 3],
    };
    let mut isbe = Isbe::new(0, 0, 0);
    let mut local = WorkgroupMemory::new(&resources, lanes);
    let Resources {
        global,
        constants,
        textures,
        ..
    } = &mut resources;
    let mut env = Env {
        launch: &launch,
        isbe: &mut isbe,
        global,
        local: &mut local,
        textures: *textures,
    };
    let mut warp = Warp::new(lanes, 0, false, constants);
    for (row, init) in warp.gpr.iter_mut().zip(&start.gpr) {
        *row = *init;
    }
    warp.preds = start.preds;
    let mut counters = Counters::default();
    let outcome = warp.run(program, &mut env, options, &mut counters);
    let native = std::mem::take(&mut counters.native_warp_instructions);
    let end = End {
        outcome,
        gpr: warp.gpr[..RZ].to_vec(),
        preds: warp.preds,
        counters,
    };
    (end, native)
}

/// Decodes `instrs` (through the encoder, as a compiled program arrives).
pub(super) fn decoded(instrs: &[Instr]) -> Option<Program> {
    let code = encode(instrs, Arch::DEFAULT).ok()?;
    Program::decode(&code, Arch::DEFAULT).ok()
}

/// Both tiers from `start`; returns the native share. The native tier
/// runs twice: translated as one function (one worker thread) and in
/// pieces (`compile::split`, as with eight), with the same results and
/// the same share.
fn same_on_both(program: &Program, start: &Start, lanes: u32, max_steps: u64) -> u64 {
    let (interp, none) = run(program, start, lanes, max_steps, Tier::Interp);
    let one = program.clone();
    let (native, share) = workers(1).install(|| run(&one, start, lanes, max_steps, Tier::Native));
    let pieces = program.clone();
    let (split, split_share) =
        workers(8).install(|| run(&pieces, start, lanes, max_steps, Tier::Native));
    assert_eq!(none, 0);
    // Every op the generator draws translates (or is left to the
    // interpreter by `select`): Cranelift refuses none.
    for p in [&one, &pieces] {
        let error = p.native_stats().and_then(|s| s.error);
        assert_eq!(error, None, "{:#?}", program.instrs());
    }
    assert_eq!(native, interp, "{:#?}", program.instrs());
    assert_eq!(split, interp, "in pieces: {:#?}", program.instrs());
    assert_eq!(split_share, share, "in pieces: {:#?}", program.instrs());
    share
}

/// A pool of `n` worker threads (made once per size): the translation
/// splits by the current pool's size.
fn workers(n: usize) -> &'static rayon::ThreadPool {
    static POOLS: [std::sync::OnceLock<rayon::ThreadPool>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    POOLS[usize::from(n > 1)].get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("a thread pool")
    })
}

const CASES: u32 = 200;

proptest! {
    // About a third of the random programs do not encode (operand forms
    // the encoder refuses) and are drawn again.
    #![proptest_config(ProptestConfig {
        cases: CASES,
        max_global_rejects: 20 * CASES,
        ..ProptestConfig::default()
    })]

    #[test]
    fn straight_runs_match_the_interpreter(
        (body, branch) in body(),
        start in start(),
        lanes in prop_oneof![4 => Just(32u32), 1 => 1u32..32],
        max_steps in prop_oneof![4 => Just(10_000u64), 1 => 1u64..40],
    ) {
        let instrs = program(&body, branch, 0);
        let Some(program) = decoded(&instrs) else { return Err(TestCaseError::reject("not encodable")) };
        same_on_both(&program, &start, lanes, max_steps);
    }

    #[test]
    fn loops_match_the_interpreter(
        (body, branch) in body(),
        start in start(),
        loops in 1u32..12,
        max_steps in prop_oneof![4 => Just(100_000u64), 1 => 1u64..300],
    ) {
        let instrs = program(&body, branch, loops);
        let Some(program) = decoded(&instrs) else { return Err(TestCaseError::reject("not encodable")) };
        same_on_both(&program, &start, 32, max_steps);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: CASES / 2,
        max_global_rejects: 20 * CASES,
        ..ProptestConfig::default()
    })]

    #[test]
    fn divergent_loops_match_the_interpreter(
        (then, branch) in body(),
        otherwise in proptest::collection::vec(instr(), 1..12),
        p in pred(),
        count_reg in 0..DATA_REGS,
        start in start(),
        lanes in prop_oneof![4 => Just(32u32), 1 => 1u32..32],
        max_steps in prop_oneof![4 => Just(100_000u64), 1 => 1u64..400],
    ) {
        let instrs = divergent(&then, branch, &otherwise, p, count_reg);
        let Some(program) = decoded(&instrs) else { return Err(TestCaseError::reject("not encodable")) };
        same_on_both(&program, &start, lanes, max_steps);
    }
}

/// A loop of translated ops runs natively almost entirely, with the same
/// result, on a full warp and on a warp of 16 lanes.
#[test]
fn a_converged_loop_runs_natively() {
    let body = [imad(), shf(), ffma()];
    let program = decoded(&program(&body, None, 50)).expect("encodable");
    let start = lane_start(1, 7);
    let native = same_on_both(&program, &start, 32, 100_000);
    let (end, _) = run(&program, &start, 32, 100_000, Tier::Interp);
    let total = end.counters.warp_instructions;
    // Everything but the EXIT.
    assert_eq!(native, total - 1, "{native} of {total}");
    assert_eq!(same_on_both(&program, &start, 16, 100_000), total - 1);
}

/// A program with a constant-bank operand outside its bank runs on the
/// interpreter (which reports the fault at that instruction) in both
/// tiers.
#[test]
fn a_bad_constant_is_reported_by_the_interpreter() {
    let body = [Instr::new(Op::IAdd3(OpIAdd3 {
        dst: d(0),
        srcs: [r(0), cbuf(0x400), Src::ZERO],
    }))];
    let program = decoded(&program(&body, None, 3)).expect("encodable");
    let start = Start {
        gpr: vec![[1; 32]; DATA_REGS as usize],
        preds: [0; 7],
        consts: [0; 4],
    };
    let (end, _) = run(&program, &start, 32, 1000, Tier::Native);
    assert!(
        matches!(end.outcome, Err(SimError::Memory { pc: 0x10, .. })),
        "{:?}",
        end.outcome
    );
    same_on_both(&program, &start, 32, 1000);
}

/// The divergent loop runs natively but for the EXIT: its splits and
/// meetings, BSSYs and BSYNCs included, whatever the lanes' trip counts.
#[test]
fn a_divergent_loop_runs_natively() {
    let then = [Instr::new(Op::IMad(OpIMad {
        dst: d(0),
        srcs: [r(0), r(1), r(2)],
        signed: false,
    }))];
    let otherwise = [Instr::new(Op::Lop3(OpLop3 {
        dst: d(1),
        srcs: [r(1), r(0), Src::ZERO],
        lut: 0x3c,
    }))];
    // P0 holds in the even lanes: the if splits every warp.
    let program = decoded(&divergent(
        &then,
        None,
        &otherwise,
        PredSrc::reg(Reg::Phys(0)),
        3,
    ))
    .expect("encodable");
    let start = Start {
        gpr: (0..DATA_REGS)
            .map(|n| std::array::from_fn(|l| (l as u32 * 5 + 1) * (u32::from(n) + 3)))
            .collect(),
        preds: [0x5555_5555, 0, 0, 0, 0, 0, 0],
        consts: [0; 4],
    };
    for lanes in [32, 13] {
        let native = same_on_both(&program, &start, lanes, 100_000);
        let (end, _) = run(&program, &start, lanes, 100_000, Tier::Interp);
        let total = end.counters.warp_instructions;
        assert_eq!(native, total - 1, "{lanes} lanes: {native} of {total}");
    }
}

/// `R0 = R0·R1 + R2`.
fn imad() -> Instr {
    Instr::new(Op::IMad(OpIMad {
        dst: d(0),
        srcs: [r(0), r(1), r(2)],
        signed: false,
    }))
}

/// `R1 = R0 >> 3`.
fn shf() -> Instr {
    Instr::new(Op::Shf(OpShf {
        dst: d(1),
        srcs: [r(0), Src::imm(3), Src::ZERO],
        right: true,
        wrap: false,
        high: false,
    }))
}

/// `R3 = R3·0.998 + R4`.
fn ffma() -> Instr {
    Instr::new(Op::FArith(OpFArith {
        kind: FloatArith::Fma,
        dst: d(3),
        srcs: [r(3), Src::imm(0x3f7f_be77), r(4)],
        ftz: false,
        rnd: Round::Rn,
    }))
}

/// A loop body of an IMAD and an FFMA on registers 0..4.
pub(super) fn imad_fma() -> [Instr; 2] {
    [imad(), ffma()]
}

/// Registers whose lane `l` of register `n` holds `(l + a)·(n + b)`, no
/// predicates or constants set.
pub(super) fn lane_start(a: u32, b: u32) -> Start {
    Start {
        gpr: (0..DATA_REGS)
            .map(|n| std::array::from_fn(|l| (l as u32 + a) * (u32::from(n) + b)))
            .collect(),
        preds: [0; 7],
        consts: [0; 4],
    }
}

/// The native code taken at a later safe point than the warp's start (a
/// back edge of the loop, after some safe points asked for it) gives
/// the interpreter's results: the warp runs part of the loop in the
/// interpreter and the rest natively. So does the code translated on a
/// thread of its own.
#[test]
fn a_late_hand_over_gives_the_same_results() {
    let body = imad_fma();
    let instrs = program(&body, None, 40);
    let start = lane_start(3, 5);
    let fresh = || decoded(&instrs).expect("encodable");
    let (interp, _) = run(&fresh(), &start, 32, 100_000, Tier::Interp);
    let total = interp.counters.warp_instructions;
    let mut shares = Vec::new();
    for handover in [
        Handover::Wait,
        Handover::AfterChecks(0),
        Handover::AfterChecks(3),
        Handover::AfterChecks(12),
        Handover::AfterChecks(1000),
        Handover::Background,
    ] {
        let (native, share) = run_with(&fresh(), &start, 32, 100_000, Tier::Native, handover);
        assert_eq!(native, interp, "{handover:?}");
        shares.push(share);
    }
    // Early: all but the EXIT natively; later: less; never: none.
    assert_eq!(shares[0], total - 1);
    assert_eq!(shares[1], total - 1);
    assert!(
        shares[2] < shares[1] && shares[3] < shares[2] && shares[3] > 0,
        "{shares:?}"
    );
    assert_eq!(shares[4], 0);
}

/// The instructions of a loop as the compiler lays it out: the head
/// tests the count and branches out, the body (with its branch) ends in
/// an unconditional BRA back to the head (`segments::merge_jumps` takes
/// the head into the body's segment).
///
/// ```text
///         MOV R10 = loops
/// head:   ISETP.NE P5 = R10 != 0
///         @!P5 BRA exit
///         body ; IADD3 R10 -= 1
///         BRA head
/// exit:   EXIT
/// ```
pub(super) fn headed_loop(
    body: &[Instr],
    branch: Option<(usize, usize, PredSrc)>,
    loops: u32,
) -> Vec<Instr> {
    let straight = program(body, branch, 0);
    let body = &straight[..straight.len() - 1];
    let head = 1;
    let exit = head + 2 + body.len() + 2;
    let bra = |target: usize, guard: PredSrc| Instr {
        guard,
        ..Instr::new(Op::Bra(OpBra {
            target: Target::Addr(target as u32 * INSTR_BYTES),
        }))
    };
    let mut out = vec![
        Instr::new(Op::Mov(OpMov {
            dst: d(LOOP_REG),
            src: Src::imm(loops),
        })),
        Instr::new(Op::ISetP(OpISetP {
            dst: d(LOOP_PRED),
            cmp: IntCmp::Ne,
            signed: false,
            combine: PredCombine::And,
            srcs: [r(LOOP_REG), Src::ZERO],
            accum: PredSrc::TRUE,
        })),
        bra(
            exit,
            PredSrc {
                reg: Some(Reg::Phys(LOOP_PRED)),
                neg: true,
            },
        ),
    ];
    // The body's branch targets move with it (it starts at 3, not 0).
    for ins in body {
        let mut ins = *ins;
        if let Op::Bra(OpBra {
            target: Target::Addr(t),
        }) = &mut ins.op
        {
            *t += 3 * INSTR_BYTES;
        }
        out.push(ins);
    }
    out.push(Instr::new(Op::IAdd3(OpIAdd3 {
        dst: d(LOOP_REG),
        srcs: [r(LOOP_REG), Src::imm(u32::MAX), Src::ZERO],
    })));
    out.push(bra(head, PredSrc::TRUE));
    out.push(Instr::new(Op::Exit));
    out
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: CASES / 2,
        max_global_rejects: 20 * CASES,
        ..ProptestConfig::default()
    })]

    #[test]
    fn headed_loops_match_the_interpreter(
        (body, branch) in body(),
        start in start(),
        loops in 0u32..12,
        per_lane in proptest::option::of(0..DATA_REGS),
        lanes in prop_oneof![4 => Just(32u32), 1 => 1u32..32],
        max_steps in prop_oneof![4 => Just(100_000u64), 1 => 1u64..300],
    ) {
        let mut instrs = headed_loop(&body, branch, loops);
        // Trip counts from a register's low bits: lanes leave apart.
        if let Some(reg) = per_lane {
            instrs[0] = per_lane_count(reg);
        }
        let Some(program) = decoded(&instrs) else { return Err(TestCaseError::reject("not encodable")) };
        same_on_both(&program, &start, lanes, max_steps);
    }
}

/// `R10 = R[reg] & 7`: a loop count that differs from lane to lane.
pub(super) fn per_lane_count(reg: u8) -> Instr {
    Instr::new(Op::Lop3(OpLop3 {
        dst: d(LOOP_REG),
        srcs: [r(reg), Src::imm(7), Src::ZERO],
        lut: 0xc0,
    }))
}

/// A loop in the compiler's layout (one merged segment per iteration)
/// whose lanes leave it after different counts: the warp splits at the
/// head's branch inside the merged segment, on a full warp whose lanes
/// leave in one chunk, in several, or all at once, and with a step limit
/// inside the loop: the interpreter's results.
#[test]
fn a_loop_whose_lanes_leave_apart() {
    let body = [imad(), shf()];
    let mut instrs = headed_loop(&body, None, 0);
    instrs[0] = per_lane_count(3);
    let program = decoded(&instrs).expect("encodable");
    let counts: [fn(usize) -> u32; 4] = [
        |l| if l == 13 { 2 } else { 6 },
        |l| (l % 8) as u32,
        |l| 7 - (l / 4) as u32,
        |_| 5,
    ];
    for count in counts {
        let start = Start {
            gpr: (0..DATA_REGS)
                .map(|n| {
                    std::array::from_fn(|l| match n {
                        3 => count(l),
                        _ => (l as u32 + 2) * (u32::from(n) + 9),
                    })
                })
                .collect(),
            preds: [0; 7],
            consts: [0; 4],
        };
        same_on_both(&program, &start, 32, 100_000);
        same_on_both(&program, &start, 32, 40);
    }
}

/// A loop in the compiler's layout is one segment per iteration: the
/// body's segment takes the head in (its jump back, then the head's test
/// and branch out), runs natively but for the EXIT, and gives the
/// interpreter's results, on a full warp and on 16 lanes, and where the
/// step limit cuts it at every point of an iteration.
#[test]
fn a_headed_loop_is_one_segment() {
    let body = imad_fma();
    let instrs = headed_loop(&body, None, 30);
    let segs = super::segments::segments(&instrs, super::host());
    // The MOV, the head (ISETP, BRA out) and the body (two ops, IADD3,
    // BRA, and the head again).
    let shapes: Vec<(usize, usize)> = segs.list.iter().map(|s| (s.start, s.len())).collect();
    assert_eq!(shapes, [(0, 1), (1, 2), (3, 6)]);
    let merged = &segs.list[2];
    assert!(matches!(merged.alu[3], (6, super::segments::Step::Jump, _)));
    assert!(matches!(
        merged.alu[4],
        (1, super::segments::Step::Alu(_), _)
    ));
    assert!(matches!(
        merged.bra,
        Some((2, super::segments::End::Bra(_), _))
    ));
    assert_eq!(merged.last_pc(), 6 * INSTR_BYTES);
    assert_eq!(segs.instructions(), 7);

    let program = decoded(&instrs).expect("encodable");
    let start = lane_start(2, 9);
    let (end, _) = run(&program, &start, 32, 100_000, Tier::Interp);
    let total = end.counters.warp_instructions;
    assert_eq!(same_on_both(&program, &start, 32, 100_000), total - 1);
    assert_eq!(same_on_both(&program, &start, 16, 100_000), total - 1);
    // In pieces the MOV and the head are cut from the loop (its back
    // edge stays inside): two functions per copy.
    let pieces = program.clone();
    let (_, native) = workers(8).install(|| run(&pieces, &start, 32, 1000, Tier::Native));
    assert_eq!(native, total - 1);
    // A full warp that stays converged: the full-warp copy's alone.
    let stats = pieces.native_stats().expect("translated");
    assert_eq!((stats.segments, stats.functions, stats.copies), (3, 2, 1));
    let one = program.clone();
    workers(1).install(|| run(&one, &start, 32, 1000, Tier::Native));
    assert_eq!(one.native_stats().map(|s| s.functions), Some(1));
    for max_steps in 1..20 {
        same_on_both(&program, &start, 32, max_steps);
    }
}

/// The fewer-lanes copy is translated only when a group of fewer lanes
/// first runs natively: a converged full warp never makes it (one copy,
/// on one worker thread or in pieces), while a loop whose lanes leave
/// apart and a group of 16 lanes do, with the interpreter's results.
#[test]
fn the_fewer_lanes_copy_is_made_on_demand() {
    let body = imad_fma();
    let converged = headed_loop(&body, None, 30);
    let mut apart = converged.clone();
    apart[0] = per_lane_count(1);
    let start = lane_start(2, 9);
    for (instrs, lanes, copies) in [(&converged, 32, 1), (&apart, 32, 2), (&converged, 16, 2)] {
        let program = decoded(instrs).expect("encodable");
        let (interp, _) = run(&program, &start, lanes, 100_000, Tier::Interp);
        for n in [1, 8] {
            let fresh = program.clone();
            let (native, share) =
                workers(n).install(|| run(&fresh, &start, lanes, 100_000, Tier::Native));
            let what = format!("{lanes} lanes, {n} workers: {instrs:#?}");
            assert_eq!(native, interp, "{what}");
            assert!(share > 0, "{what}");
            let stats = fresh.native_stats().expect("translated");
            assert_eq!((stats.copies, stats.error), (copies, None), "{what}");
            // On one worker thread: the full-warp copy's function, and
            // one holding both copies once fewer lanes need theirs.
            if n == 1 {
                assert_eq!(stats.functions, copies, "{what}");
            }
        }
    }
}

/// Predicates a segment writes and reads again within it, as each chunk
/// keeps them (`emit::CachedPred`): comparisons the host makes as their
/// inverse (!=, unsigned < and >) read back by a guard, a SEL, a guarded
/// ISETP that keeps the old lanes and an accumulator, and one left
/// inverted to the segment's end; on a full warp and on 16 lanes, with
/// every chunk's lanes split both ways.
#[test]
fn predicates_written_in_a_segment_are_read_back_in_it() {
    let p = |n: u8| PredSrc::reg(Reg::Phys(n));
    let setp = |dst: u8, cmp: IntCmp, a: u8, b: u8, combine: PredCombine, accum: PredSrc| {
        Instr::new(Op::ISetP(OpISetP {
            dst: d(dst),
            cmp,
            signed: false,
            combine,
            srcs: [r(a), r(b)],
            accum,
        }))
    };
    let and = PredCombine::And;
    let instrs = [
        setp(1, IntCmp::Ne, 0, 1, and, PredSrc::TRUE),
        setp(2, IntCmp::Lt, 0, 2, and, PredSrc::TRUE),
        setp(3, IntCmp::Gt, 2, 1, and, PredSrc::TRUE),
        Instr {
            guard: p(3),
            ..setp(2, IntCmp::Ne, 3, 4, and, PredSrc::TRUE)
        },
        Instr {
            guard: p(1),
            ..Instr::new(Op::IAdd3(OpIAdd3 {
                dst: d(5),
                srcs: [r(0), r(1), r(2)],
            }))
        },
        Instr::new(Op::Sel(OpSel {
            dst: d(6),
            srcs: [r(0), r(1)],
            cond: PredSrc { neg: true, ..p(2) },
        })),
        setp(4, IntCmp::Eq, 0, 2, PredCombine::Xor, p(1)),
        setp(0, IntCmp::Ne, 1, 3, and, PredSrc::TRUE),
        Instr::new(Op::Exit),
    ];
    let program = decoded(&instrs).expect("encodable");
    // Lane l: R0 = l, R1 = l with every third lane bumped, R2 = 16,
    // R3 = 7·(l mod 5), R4 = 14: every comparison holds in some lanes of
    // every chunk and fails in others.
    let start = Start {
        gpr: (0..DATA_REGS)
            .map(|n| {
                std::array::from_fn(|l| {
                    let l = l as u32;
                    match n {
                        0 => l,
                        1 => l + u32::from(l.is_multiple_of(3)),
                        2 => 16,
                        3 => 7 * (l % 5),
                        4 => 14,
                        _ => 0,
                    }
                })
            })
            .collect(),
        preds: [
            0x5555_5555,
            0x0f0f_0f0f,
            0x3333_3333,
            0xffff_0000,
            0x00ff_00ff,
            0,
            0,
        ],
        consts: [0; 4],
    };
    for lanes in [32, 16] {
        let (end, _) = run(&program, &start, lanes, 1000, Tier::Interp);
        let total = end.counters.warp_instructions;
        // Every instruction but the EXIT runs natively.
        assert_eq!(same_on_both(&program, &start, lanes, 1000), total - 1);
        // The predicates did change, in some lanes and not in others.
        for n in 0..5 {
            assert_ne!(end.preds[n], start.preds[n], "P{n}");
            assert!(end.preds[n] != 0 && end.preds[n] != u32::MAX, "P{n}");
        }
    }
}

/// Ops of uniform sources are computed once per segment in the full-warp
/// copy (`uniform.rs`, `Segment::once`); values that differ between lanes
/// must not be taken for uniform: a lane's id (S2R), and a register the
/// lanes set on different paths before they met again. Both tiers agree,
/// and the ops after the meeting point run natively.
#[test]
fn values_that_differ_between_lanes_are_not_computed_once() {
    let add = |dst: u8, a: Src, b: Src| {
        Instr::new(Op::IAdd3(OpIAdd3 {
            dst: d(dst),
            srcs: [a, b, Src::ZERO],
        }))
    };
    let mov = |dst: u8, src: Src| Instr::new(Op::Mov(OpMov { dst: d(dst), src }));
    let lane_id = Instr::new(Op::S2R(OpS2R {
        dst: d(5),
        sr: SpecialReg::LaneId,
    }));
    let instrs = [
        /* 0 */ lane_id,
        /* 1 */ add(6, r(5), Src::imm(1)),
        /* 2 */ mov(3, Src::imm(5)),
        /* 3 */
        Instr::new(Op::ISetP(OpISetP {
            dst: d(0),
            cmp: IntCmp::Lt,
            signed: false,
            combine: PredCombine::And,
            srcs: [r(5), Src::imm(13)],
            accum: PredSrc::TRUE,
        })),
        /* 4 */
        Instr {
            guard: PredSrc::reg(Reg::Phys(0)),
            ..Instr::new(Op::Bra(OpBra {
                target: Target::Addr(6 * INSTR_BYTES),
            }))
        },
        /* 5 */ mov(3, Src::imm(9)),
        /* 6 */ add(4, r(3), Src::imm(1)),
        /* 7 */ add(7, r(4), r(6)),
        /* 8 */ Instr::new(Op::Exit),
    ];
    let program = decoded(&instrs).expect("encodable");
    let start = lane_start(1, 3);
    let (end, _) = run(&program, &start, 32, 1000, Tier::Interp);
    // R4 is 10 in lanes 0..13 and 6 in the others; R6 is the lane's id + 1.
    let want: Row = std::array::from_fn(|l| if l < 13 { 6 } else { 10 });
    assert_eq!(end.gpr[4], want);
    assert!(same_on_both(&program, &start, 32, 1000) > 0);
}

/// A uniform value written by an op the full-warp copy runs per chunk (a
/// guarded MOV, under a uniform guard) and then read by an op of uniform
/// sources: that op must run per chunk too, after the write
/// (`segments::mark_once`).
#[test]
fn a_uniform_value_written_per_chunk_is_read_after_its_write() {
    let mov = |dst: u8, src: Src| Instr::new(Op::Mov(OpMov { dst: d(dst), src }));
    let instrs = [
        mov(1, Src::imm(3)),
        mov(2, Src::imm(1)),
        Instr::new(Op::ISetP(OpISetP {
            dst: d(1),
            cmp: IntCmp::Ne,
            signed: false,
            combine: PredCombine::And,
            srcs: [r(1), Src::ZERO],
            accum: PredSrc::TRUE,
        })),
        Instr {
            guard: PredSrc::reg(Reg::Phys(1)),
            ..mov(2, Src::imm(7))
        },
        Instr::new(Op::IAdd3(OpIAdd3 {
            dst: d(3),
            srcs: [r(2), Src::imm(1), Src::ZERO],
        })),
        Instr::new(Op::Exit),
    ];
    let program = decoded(&instrs).expect("encodable");
    let segs = super::segments::segments(&instrs, super::host());
    assert_eq!(segs.list[0].once, [true, true, true, false, false]);
    let start = lane_start(2, 5);
    let (end, _) = run(&program, &start, 32, 1000, Tier::Interp);
    assert_eq!(end.gpr[3], [8; 32]);
    assert_eq!(same_on_both(&program, &start, 32, 1000), 5);
}

/// Lanes that went apart and may come together again without having met
/// where `uniform::region` expects: some jump past the meeting point, or
/// wait at a BSYNC inside the region while the others run ahead of them.
/// A register the two kinds of lanes set to different values is then not
/// uniform where they are together again (the analysis gives no facts),
/// and both tiers agree.
#[test]
fn lanes_that_meet_out_of_order_are_not_taken_for_uniform() {
    let mov = |dst: u8, src: Src| Instr::new(Op::Mov(OpMov { dst: d(dst), src }));
    let bra = |guard: PredSrc, to: u32| Instr {
        guard,
        ..Instr::new(Op::Bra(OpBra {
            target: Target::Addr(to * INSTR_BYTES),
        }))
    };
    let below = |n: u32| {
        Instr::new(Op::ISetP(OpISetP {
            dst: d(0),
            cmp: IntCmp::Lt,
            signed: false,
            combine: PredCombine::And,
            srcs: [r(5), Src::imm(n)],
            accum: PredSrc::TRUE,
        }))
    };
    let plus_one = Instr::new(Op::IAdd3(OpIAdd3 {
        dst: d(4),
        srcs: [r(1), Src::imm(1), Src::ZERO],
    }));
    let lane_id = Instr::new(Op::S2R(OpS2R {
        dst: d(5),
        sr: SpecialReg::LaneId,
    }));
    let p0 = PredSrc::reg(Reg::Phys(0));
    // Lanes 13.. jump from the region (4) past the meeting point (5) to 7;
    // lanes 0..13 set R1 to 9 on the way there.
    let past = [
        /* 0 */ lane_id,
        /* 1 */ mov(1, Src::ZERO),
        /* 2 */ below(13),
        /* 3 */ bra(p0, 5),
        /* 4 */ bra(PredSrc::TRUE, 7),
        /* 5 */ mov(1, Src::imm(9)),
        /* 6 */ Instr::new(Op::Nop),
        /* 7 */ plus_one,
        /* 8 */ Instr::new(Op::Exit),
    ];
    // Lanes 13.. wait at the BSYNC (5) inside the region while lanes
    // 0..13 run on from the meeting point (8), set R1 to 9 and come back
    // to the BSYNC; all then run 6 together.
    let waits = [
        /* 0 */ lane_id,
        /* 1 */ mov(1, Src::ZERO),
        /* 2 */
        Instr::new(Op::Bssy(OpBssy {
            bar: 0,
            target: Target::Addr(5 * INSTR_BYTES),
        })),
        /* 3 */ below(13),
        /* 4 */ bra(p0, 8),
        /* 5 */ Instr::new(Op::Bsync(OpBsync { bar: 0 })),
        /* 6 */ plus_one,
        /* 7 */ Instr::new(Op::Exit),
        /* 8 */ mov(1, Src::imm(9)),
        /* 9 */ bra(PredSrc::TRUE, 5),
    ];
    let start = lane_start(1, 3);
    for (name, instrs, steps) in [("past", &past[..], 1000), ("waits", &waits[..], 1000)] {
        assert_eq!(super::uniform::facts(instrs), None, "{name}");
        let program = decoded(instrs).expect("encodable");
        let (end, _) = run(&program, &start, 32, steps, Tier::Interp);
        let want: Row = std::array::from_fn(|l| if l < 13 { 10 } else { 1 });
        assert_eq!(end.gpr[4], want, "{name}");
        same_on_both(&program, &start, 32, steps);
    }
}
