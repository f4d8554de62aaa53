//! The machinery behind the one op table in `isa/mod.rs`: `ops!` turns
//! each op's declaration line into the `Op` enum and everything that
//! dispatches on it, so no list of ops is written twice.
//!
//! A declaration line reads
//!
//! ```text
//! Variant(OpStruct) [MNEMONIC, ...] alu|other, latency, effect
//!     { fixed|alu9 [OPCODE, ...] => decode expression; ... }
//! ```
//!
//! (`Variant [MNEMONIC] other, ...` for an op without operands, and
//! `@pc` after the struct for an op whose encoding is pc-relative).
//! `alu` marks an op with the generic ALU interface ([`super::Alu`]): one
//! result computed lane by lane from up to three 32-bit sources and a
//! predicate. The latency is `fixed(n)`, `var` (a write scoreboard) or
//! `var_late` (a read scoreboard too: sources read after issue); the
//! effect is `pure` (nothing but its result), `effect` (memory, warp-wide
//! or ordering effects) or `sync` (an effect after which nothing may be
//! outstanding: branches, barriers, EXIT). Every field is required, so an
//! op that is not classified does not compile. The decode arms match the
//! full 12-bit opcode (`fixed`) or the 9-bit ALU opcode (`alu9`, the form
//! in bits 9..12); fixed-form opcodes are tried first.

/// Expands the op table; see the module comment.
macro_rules! ops {
    (
        decode($w:ident, $pc:ident, $opcode:ident);
        $(
            $V:ident $(($T:ty))? $(@$pcrel:ident)? [$($mn:ident),+]
            $class:ident, $lat:ident $(($n:literal))?, $effect:ident
            { $($kind:ident [$($opc:expr),+] => $dec:expr;)* }
        )*
    ) => {
        /// One operation with its operands.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Op {
            $($V $(($T))?,)*
        }

        /// Every op's mnemonics (what [`Op::mnemonic`] returns), for tests
        /// that check the emit table and docs/ISA.md cover the whole ISA.
        pub const MNEMONICS: &[&str] = &[$($(stringify!($mn),)+)*];

        /// Every opcode the decoder knows: whether it is a fixed-form
        /// (12-bit) or ALU (9-bit, any operand form) opcode, and its value.
        pub const OPCODES: &[(OpcodeKind, u16)] =
            &[$($($((opcode_kind!($kind), $opc),)+)*)*];

        other_enum!('a [] $($class $V $(($T))?;)*);

        export_ops!(($) $($V [$($mn)+])*);

        impl Op {
            /// Encodes the op's fields (not the guard or control bits) at
            /// byte address `pc` (branches are relative).
            pub fn encode(&self, w: &mut InstWord, pc: u32) -> Result<(), EncodeError> {
                let _ = pc;
                match self {
                    $(Op::$V $((bind!($T, o)))? => op_encode!($V, w, pc $(, o, $T)? $(, $pcrel)?),)*
                }
            }

            /// Decodes the op of `w` at byte address `pc`.
            pub fn decode($w: &InstWord, $pc: u32) -> Result<Op, DecodeError> {
                let full = $w.get(field::OPCODE) as u16;
                let alu = $w.get(field::ALU_OPCODE) as u16;
                let _ = $pc;
                $($(decode_arm!(fixed, $kind, full, $opcode, [$($opc),+], $dec);)*)*
                $($(decode_arm!(alu9, $kind, alu, $opcode, [$($opc),+], $dec);)*)*
                Err(DecodeError::UnknownOpcode {
                    opcode: u64::from(full),
                })
            }

            /// Visits every register operand: uses first, then defs.
            pub fn visit_regs(&mut self, v: &mut impl RegVisitor) {
                match self {
                    $(Op::$V $((bind!($T, o)))? => { $(let _: &$T = o; o.visit(v);)? })*
                }
            }

            /// The op's name without modifiers, as its text form begins.
            pub fn mnemonic(&self) -> &'static str {
                match self {
                    $(Op::$V $((bind!($T, o)))? => mnemonic!($($mn),+ ; $(o, $T)?),)*
                }
            }

            /// When its results are ready, and which scoreboards it sets.
            pub fn latency(&self) -> Latency {
                match self {
                    $(Op::$V $((wild!($T)))? => latency!($lat $(($n))?),)*
                }
            }

            /// What the op does besides computing its results.
            pub fn effect(&self) -> Effect {
                match self {
                    $(Op::$V $((wild!($T)))? => effect!($effect),)*
                }
            }

            /// `v` applied to the op when it is an ALU op, else the op as
            /// an [`OtherOp`].
            #[inline(always)]
            pub fn split<'a, V: AluVisitor<'a>>(&'a self, v: V) -> Result<V::Out, OtherOp<'a>> {
                match self {
                    $(Op::$V $((bind!($T, o)))? => split!($class, v, $V $(, o, $T)?),)*
                }
            }

            /// `v` applied to the op when it is an ALU op.
            #[inline(always)]
            pub fn alu<'a, V: AluVisitor<'a>>(&'a self, v: V) -> Option<V::Out> {
                match self {
                    $(Op::$V $((bind!($T, o)))? => split_mut!($class, v $(, o, $T)?),)*
                }
            }

            /// `v` applied to the op when it is an ALU op.
            #[inline(always)]
            pub fn alu_mut<'a, V: AluVisitorMut<'a>>(&'a mut self, v: V) -> Option<V::Out> {
                match self {
                    $(Op::$V $((bind!($T, o)))? => split_mut!($class, v $(, o, $T)?),)*
                }
            }
        }

        impl fmt::Display for Op {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(Op::$V $((bind!($T, o)))? => fmt_op!(f, $($mn),+ ; $(o, $T)?),)*
                }
            }
        }
    };
}

