//! Matrix ops: matrices are column-major component lists (column j's
//! row i is component j·rows + i), so products are dot products of
//! columns and rows, written as FMUL/FFMA chains. Determinants and
//! inverses of 2×2, 3×3 and 4×4 matrices use cofactor expansion (the
//! inverse is the adjugate times 1/det).

use super::math::fconst;
use super::{Comp, Isel};
use crate::error::BackendError;
use spvsass_frontend::ir::{InstData, MathOp, Type, Value};

impl Isel<'_> {
    /// (columns, rows) of a matrix value, or (1, len) of a vector.
    fn shape(&self, v: Value) -> Option<(usize, usize)> {
        let rows_of = |t: &Type| match t {
            Type::Vector { len, .. } => Some(usize::from(*len)),
            _ => None,
        };
        match self.sh.value_type(v) {
            Type::Matrix {
                column, columns, ..
            } => Some((usize::from(*columns), rows_of(&self.sh.types[*column])?)),
            t => Some((1, rows_of(t)?)),
        }
    }

    /// m · v for a matrix of `rows` rows given as columns.
    fn mat_vec(&mut self, m: &[Comp], rows: usize, v: &[Comp]) -> Vec<Comp> {
        (0..rows)
            .map(|i| {
                let row: Vec<Comp> = (0..v.len()).map(|j| m[j * rows + i]).collect();
                self.dot(&row, v)
            })
            .collect()
    }

    /// ad - bc.
    fn det2(&mut self, a: Comp, b: Comp, c: Comp, d: Comp) -> Comp {
        let bc = self.fmul(b, c);
        self.ffma_sub(a, d, bc)
    }

    pub(super) fn matrix(
        &mut self,
        op: MathOp,
        args: &[Value],
        v: &[Vec<Comp>],
        inst: &InstData,
    ) -> Result<Vec<Comp>, BackendError> {
        use MathOp as M;
        let bad = |this: &Self| this.unsupported(format!("{op:?} on these operand types"), inst);
        let mut shapes = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let shape = self.shape(a);
            // The components must be as many as the type says (a malformed
            // module can load a matrix through a pointer to something
            // smaller; the input-mutation long run found one).
            if shape.is_some_and(|(c, r)| v.get(i).map(Vec::len) != Some(c * r)) {
                return Err(bad(self));
            }
            shapes.push(shape);
        }
        let shape = |i: usize, this: &Self| shapes[i].ok_or_else(|| bad(this));
        Ok(match op {
            M::Transpose => {
                let (c, r) = shape(0, self)?;
                let mut out = Vec::with_capacity(c * r);
                for j in 0..r {
                    for i in 0..c {
                        out.push(v[0][i * r + j]);
                    }
                }
                out
            }
            M::MatrixTimesScalar => {
                let s = v[1][0];
                v[0].iter().map(|&c| self.fmul(c, s)).collect()
            }
            M::MatrixTimesVector => {
                let (c, r) = shape(0, self)?;
                if v[1].len() != c {
                    return Err(bad(self));
                }
                self.mat_vec(&v[0], r, &v[1])
            }
            M::VectorTimesMatrix => {
                let (c, r) = shape(1, self)?;
                if v[0].len() != r {
                    return Err(bad(self));
                }
                (0..c)
                    .map(|j| self.dot(&v[0], &v[1][j * r..(j + 1) * r]))
                    .collect()
            }
            M::MatrixTimesMatrix => {
                let ((k, r), (c, k2)) = (shape(0, self)?, shape(1, self)?);
                if k != k2 {
                    return Err(bad(self));
                }
                let mut out = Vec::with_capacity(c * r);
                for j in 0..c {
                    let col = self.mat_vec(&v[0], r, &v[1][j * k..(j + 1) * k]);
                    out.extend(col);
                }
                out
            }
            M::OuterProduct => {
                let (r, c) = (v[0].len(), v[1].len());
                let mut out = Vec::with_capacity(c * r);
                for j in 0..c {
                    for i in 0..r {
                        out.push(self.fmul(v[0][i], v[1][j]));
                    }
                }
                out
            }
            M::Determinant => {
                let (c, r) = shape(0, self)?;
                if c != r || !(2..=4).contains(&c) {
                    return Err(bad(self));
                }
                vec![self.determinant(&v[0], c)]
            }
            _ => {
                let (c, r) = shape(0, self)?;
                if c != r || !(2..=4).contains(&c) {
                    return Err(bad(self));
                }
                self.inverse(&v[0], c)
            }
        })
    }

    fn determinant(&mut self, m: &[Comp], n: usize) -> Comp {
        match n {
            2 => self.det2(m[0], m[2], m[1], m[3]),
            3 => {
                let x = self.cross(&m[3..6], &m[6..9]);
                self.dot(&m[0..3], &x)
            }
            _ => {
                let (s, c) = self.minors4(m);
                self.det4(&s, &c)
            }
        }
    }

    /// The 2×2 minors of a 4×4 matrix's top two rows (s) and bottom two
    /// rows (c), pairing columns (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) for s
    /// and the complementary pairs in reverse for c, so that
    /// det = Σ ±s_i·c_(5-i) (Laplace expansion by complementary minors).
    fn minors4(&mut self, m: &[Comp]) -> ([Comp; 6], [Comp; 6]) {
        let a = |r: usize, c: usize| m[c * 4 + r];
        let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
        let s = pairs.map(|(i, j)| self.det2(a(0, i), a(0, j), a(1, i), a(1, j)));
        let c = pairs.map(|(i, j)| self.det2(a(2, i), a(2, j), a(3, i), a(3, j)));
        (s, c)
    }

    fn det4(&mut self, s: &[Comp; 6], c: &[Comp; 6]) -> Comp {
        let mut acc = self.fmul(s[0], c[5]);
        for (i, neg) in [(1, true), (2, false), (3, false), (4, true), (5, false)] {
            acc = if neg {
                self.ffma_neg(s[i], c[5 - i], acc)
            } else {
                self.ffma(s[i], c[5 - i], acc)
            };
        }
        acc
    }

    /// Σ sign·x·y over three terms, scaled by `k`.
    fn cofactor(&mut self, terms: [(Comp, Comp, bool); 3], k: Comp) -> Comp {
        let (x, y, neg) = terms[0];
        let mut acc = if neg {
            self.fmul_neg(x, y)
        } else {
            self.fmul(x, y)
        };
        for &(x, y, neg) in &terms[1..] {
            acc = if neg {
                self.ffma_neg(x, y, acc)
            } else {
                self.ffma(x, y, acc)
            };
        }
        self.fmul(acc, k)
    }

    fn inverse(&mut self, m: &[Comp], n: usize) -> Vec<Comp> {
        let one = fconst(1.0);
        match n {
            2 => {
                let det = self.determinant(m, 2);
                let k = self.fdiv(one, det);
                let neg_k = self.fmul(k, fconst(-1.0));
                vec![
                    self.fmul(m[3], k),
                    self.fmul(m[1], neg_k),
                    self.fmul(m[2], neg_k),
                    self.fmul(m[0], k),
                ]
            }
            3 => {
                // The inverse's rows are the cross products of column
                // pairs, over the determinant.
                let rows = [
                    self.cross(&m[3..6], &m[6..9]),
                    self.cross(&m[6..9], &m[0..3]),
                    self.cross(&m[0..3], &m[3..6]),
                ];
                let det = self.dot(&m[0..3], &rows[0]);
                let k = self.fdiv(one, det);
                let mut out = Vec::with_capacity(9);
                for col in 0..3 {
                    for row in &rows {
                        out.push(self.fmul(row[col], k));
                    }
                }
                out
            }
            _ => {
                let a = |r: usize, c: usize| m[c * 4 + r];
                let (s, c) = self.minors4(m);
                let det = self.det4(&s, &c);
                let k = self.fdiv(one, det);
                // b[r][col] = cofactor of a[col][r] (the adjugate), from
                // the complementary minors of the other row pair.
                let b = [
                    [
                        [
                            (a(1, 1), c[5], false),
                            (a(1, 2), c[4], true),
                            (a(1, 3), c[3], false),
                        ],
                        [
                            (a(0, 1), c[5], true),
                            (a(0, 2), c[4], false),
                            (a(0, 3), c[3], true),
                        ],
                        [
                            (a(3, 1), s[5], false),
                            (a(3, 2), s[4], true),
                            (a(3, 3), s[3], false),
                        ],
                        [
                            (a(2, 1), s[5], true),
                            (a(2, 2), s[4], false),
                            (a(2, 3), s[3], true),
                        ],
                    ],
                    [
                        [
                            (a(1, 0), c[5], true),
                            (a(1, 2), c[2], false),
                            (a(1, 3), c[1], true),
                        ],
                        [
                            (a(0, 0), c[5], false),
                            (a(0, 2), c[2], true),
                            (a(0, 3), c[1], false),
                        ],
                        [
                            (a(3, 0), s[5], true),
                            (a(3, 2), s[2], false),
                            (a(3, 3), s[1], true),
                        ],
                        [
                            (a(2, 0), s[5], false),
                            (a(2, 2), s[2], true),
                            (a(2, 3), s[1], false),
                        ],
                    ],
                    [
                        [
                            (a(1, 0), c[4], false),
                            (a(1, 1), c[2], true),
                            (a(1, 3), c[0], false),
                        ],
                        [
                            (a(0, 0), c[4], true),
                            (a(0, 1), c[2], false),
                            (a(0, 3), c[0], true),
                        ],
                        [
                            (a(3, 0), s[4], false),
                            (a(3, 1), s[2], true),
                            (a(3, 3), s[0], false),
                        ],
                        [
                            (a(2, 0), s[4], true),
                            (a(2, 1), s[2], false),
                            (a(2, 3), s[0], true),
                        ],
                    ],
                    [
                        [
                            (a(1, 0), c[3], true),
                            (a(1, 1), c[1], false),
                            (a(1, 2), c[0], true),
                        ],
                        [
                            (a(0, 0), c[3], false),
                            (a(0, 1), c[1], true),
                            (a(0, 2), c[0], false),
                        ],
                        [
                            (a(3, 0), s[3], true),
                            (a(3, 1), s[1], false),
                            (a(3, 2), s[0], true),
                        ],
                        [
                            (a(2, 0), s[3], false),
                            (a(2, 1), s[1], true),
                            (a(2, 2), s[0], false),
                        ],
                    ],
                ];
                // b[r] lists row r's four entries (columns 0..3); the
                // result is column-major.
                let mut out = vec![Comp::Const(0); 16];
                for (r, row) in b.iter().enumerate() {
                    for (col, terms) in row.iter().enumerate() {
                        out[col * 4 + r] = self.cofactor(*terms, k);
                    }
                }
                out
            }
        }
    }
}
