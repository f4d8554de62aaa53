//! A static estimate of the work a generated program does per invocation:
//! AST nodes weighted by what their lowering costs (64-bit division is a
//! long instruction sequence, an atomic a serialised memory access),
//! multiplied by loop trip counts, with each call counting its callee's
//! cost. Both arms of a branch count, so the estimate bounds every path.
//! The generator keeps programs whose estimate times their warps stays
//! under a budget, so that a well-defined program never runs into the
//! simulator's step limit (`run::SIM_STEPS`), which then signals a hang.

use crate::ast::{BinOp, Expr, Func, Program, Stmt};

/// The estimated cost of one invocation of `p`'s main function.
pub fn program_cost(p: &Program) -> u64 {
    let mut helpers: Vec<u64> = Vec::with_capacity(p.helpers.len());
    for f in &p.helpers {
        let c = func_cost(f, &helpers);
        helpers.push(c);
    }
    func_cost(&p.main, &helpers)
}

/// Cost of `p` for a whole workgroup: the per-invocation estimate times
/// its warps (32 invocations each), the unit the step limit counts.
pub fn workgroup_cost(p: &Program) -> u64 {
    program_cost(p).saturating_mul(u64::from(p.invocations().div_ceil(32)))
}

fn func_cost(f: &Func, helpers: &[u64]) -> u64 {
    let inits: u64 = f.inits.iter().map(|e| expr_cost(e, helpers)).sum();
    let ret = f.ret.as_ref().map_or(0, |(_, e)| expr_cost(e, helpers));
    // The local arrays' initialisers: 8 stores each.
    inits + ret + 8 * u64::from(f.arrays) + block_cost(&f.body, helpers)
}

fn block_cost(b: &[Stmt], helpers: &[u64]) -> u64 {
    b.iter()
        .map(|s| stmt_cost(s, helpers))
        .fold(0, u64::saturating_add)
}

fn stmt_cost(s: &Stmt, helpers: &[u64]) -> u64 {
    let e = |x: &Expr| expr_cost(x, helpers);
    match s {
        Stmt::Assign(_, x) | Stmt::Break(x) | Stmt::Continue(x) => 1 + e(x),
        Stmt::ArrStore(_, i, x) => 4 + e(i) + e(x),
        Stmt::If(c, t, f) => 2 + e(c) + block_cost(t, helpers) + block_cost(f, helpers),
        Stmt::Loop(_, n, body) => u64::from(*n).saturating_mul(4 + block_cost(body, helpers)),
        Stmt::Switch(sel, cases, default) => {
            let arms: u64 = cases
                .iter()
                .map(|(_, body, _)| 2 + block_cost(body, helpers))
                .sum();
            2 + e(sel) + arms + block_cost(default, helpers)
        }
        Stmt::Return(c, x) => 2 + e(c) + e(x),
        Stmt::Atomic(_, slot, x) => 16 + e(slot) + e(x),
        Stmt::Shared(_, x, _) => 12 + e(x),
        Stmt::Subgroup(_, _, x) => 16 + e(x),
    }
}

/// What one 64-bit division or remainder costs: 64 iterations of its loop.
const DIV64: u64 = 64 * 22;

fn expr_cost(x: &Expr, helpers: &[u64]) -> u64 {
    let e = |x: &Expr| expr_cost(x, helpers);
    match x {
        Expr::Var(_) | Expr::Counter(_) | Expr::Lit(..) | Expr::Lid => 0,
        Expr::Input(_) => 4,
        Expr::Un(_, t, a) => t.width().div_ceil(32) as u64 + e(a),
        Expr::Bin(op, t, a, b) => {
            let op_cost = match (op, t.width()) {
                // A 64-iteration shift-subtract loop of about 22
                // instructions (backend/src/from_ir/wide_div.rs).
                (BinOp::Div | BinOp::Mod, 64) => DIV64,
                (BinOp::Div | BinOp::Mod, _) => 16,
                (BinOp::Mul | BinOp::Shl | BinOp::Shr, 64) => 6,
                (_, w) => u64::from(w.div_ceil(32)),
            };
            op_cost + e(a) + e(b)
        }
        Expr::Cmp(_, t, a, b) => u64::from(t.width().div_ceil(32)) + e(a) + e(b),
        Expr::Conv(_, _, a) => 2 + e(a),
        Expr::Select(_, c, a, b) => 2 + e(c) + e(a) + e(b),
        Expr::Arr(_, i) => 4 + e(i),
        Expr::Comp(_, a, _) | Expr::Splat(_, a) => e(a),
        Expr::Call(n, args) => {
            let callee = helpers.get(*n as usize).copied().unwrap_or(0);
            args.iter().map(e).fold(callee + 2, u64::saturating_add)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Ty;

    fn div64() -> Expr {
        Expr::Bin(
            BinOp::Div,
            Ty::U64,
            Box::new(Expr::Var(0)),
            Box::new(Expr::Var(1)),
        )
    }

    fn func(body: Vec<Stmt>, ret: Option<Expr>) -> Func {
        Func {
            params: Vec::new(),
            vars: vec![Ty::U64, Ty::U64],
            inits: Vec::new(),
            arrays: 0,
            body,
            ret: ret.map(|e| (Ty::U32, e)),
        }
    }

    #[test]
    fn loops_multiply_their_bodies_and_calls_add_their_callees() {
        let one = stmt_cost(&Stmt::Assign(0, div64()), &[]);
        assert_eq!(one, 1 + DIV64);
        let looped = Stmt::Loop(0, 6, vec![Stmt::Assign(0, div64())]);
        assert_eq!(stmt_cost(&looped, &[]), 6 * (4 + 1 + DIV64));
        let helper = func(vec![looped.clone()], Some(Expr::Lit(Ty::U32, 1)));
        let p = Program {
            size: [64, 1, 1],
            groups: 1,
            helpers: vec![helper],
            main: func(
                vec![Stmt::Loop(
                    1,
                    3,
                    vec![Stmt::Assign(0, Expr::Call(0, Vec::new()))],
                )],
                None,
            ),
            stage: crate::ast::Stage::Compute,
        };
        let per_call = 6 * (4 + 1 + DIV64);
        assert_eq!(program_cost(&p), 3 * (4 + 1 + 2 + per_call));
        assert_eq!(workgroup_cost(&p), 2 * program_cost(&p));
    }
}
