//! `MathOp`: GLSL.std.450 and the SPIR-V vector, matrix, bit-field and
//! extended-result instructions, component-wise where they apply.

use crate::arith::{EvalErr, from_f64, fwide, is_nan, to_f64, zero_ordered_lt};
use crate::value::{Val, mask, scalar_of, sext};
use spvsass_frontend::ir::{MathOp, Scalar, Shader, TypeId};

type R = Result<Val, EvalErr>;

fn bits_of(s: Scalar) -> u8 {
    match s {
        Scalar::Bool => 1,
        Scalar::Int { bits, .. } | Scalar::Float { bits } => bits,
    }
}

/// Applies `f` to the scalar components of the operands (all of one shape,
/// or scalars mixed with vectors where GLSL allows it).
fn each(args: &[Val], f: &mut dyn FnMut(&[u64]) -> Result<u64, EvalErr>) -> R {
    let n = args.iter().map(|a| a.parts().len()).max().unwrap_or(0);
    if n == 0 {
        let s: Vec<u64> = args.iter().map(Val::bits).collect();
        return Ok(Val::S(f(&s)?));
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let s: Vec<u64> = args
            .iter()
            .map(|a| match a {
                Val::C(v) => v.get(i).map_or(0, Val::bits),
                Val::S(b) => *b,
                Val::P(_) => 0,
            })
            .collect();
        out.push(Val::S(f(&s)?));
    }
    Ok(Val::C(out))
}

fn floats(v: &Val, bits: u8) -> Vec<f64> {
    match v {
        Val::C(c) => c.iter().map(|e| to_f64(e.bits(), bits)).collect(),
        Val::S(b) => vec![to_f64(*b, bits)],
        Val::P(_) => Vec::new(),
    }
}

fn unsupported(op: MathOp) -> EvalErr {
    EvalErr::Unsupported(format!("{op:?}"))
}