/// `for_each_op!(m)` calls the macro `m` with the op table's variants and
/// mnemonics, `Variant [MNEMONIC ...] ...`, so that a test crate can make
/// one test per op from the table.
macro_rules! export_ops {
    (($d:tt) $($V:ident [$($mn:ident)+])*) => {
        /// Calls the macro `m` with every op of the table as
        /// `Variant [MNEMONIC ...]` (tests make one test per op from it).
        #[macro_export]
        macro_rules! for_each_op {
            ($d m:ident) => {
                $d m! { $($V [$($mn)+])* }
            };
        }
    };
}

/// The enum of the ops not marked `alu`, accumulated entry by entry.
macro_rules! other_enum {
    ($lt:lifetime [$($acc:tt)*]) => {
        /// An op that is not an ALU op, by reference (see [`Op::split`]).
        #[derive(Clone, Copy, Debug)]
        pub enum OtherOp<$lt> {
            $($acc)*
        }
    };
    ($lt:lifetime [$($acc:tt)*] alu $V:ident $(($T:ty))?; $($rest:tt)*) => {
        other_enum!($lt [$($acc)*] $($rest)*);
    };
    ($lt:lifetime [$($acc:tt)*] other $V:ident($T:ty); $($rest:tt)*) => {
        other_enum!($lt [$($acc)* $V(&$lt $T),] $($rest)*);
    };
    ($lt:lifetime [$($acc:tt)*] other $V:ident; $($rest:tt)*) => {
        other_enum!($lt [$($acc)* $V,] $($rest)*);
    };
}

macro_rules! opcode_kind {
    (fixed) => {
        OpcodeKind::Fixed
    };
    (alu9) => {
        OpcodeKind::Alu
    };
}

/// A wildcard pattern (the type only selects the arm's shape).
macro_rules! wild {
    ($T:ty) => {
        _
    };
}

/// A pattern binding `$o` (the type only selects the arm's shape).
macro_rules! bind {
    ($T:ty, $o:ident) => {
        $o
    };
}

macro_rules! op_encode {
    ($V:ident, $w:ident, $pc:ident, $o:ident, $T:ty, pc) => {
        $o.encode($w, $pc)
    };
    ($V:ident, $w:ident, $pc:ident, $o:ident, $T:ty) => {
        $o.encode($w)
    };
    ($V:ident, $w:ident, $pc:ident) => {
        encode_bare($w, Op::$V)
    };
}

macro_rules! decode_arm {
    (fixed, fixed, $v:ident, $opcode:ident, [$($opc:expr),+], $dec:expr) => {
        if $($v == $opc)||+ {
            let $opcode = $v;
            let _ = $opcode;
            return Ok($dec);
        }
    };
    (alu9, alu9, $v:ident, $opcode:ident, [$($opc:expr),+], $dec:expr) => {
        if $($v == $opc)||+ {
            let $opcode = $v;
            let _ = $opcode;
            return Ok($dec);
        }
    };
    (fixed, alu9, $($rest:tt)*) => {};
    (alu9, fixed, $($rest:tt)*) => {};
}

macro_rules! mnemonic {
    ($mn:ident ; $($o:ident, $T:ty)?) => {{
        $(let _: &$T = $o;)?
        stringify!($mn)
    }};
    ($($mn:ident),+ ; $o:ident, $T:ty) => {
        $o.mnemonic()
    };
}

macro_rules! fmt_op {
    ($f:ident, $mn:ident ;) => {
        $f.write_str(stringify!($mn))
    };
    ($f:ident, $($mn:ident),+ ; $o:ident, $T:ty) => {
        $o.fmt_op($f)
    };
}

macro_rules! latency {
    (fixed($n:literal)) => {
        Latency::Fixed($n)
    };
    (var) => {
        Latency::Variable { reads_late: false }
    };
    (var_late) => {
        Latency::Variable { reads_late: true }
    };
}

macro_rules! effect {
    (pure) => {
        Effect::Pure
    };
    (effect) => {
        Effect::Effect
    };
    (sync) => {
        Effect::Sync
    };
}

macro_rules! split {
    (alu, $v:ident, $V:ident, $o:ident, $T:ty) => {
        Ok($v.visit($o))
    };
    (other, $v:ident, $V:ident, $o:ident, $T:ty) => {
        Err(OtherOp::$V($o))
    };
    (other, $v:ident, $V:ident) => {
        Err(OtherOp::$V)
    };
}

macro_rules! split_mut {
    (alu, $v:ident, $o:ident, $T:ty) => {
        Some($v.visit($o))
    };
    (other, $v:ident $(, $o:ident, $T:ty)?) => {{
        $(let _ = $o;)?
        None
    }};
}
