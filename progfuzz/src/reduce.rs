//! The reducer: shrinks a failing program while its failure signature
//! stays the same. Edits, tried in order over the whole program until none
//! applies: delete a statement, replace an `if`/loop/`switch` by one of its
//! bodies, replace an expression by a literal of its type, drop a helper's
//! local initialiser's complexity likewise. Each edit is kept only if the
//! edited program still fails with the same signature (an edit that makes
//! it invalid GLSL fails with another signature and is dropped).

use crate::ast::{Expr, Func, Program, Stage, Stmt, Ty};

/// Applies edit number `k` (in a fixed walk of the program); `None` once
/// `k` is past the last.
pub fn edit(p: &Program, k: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut n = k;
    let applied = {
        let Program {
            helpers,
            main,
            stage,
            ..
        } = &mut q;
        let mut funcs: Vec<&mut Func> = helpers.iter_mut().chain(std::iter::once(main)).collect();
        // A task program's mesh shader is shrunk too.
        if let Stage::Task(t) = stage {
            let Program { helpers, main, .. } = &mut *t.mesh;
            funcs.extend(helpers.iter_mut().chain(std::iter::once(main)));
        }
        let mut done = false;
        for f in funcs {
            if edit_func(f, &mut n) {
                done = true;
                break;
            }
        }
        done
    };
    applied.then_some(q)
}

fn edit_func(f: &mut Func, n: &mut usize) -> bool {
    if edit_block(&mut f.body, n) {
        return true;
    }
    for e in &mut f.inits {
        if edit_expr(e, n) {
            return true;
        }
    }
    if let Some((_, e)) = &mut f.ret
        && edit_expr(e, n)
    {
        return true;
    }
    false
}

/// Counts down `n` over the edits of a block; applies the one reaching 0.
fn edit_block(stmts: &mut Vec<Stmt>, n: &mut usize) -> bool {
    // Deleting each statement first (largest effect).
    for i in 0..stmts.len() {
        if *n == 0 {
            stmts.remove(i);
            return true;
        }
        *n -= 1;
    }
    for i in 0..stmts.len() {
        // Replace a compound statement by a body.
        let bodies: Vec<Vec<Stmt>> = match &stmts[i] {
            Stmt::If(_, t, e) => vec![t.clone(), e.clone()],
            Stmt::Loop(_, _, b) => vec![b.clone()],
            Stmt::Switch(_, cases, d) => {
                let mut v: Vec<Vec<Stmt>> = cases.iter().map(|c| c.1.clone()).collect();
                v.push(d.clone());
                v
            }
            _ => Vec::new(),
        };
        for b in bodies {
            if *n == 0 {
                stmts.splice(i..=i, b);
                return true;
            }
            *n -= 1;
        }
        if edit_stmt(&mut stmts[i], n) {
            return true;
        }
    }
    false
}

fn edit_stmt(s: &mut Stmt, n: &mut usize) -> bool {
    match s {
        Stmt::Assign(_, e) | Stmt::Break(e) | Stmt::Continue(e) => edit_expr(e, n),
        Stmt::ArrStore(_, a, b) | Stmt::Return(a, b) | Stmt::Atomic(_, a, b) => {
            edit_expr(a, n) || edit_expr(b, n)
        }
        Stmt::If(c, t, e) => edit_expr(c, n) || edit_block(t, n) || edit_block(e, n),
        Stmt::Loop(_, count, b) => {
            if *count > 1 {
                if *n == 0 {
                    *count = 1;
                    return true;
                }
                *n -= 1;
            }
            edit_block(b, n)
        }
        Stmt::Switch(sel, cases, d) => {
            if edit_expr(sel, n) {
                return true;
            }
            for c in cases.iter_mut() {
                if edit_block(&mut c.1, n) {
                    return true;
                }
            }
            edit_block(d, n)
        }
        Stmt::Shared(_, e, _) | Stmt::Subgroup(_, _, e) => edit_expr(e, n),
    }
}

/// The type of an expression node where it is known without context.
fn type_of(e: &Expr) -> Option<Ty> {
    match e {
        Expr::Lit(t, _) | Expr::Un(_, t, _) | Expr::Bin(_, t, _, _) | Expr::Select(t, _, _, _) => {
            Some(*t)
        }
        Expr::Conv(t, _, _) | Expr::Splat(t, _) => Some(*t),
        Expr::Cmp(..) => Some(Ty::Bool),
        Expr::Comp(v, _, _) => Some(v.elem()),
        Expr::Arr(..) | Expr::Lid | Expr::Counter(_) | Expr::Input(_) => Some(Ty::U32),
        Expr::Var(_) | Expr::Call(..) => None,
    }
}

fn edit_expr(e: &mut Expr, n: &mut usize) -> bool {
    if !matches!(e, Expr::Lit(..) | Expr::Var(_))
        && let Some(t) = type_of(e)
    {
        if *n == 0 {
            *e = Expr::Lit(t, 0);
            return true;
        }
        *n -= 1;
    }
    match e {
        Expr::Var(_) | Expr::Counter(_) | Expr::Lit(..) | Expr::Lid | Expr::Input(_) => false,
        Expr::Un(_, _, a)
        | Expr::Conv(_, _, a)
        | Expr::Arr(_, a)
        | Expr::Comp(_, a, _)
        | Expr::Splat(_, a) => edit_expr(a, n),
        Expr::Bin(_, _, a, b) | Expr::Cmp(_, _, a, b) => edit_expr(a, n) || edit_expr(b, n),
        Expr::Select(_, c, a, b) => edit_expr(c, n) || edit_expr(a, n) || edit_expr(b, n),
        Expr::Call(_, args) => args.iter_mut().any(|a| edit_expr(a, n)),
    }
}

/// Shrinks `p` while `fails` says it still fails the same way, trying at
/// most `budget` candidates. Returns the smallest failing program found.
pub fn reduce(p: &Program, budget: usize, fails: &mut dyn FnMut(&Program) -> bool) -> Program {
    let mut best = p.clone();
    let mut tries = 0;
    loop {
        let mut changed = false;
        let mut k = 0;
        while let Some(q) = edit(&best, k) {
            if tries >= budget {
                return best;
            }
            tries += 1;
            if fails(&q) {
                best = q;
                changed = true;
            } else {
                k += 1;
            }
        }
        if !changed {
            return best;
        }
    }
}