/// Evaluates `op` on `args` (whose types are `arg_tys`), giving a value of
/// type `result`.
pub fn math(shader: &Shader, op: MathOp, args: &[Val], arg_tys: &[TypeId]) -> R {
    use MathOp::*;
    let s0 = arg_tys
        .first()
        .and_then(|t| scalar_of(&shader.types[*t]))
        .unwrap_or(Scalar::F32);
    let b = bits_of(s0);
    let m = mask(b);
    let f = |x: u64| to_f64(x, b);
    let r = |x: f64| from_f64(x, b);
    match op {
        SAbs => each(args, &mut |a| Ok((sext(a[0], b).wrapping_abs() as u64) & m)),
        SSign => each(args, &mut |a| Ok((sext(a[0], b).signum() as u64) & m)),
        FSign => each(args, &mut |a| {
            let x = f(a[0]);
            Ok(r(if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }))
        }),
        Radians => each(args, &mut |a| {
            Ok(r(f(a[0]) * (std::f64::consts::PI / 180.0)))
        }),
        Degrees => each(args, &mut |a| {
            Ok(r(f(a[0]) * (180.0 / std::f64::consts::PI)))
        }),
        Tan => each(args, &mut |a| Ok(fwide(a[0], b, libm::tan))),
        Asin | Acos => each(args, &mut |a| {
            if f(a[0]).abs() > 1.0 {
                return Err(EvalErr::Undefined(format!("{op:?} of {}", f(a[0]))));
            }
            Ok(fwide(
                a[0],
                b,
                if op == Asin { libm::asin } else { libm::acos },
            ))
        }),
        Atan => each(args, &mut |a| Ok(fwide(a[0], b, libm::atan))),
        Sinh => each(args, &mut |a| Ok(fwide(a[0], b, libm::sinh))),
        Cosh => each(args, &mut |a| Ok(fwide(a[0], b, libm::cosh))),
        Tanh => each(args, &mut |a| Ok(fwide(a[0], b, libm::tanh))),
        Asinh => each(args, &mut |a| Ok(fwide(a[0], b, libm::asinh))),
        Acosh => each(args, &mut |a| {
            domain(op, f(a[0]), f(a[0]) >= 1.0)?;
            Ok(fwide(a[0], b, libm::acosh))
        }),
        Atanh => each(args, &mut |a| {
            domain(op, f(a[0]), f(a[0]).abs() < 1.0)?;
            Ok(fwide(a[0], b, libm::atanh))
        }),
        Exp => each(args, &mut |a| Ok(fwide(a[0], b, libm::exp))),
        Log => each(args, &mut |a| {
            domain(op, f(a[0]), f(a[0]) >= 0.0)?;
            Ok(fwide(a[0], b, libm::log))
        }),
        Atan2 => each(args, &mut |a| {
            domain(op, f(a[1]), f(a[0]) != 0.0 || f(a[1]) != 0.0)?;
            Ok(r(libm::atan2(f(a[0]), f(a[1]))))
        }),
        Pow => each(args, &mut |a| {
            let (x, y) = (f(a[0]), f(a[1]));
            domain(op, x, x > 0.0 || (x == 0.0 && y > 0.0))?;
            Ok(r(libm::pow(x, y)))
        }),
        Ldexp => {
            let eb = arg_tys
                .get(1)
                .and_then(|t| scalar_of(&shader.types[*t]))
                .map_or(32, bits_of);
            each(args, &mut |a| {
                Ok(r(libm::ldexp(
                    f(a[0]),
                    sext(a[1], eb).clamp(-4000, 4000) as i32,
                )))
            })
        }
        FClamp | NClamp => each(args, &mut |a| {
            let (x, lo, hi) = (f(a[0]), f(a[1]), f(a[2]));
            if op == FClamp && (x.is_nan() || lo.is_nan() || hi.is_nan()) {
                return Err(EvalErr::Undefined("FClamp of a NaN".into()));
            }
            if lo > hi {
                return Err(EvalErr::Undefined("FClamp with min > max".into()));
            }
            // NClamp of NaN gives min (GLSL.std.450).
            Ok(if x.is_nan() || zero_ordered_lt(x, lo) {
                a[1]
            } else if zero_ordered_lt(hi, x) {
                a[2]
            } else {
                a[0]
            })
        }),
        UClamp => each(args, &mut |a| {
            if a[1] > a[2] {
                return Err(EvalErr::Undefined("UClamp with min > max".into()));
            }
            Ok(a[0].clamp(a[1], a[2]))
        }),
        SClamp => each(args, &mut |a| {
            let (x, lo, hi) = (sext(a[0], b), sext(a[1], b), sext(a[2], b));
            if lo > hi {
                return Err(EvalErr::Undefined("SClamp with min > max".into()));
            }
            Ok((x.clamp(lo, hi) as u64) & m)
        }),
        FMix => each(args, &mut |a| {
            let (x, y, t) = (f(a[0]), f(a[1]), f(a[2]));
            Ok(r(x * (1.0 - t) + y * t))
        }),
        Step => each(args, &mut |a| {
            Ok(r(if f(a[1]) < f(a[0]) { 0.0 } else { 1.0 }))
        }),
        SmoothStep => each(args, &mut |a| {
            let (e0, e1, x) = (f(a[0]), f(a[1]), f(a[2]));
            let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
            Ok(r(t * t * (3.0 - 2.0 * t)))
        }),
        Fma => each(args, &mut |a| Ok(r(f(a[0]).mul_add(f(a[1]), f(a[2]))))),
        NMin | NMax => each(args, &mut |a| {
            let (x, y) = (f(a[0]), f(a[1]));
            let take_b = if op == NMin {
                zero_ordered_lt(y, x)
            } else {
                zero_ordered_lt(x, y)
            };
            let take_a = !x.is_nan() && (y.is_nan() || !take_b);
            Ok(if take_a { a[0] } else { a[1] })
        }),
        IsNan => each(args, &mut |a| Ok(u64::from(is_nan(a[0], b)))),
        IsInf => each(args, &mut |a| Ok(u64::from(f(a[0]).is_infinite()))),
        FindILsb => each(args, &mut |a| {
            Ok(if a[0] & m == 0 {
                m
            } else {
                u64::from((a[0] & m).trailing_zeros())
            })
        }),
        FindUMsb => each(args, &mut |a| {
            let v = a[0] & m;
            Ok(if v == 0 {
                m
            } else {
                63 - u64::from(v.leading_zeros())
            })
        }),
        FindSMsb => each(args, &mut |a| {
            let v = sext(a[0], b);
            let v = if v < 0 { !v } else { v } as u64;
            Ok(if v == 0 {
                m
            } else {
                63 - u64::from(v.leading_zeros())
            })
        }),
        BitFieldInsert | BitFieldSExtract | BitFieldUExtract => {
            let n = if op == BitFieldInsert { 2 } else { 1 };
            let off = args[n].bits();
            let cnt = args[n + 1].bits();
            if off + cnt > u64::from(b) {
                return Err(EvalErr::Undefined("bit field past the width".into()));
            }
            let fm = mask(cnt as u8) << off;
            let ins = args.get(1).cloned();
            each(&args[..1], &mut |a| {
                Ok(match op {
                    BitFieldInsert => 0,
                    BitFieldUExtract => (a[0] & fm) >> off,
                    _ if cnt == 0 => 0,
                    _ => (sext((a[0] & fm) >> off, cnt as u8) as u64) & m,
                })
            })
            .map(|v| {
                if op != BitFieldInsert {
                    return v;
                }
                let ins = ins.unwrap_or(Val::S(0));
                let base = &args[0];
                let merge = |x: u64, y: u64| (x & !fm) | ((y << off) & fm);
                match (base, &ins) {
                    (Val::C(xs), Val::C(ys)) => Val::C(
                        xs.iter()
                            .zip(ys)
                            .map(|(x, y)| Val::S(merge(x.bits(), y.bits())))
                            .collect(),
                    ),
                    _ => Val::S(merge(base.bits(), ins.bits())),
                }
            })
        }
        IAddCarry | ISubBorrow | UMulExtended | SMulExtended => {
            let lo = each(args, &mut |a| {
                Ok(match op {
                    IAddCarry => a[0].wrapping_add(a[1]) & m,
                    ISubBorrow => a[0].wrapping_sub(a[1]) & m,
                    UMulExtended => (u128::from(a[0]) * u128::from(a[1])) as u64 & m,
                    _ => ((i128::from(sext(a[0], b)) * i128::from(sext(a[1], b))) as u64) & m,
                })
            })?;
            let hi = each(args, &mut |a| {
                Ok(match op {
                    IAddCarry => u64::from(a[0] + a[1] > m),
                    ISubBorrow => u64::from(a[1] > a[0]),
                    UMulExtended => ((u128::from(a[0]) * u128::from(a[1])) >> b) as u64 & m,
                    _ => ((i128::from(sext(a[0], b)) * i128::from(sext(a[1], b))) >> b) as u64 & m,
                })
            })?;
            Ok(Val::C(vec![lo, hi]))
        }
        Dot => Ok(Val::S(r(dot_round(
            &floats(&args[0], b),
            &floats(&args[1], b),
            b,
        )))),
        Length => {
            let x = floats(&args[0], b);
            Ok(Val::S(r(x.iter().map(|v| v * v).sum::<f64>().sqrt())))
        }
        Distance => {
            let (x, y) = (floats(&args[0], b), floats(&args[1], b));
            Ok(Val::S(r(x
                .iter()
                .zip(&y)
                .map(|(p, q)| (p - q) * (p - q))
                .sum::<f64>()
                .sqrt())))
        }
        Normalize => {
            let x = floats(&args[0], b);
            let l = x.iter().map(|v| v * v).sum::<f64>().sqrt();
            Ok(Val::C(x.iter().map(|v| Val::S(r(v / l))).collect()))
        }
        Cross => {
            let (x, y) = (floats(&args[0], b), floats(&args[1], b));
            if x.len() < 3 || y.len() < 3 {
                return Err(unsupported(op));
            }
            Ok(Val::C(vec![
                Val::S(r(x[1] * y[2] - y[1] * x[2])),
                Val::S(r(x[2] * y[0] - y[2] * x[0])),
                Val::S(r(x[0] * y[1] - y[0] * x[1])),
            ]))
        }
        Any | All => {
            let v = args[0].parts();
            let it = v.iter().map(|e| e.bits() != 0);
            Ok(Val::S(u64::from(if op == Any {
                it.clone().any(|x| x)
            } else {
                it.clone().all(|x| x)
            })))
        }
        QuantizeToF16 => each(args, &mut |a| {
            let h = half::f16::from_f32(f32::from_bits(a[0] as u32));
            let h = if !h.is_normal() && h.to_f32() != 0.0 && h.is_finite() {
                half::f16::from_f32(0.0).copysign(h)
            } else {
                h
            };
            Ok(u64::from(h.to_f32().to_bits()))
        }),
        PackHalf2x16 => {
            let x = floats(&args[0], 32);
            let lo = u64::from(half::f16::from_f64(x[0]).to_bits());
            let hi = u64::from(half::f16::from_f64(x[1]).to_bits());
            Ok(Val::S(lo | (hi << 16)))
        }
        UnpackHalf2x16 => {
            let w = args[0].bits();
            Ok(Val::C(
                [w & 0xffff, w >> 16]
                    .iter()
                    .map(|h| {
                        Val::S(u64::from(
                            half::f16::from_bits(*h as u16).to_f32().to_bits(),
                        ))
                    })
                    .collect(),
            ))
        }
        PackDouble2x32 => {
            let p = args[0].parts();
            Ok(Val::S(p[0].bits() | (p[1].bits() << 32)))
        }
        UnpackDouble2x32 => {
            let w = args[0].bits();
            Ok(Val::C(vec![Val::S(w & 0xffff_ffff), Val::S(w >> 32)]))
        }
        MatrixTimesScalar => {
            let s = args[1].bits();
            Ok(Val::C(
                args[0]
                    .parts()
                    .iter()
                    .map(|c| each(&[c.clone(), Val::S(s)], &mut |a| Ok(r(f(a[0]) * f(a[1])))))
                    .collect::<Result<_, _>>()?,
            ))
        }
        Transpose => {
            let cols = mat(&args[0], b);
            let rows = cols.first().map_or(0, Vec::len);
            Ok(to_mat(
                &(0..rows)
                    .map(|r| cols.iter().map(|c| c[r]).collect())
                    .collect::<Vec<_>>(),
                b,
            ))
        }
        MatrixTimesVector => {
            let (m, v) = (mat(&args[0], b), floats(&args[1], b));
            Ok(to_vec(&mat_vec(&m, &v, b), b))
        }
        VectorTimesMatrix => {
            let (v, m) = (floats(&args[0], b), mat(&args[1], b));
            Ok(to_vec(
                &m.iter().map(|c| dot_round(&v, c, b)).collect::<Vec<_>>(),
                b,
            ))
        }
        MatrixTimesMatrix => {
            let (x, y) = (mat(&args[0], b), mat(&args[1], b));
            Ok(to_mat(
                &y.iter().map(|c| mat_vec(&x, c, b)).collect::<Vec<_>>(),
                b,
            ))
        }
        OuterProduct => {
            let (c, r) = (floats(&args[0], b), floats(&args[1], b));
            Ok(to_mat(
                &r.iter()
                    .map(|rj| c.iter().map(|ci| round_to(ci * rj, b)).collect())
                    .collect::<Vec<_>>(),
                b,
            ))
        }
        Determinant => Ok(Val::S(r(det(&mat(&args[0], b))))),
        MatrixInverse => {
            let m = mat(&args[0], b);
            let d = det(&m);
            let n = m.len();
            // The adjugate over the determinant: inverse[c][r] = cofactor(r, c) / det.
            let inv: Vec<Vec<f64>> = (0..n)
                .map(|c| {
                    (0..n)
                        .map(|rr| {
                            let minor: Vec<Vec<f64>> = (0..n)
                                .filter(|&k| k != rr)
                                .map(|k| (0..n).filter(|&q| q != c).map(|q| m[k][q]).collect())
                                .collect();
                            let sign = if (rr + c) % 2 == 0 { 1.0 } else { -1.0 };
                            sign * det(&minor) / d
                        })
                        .collect()
                })
                .collect();
            Ok(to_mat(&inv, b))
        }
        ModfStruct => {
            let whole = each(args, &mut |a| Ok(r(f(a[0]).trunc())))?;
            let frac = each(args, &mut |a| Ok(r(f(a[0]) - f(a[0]).trunc())))?;
            Ok(Val::C(vec![frac, whole]))
        }
        FrexpStruct => {
            let sig = each(args, &mut |a| Ok(r(libm::frexp(f(a[0])).0)))?;
            let exp = each(args, &mut |a| {
                let x = f(a[0]);
                Ok(if x == 0.0 || !x.is_finite() {
                    0
                } else {
                    (libm::frexp(x).1 as u32).into()
                })
            })?;
            Ok(Val::C(vec![sig, exp]))
        }
        PackUnorm4x8 | PackSnorm4x8 | PackUnorm2x16 | PackSnorm2x16 => {
            let x = floats(&args[0], 32);
            let (width, snorm) = match op {
                PackUnorm4x8 => (8, false),
                PackSnorm4x8 => (8, true),
                PackUnorm2x16 => (16, false),
                _ => (16, true),
            };
            let scale = f64::from((1u32 << (width - u32::from(snorm))) - 1);
            let mut w = 0u64;
            for (i, c) in x.iter().enumerate() {
                let q = if snorm {
                    (c.clamp(-1.0, 1.0) * scale).round_ties_even() as i64 as u64
                } else {
                    (c.clamp(0.0, 1.0) * scale).round_ties_even() as u64
                };
                w |= (q & mask(width as u8)) << (i as u32 * width);
            }
            Ok(Val::S(w))
        }
        UnpackUnorm4x8 | UnpackSnorm4x8 | UnpackUnorm2x16 | UnpackSnorm2x16 => {
            let w = args[0].bits();
            let (width, n, snorm) = match op {
                UnpackUnorm4x8 => (8u32, 4, false),
                UnpackSnorm4x8 => (8, 4, true),
                UnpackUnorm2x16 => (16, 2, false),
                _ => (16, 2, true),
            };
            let scale = f64::from((1u32 << (width - u32::from(snorm))) - 1);
            Ok(Val::C(
                (0..n)
                    .map(|i| {
                        let q = (w >> (i * width)) & mask(width as u8);
                        let v = if snorm {
                            (sext(q, width as u8) as f64 / scale).clamp(-1.0, 1.0)
                        } else {
                            q as f64 / scale
                        };
                        Val::S(from_f64(v, 32))
                    })
                    .collect(),
            ))
        }
        Reflect => {
            let (i, n) = (floats(&args[0], b), floats(&args[1], b));
            let d = dot_round(&n, &i, b);
            Ok(to_vec(
                &i.iter()
                    .zip(&n)
                    .map(|(x, y)| round_to(x - round_to(round_to(2.0 * d, b) * y, b), b))
                    .collect::<Vec<_>>(),
                b,
            ))
        }
        FaceForward => {
            let (n, i, nref) = (
                floats(&args[0], b),
                floats(&args[1], b),
                floats(&args[2], b),
            );
            let d = dot_round(&nref, &i, b);
            Ok(to_vec(
                &n.iter()
                    .map(|x| if d < 0.0 { *x } else { -x })
                    .collect::<Vec<_>>(),
                b,
            ))
        }
        Refract => {
            let (i, n) = (floats(&args[0], b), floats(&args[1], b));
            let eta = to_f64(args[2].bits(), b);
            let d = dot_round(&n, &i, b);
            let k = 1.0 - eta * eta * (1.0 - d * d);
            Ok(to_vec(
                &i.iter()
                    .zip(&n)
                    .map(|(x, y)| {
                        if k < 0.0 {
                            0.0
                        } else {
                            eta * x - (eta * d + k.sqrt()) * y
                        }
                    })
                    .collect::<Vec<_>>(),
                b,
            ))
        }
    }
}

