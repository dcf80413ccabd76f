//! The parsed module: what the PTX text declares, before decoding (names still names).

use alloc::string::String;
use alloc::vec::Vec;

/// A PTX state space (PTX ISA 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// `.global`.
    Global,
    /// `.shared` (`.shared::cta`).
    Shared,
    /// `.local`.
    Local,
    /// `.const`.
    Const,
    /// `.param`.
    Param,
    /// No space: a generic address.
    Generic,
}

/// A variable declaration (`.global .align 4 .b8 x[16] = {...};`), module- or function-level.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// The name.
    pub name: String,
    /// Its state space.
    pub space: Space,
    /// Its alignment in bytes (`.align`, else the element size).
    pub align: u32,
    /// One element's size in bytes (`.b8` 1 … `.b64` 8, times a `.v2`/`.v4`).
    pub elem_size: u32,
    /// Elements: the product of the array dimensions (1 for a scalar; 0 for `[]` without an
    /// initializer, as `.extern .shared` arrays are).
    pub count: u64,
    /// The initializer's bytes (little-endian), shorter than the variable where the rest is
    /// zero; empty without one.
    pub init: Vec<u8>,
    /// Initializer elements that are addresses of other variables: (byte offset, name); the
    /// loader writes the variable's address (plus nothing) there.
    pub init_symbols: Vec<(u64, String)>,
    /// `.extern` (defined elsewhere; for `.shared`, the dynamic shared memory).
    pub external: bool,
    /// `.visible` / `.weak` / `.common`: the symbol is seen by the host.
    pub visible: bool,
    /// The declaration's line.
    pub line: u32,
}

impl Variable {
    /// Its size in bytes (`elem_size * count`, saturating).
    pub fn size(&self) -> u64 {
        u64::from(self.elem_size).saturating_mul(self.count)
    }
}

/// One `.param` of a function or kernel (or a return value of a `.func`).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The name.
    pub name: String,
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
}

/// An instruction operand as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A name: a register, a variable, a label, a function, a special register (`%tid.x`).
    Name(String),
    /// A predicate's negation `!%p`.
    Not(String),
    /// An integer literal (as its 64 bits; negative ones two's complement).
    Int(u64),
    /// A float literal: `0fXXXXXXXX` (f32 bits, `single` true), `0dX…` or decimal (f64 bits).
    Float {
        /// The bits.
        bits: u64,
        /// Whether `bits` is an f32 (`0f`).
        single: bool,
    },
    /// `_`, the sink.
    Sink,
    /// A vector `{a, b, …}`.
    Vector(Vec<Operand>),
    /// An address `[base+off]`, `[base]`, `[imm]`.
    Address {
        /// The base name, if any.
        base: Option<String>,
        /// The byte offset.
        offset: i64,
    },
    /// A parenthesised list (a call's arguments or return values).
    List(Vec<Operand>),
    /// A variable's address plus an offset, outside brackets (`mov.u64 %rd1, x+8`).
    NameOffset(String, i64),
    /// Two predicates `%p|%q` (setp's second destination).
    Pair(String, String),
    /// A texture or surface operand `[handle, {coords}]` (`tex`, `tld4`, `suld`, `sust`): the
    /// object handle's register and the coordinates.
    Texture {
        /// The register holding the 64-bit object handle.
        handle: String,
        /// The coordinates (and a layer index first for arrays), as written.
        coords: Vec<Operand>,
    },
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// The 1-based line.
    pub line: u32,
    /// The guard predicate: (name, negated).
    pub guard: Option<(String, bool)>,
    /// The opcode with its modifiers, as written (`ld.global.nc.v4.f32`).
    pub opcode: String,
    /// The operands.
    pub operands: Vec<Operand>,
    /// Operands the parser does not read (a texture's `[tex, {x, y}]`): the instruction is kept,
    /// without operands, so that only the kernels using it are refused when decoded, not the
    /// whole module.
    pub unread: Option<&'static str>,
}

/// One statement of a function body.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// `.reg .TYPE names;` with ranges `%r<10>` expanded: (type width in bits, 0 for `.pred`;
    /// names).
    Reg {
        /// Bits per register (0: predicate).
        bits: u32,
        /// The names declared.
        names: Vec<String>,
    },
    /// A `.local`/`.shared`/`.param`/`.const`/`.global` variable inside the body.
    Var(Variable),
    /// `label:`.
    Label(String),
    /// An instruction.
    Inst(Instruction),
    /// `{`: a nested scope.
    Open,
    /// `}`.
    Close,
}

/// A `.entry` or `.func`.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// `.entry` (a kernel) rather than `.func`.
    pub entry: bool,
    /// Its parameters.
    pub params: Vec<Param>,
    /// A `.func`'s return parameters.
    pub returns: Vec<Param>,
    /// The body; `None` for a declaration (`.extern .func vprintf(...)`).
    pub body: Option<Vec<Statement>>,
    /// The declaration's line.
    pub line: u32,
    /// `.reqnctapercluster`: the blocks per cluster the kernel requires (`__cluster_dims__`),
    /// the missing dimensions 1.
    pub cluster: Option<[u32; 3]>,
}

/// A parsed module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    /// `.version` (major, minor).
    pub version: (u32, u32),
    /// `.target`'s first entry (`sm_90a`).
    pub target: String,
    /// `.address_size` (64 by default).
    pub address_size: u32,
    /// Module-level variables.
    pub variables: Vec<Variable>,
    /// The functions and kernels, in order, declarations included.
    pub functions: Vec<Function>,
    /// The source lines, for error texts.
    pub(crate) lines: Vec<String>,
}

impl Module {
    /// The text of 1-based `line`, trimmed.
    pub(crate) fn line_text(&self, line: u32) -> String {
        self.lines
            .get((line as usize).wrapping_sub(1))
            .map(|s| String::from(s.trim()))
            .unwrap_or_default()
    }
}