/// Undefined unless `ok` (GLSL.std.450's domain of `op`; NaN is outside).
fn domain(op: MathOp, x: f64, ok: bool) -> Result<(), EvalErr> {
    if ok {
        Ok(())
    } else {
        Err(EvalErr::Undefined(format!(
            "{op:?} of {x} (outside its domain)"
        )))
    }
}

/// A matrix as columns of f64.
fn mat(v: &Val, bits: u8) -> Vec<Vec<f64>> {
    v.parts().iter().map(|c| floats(c, bits)).collect()
}

fn to_vec(v: &[f64], bits: u8) -> Val {
    Val::C(v.iter().map(|x| Val::S(from_f64(*x, bits))).collect())
}

fn to_mat(cols: &[Vec<f64>], bits: u8) -> Val {
    Val::C(cols.iter().map(|c| to_vec(c, bits)).collect())
}

/// A dot product, each product and partial sum rounded at the width.
fn dot_round(x: &[f64], y: &[f64], bits: u8) -> f64 {
    let mut acc = 0.0;
    for (p, q) in x.iter().zip(y) {
        acc = round_to(acc + round_to(p * q, bits), bits);
    }
    acc
}

fn mat_vec(m: &[Vec<f64>], v: &[f64], bits: u8) -> Vec<f64> {
    let rows = m.first().map_or(0, Vec::len);
    (0..rows)
        .map(|r| {
            let row: Vec<f64> = m.iter().map(|c| c[r]).collect();
            dot_round(&row, v, bits)
        })
        .collect()
}

/// The determinant of a square matrix (columns), by cofactors in f64.
fn det(m: &[Vec<f64>]) -> f64 {
    match m.len() {
        0 => 1.0,
        1 => m[0][0],
        n => (0..n)
            .map(|c| {
                let minor: Vec<Vec<f64>> = (0..n)
                    .filter(|&k| k != c)
                    .map(|k| m[k][1..].to_vec())
                    .collect();
                let sign = if c % 2 == 0 { 1.0 } else { -1.0 };
                sign * m[c][0] * det(&minor)
            })
            .sum(),
    }
}

/// `x` rounded to the float width (each step of a dot product rounds).
fn round_to(x: f64, bits: u8) -> f64 {
    to_f64(from_f64(x, bits), bits)
}
