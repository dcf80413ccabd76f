//! PTX text into a [`Module`] (PTX ISA 9.x grammar, as NVRTC and nvcc 11.8–13.x emit it):
//! the module directives, variables, `.entry` and `.func` with their parameters, and each body's
//! declarations, labels and instructions. Debug sections (`.section`), `.loc`, `.file`,
//! `.pragma` and performance directives (`.maxntid` …) are skipped.

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{PtxError, Reason};
use crate::lex::{Tok, Token, lex};
use crate::module::{Function, Instruction, Module, Operand, Param, Space, Statement, Variable};

/// Parses PTX `text`.
///
/// # Errors
/// [`PtxError`] with the line and text of the first construct not understood.
pub fn parse(text: &str) -> Result<Module, PtxError> {
    let mut p = Parser {
        toks: lex(text),
        pos: 0,
        module: Module::default(),
    };
    p.module.address_size = 64;
    p.module.lines = text.lines().map(String::from).collect();
    p.module_items()?;
    Ok(p.module)
}

/// The size in bytes of a PTX type name (`.u32` → 4), 0 for `.pred`; `None` for no type.
pub fn type_size(w: &str) -> Option<u32> {
    Some(match w {
        ".b8" | ".u8" | ".s8" | ".e4m3" | ".e5m2" => 1,
        ".b16" | ".u16" | ".s16" | ".f16" | ".bf16" | ".e4m3x2" | ".e5m2x2" => 2,
        ".b32" | ".u32" | ".s32" | ".f32" | ".f16x2" | ".bf16x2" | ".tf32" | ".u16x2"
        | ".s16x2" => 4,
        ".b64" | ".u64" | ".s64" | ".f64" => 8,
        ".b128" => 16,
        ".pred" => 0,
        _ => return None,
    })
}

/// Parses an integer or float literal word.
pub fn number(w: &str) -> Option<Operand> {
    let w = w.strip_suffix(['U', 'u']).unwrap_or(w);
    let hex = |s: &str| u64::from_str_radix(s, 16).ok();
    if let Some(h) = w.strip_prefix("0f").or_else(|| w.strip_prefix("0F")) {
        return Some(Operand::Float {
            bits: hex(h)?,
            single: true,
        });
    }
    if let Some(h) = w.strip_prefix("0d").or_else(|| w.strip_prefix("0D")) {
        return Some(Operand::Float {
            bits: hex(h)?,
            single: false,
        });
    }
    if let Some(h) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        return Some(Operand::Int(hex(h)?));
    }
    if let Some(b) = w.strip_prefix("0b").or_else(|| w.strip_prefix("0B")) {
        return Some(Operand::Int(u64::from_str_radix(b, 2).ok()?));
    }
    if w.contains(['.', 'e', 'E']) {
        let f: f64 = w.parse().ok()?;
        return Some(Operand::Float {
            bits: f.to_bits(),
            single: false,
        });
    }
    if w.len() > 1 && w.starts_with('0') {
        return Some(Operand::Int(u64::from_str_radix(w.get(1..)?, 8).ok()?));
    }
    Some(Operand::Int(w.parse().ok()?))
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    module: Module,
}

type R<T> = Result<T, PtxError>;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k).map(|t| &t.tok)
    }
    fn line(&self) -> u32 {
        self.toks
            .get(self.pos)
            .or_else(|| self.toks.last())
            .map_or(0, |t| t.line)
    }
    fn err<T>(&self, reason: Reason) -> R<T> {
        let line = self.line();
        Err(PtxError {
            line,
            text: self.module.line_text(line),
            reason,
        })
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.tok.clone());
        self.pos += 1;
        t
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    fn eat_punct(&mut self, c: char) -> bool {
        let yes = self.is_punct(c);
        if yes {
            self.pos += 1;
        }
        yes
    }
    fn expect_punct(&mut self, c: char, what: &'static str) -> R<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.err(Reason::Syntax(what))
        }
    }
    fn peek_word(&self) -> Option<&str> {
        match self.peek() {
            Some(Tok::Word(w)) => Some(w.as_str()),
            _ => None,
        }
    }
    fn word(&mut self, what: &'static str) -> R<String> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.pos += 1;
                Ok(w)
            }
            _ => self.err(Reason::Syntax(what)),
        }
    }
    fn int(&mut self, what: &'static str) -> R<u64> {
        let w = self.word(what)?;
        match number(&w) {
            Some(Operand::Int(v)) => Ok(v),
            _ => {
                self.pos -= 1;
                self.err(Reason::Syntax(what))
            }
        }
    }
    /// Skips to just past the next `;` at this brace depth.
    fn skip_statement(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.next() {
            match t {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => depth -= 1,
                Tok::Punct(';') if depth <= 0 => return,
                _ => {}
            }
        }
    }
    /// Skips a `{ ... }` block (the current token is its `{`).
    fn skip_block(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.next() {
            match t {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth <= 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    fn module_items(&mut self) -> R<()> {
        let mut external = false;
        let mut visible = false;
        while let Some(tok) = self.peek().cloned() {
            let Tok::Word(w) = tok else {
                if self.eat_punct(';') {
                    continue;
                }
                return self.err(Reason::Syntax("a directive"));
            };
            match w.as_str() {
                ".version" => {
                    self.pos += 1;
                    let v = self.word("a version")?;
                    let (a, b) = v.split_once('.').unwrap_or((v.as_str(), "0"));
                    self.module.version = (a.parse().unwrap_or(0), b.parse().unwrap_or(0));
                }
                ".target" => {
                    self.pos += 1;
                    self.module.target = self.word("a target")?;
                    while self.eat_punct(',') {
                        self.word("a target")?;
                    }
                }
                ".address_size" => {
                    self.pos += 1;
                    self.module.address_size = self.int("an address size")? as u32;
                }
                ".visible" | ".weak" | ".common" => {
                    self.pos += 1;
                    visible = true;
                    continue;
                }
                ".extern" => {
                    self.pos += 1;
                    external = true;
                    continue;
                }
                ".entry" | ".func" => {
                    let f = self.function()?;
                    self.module.functions.push(f);
                }
                ".global" | ".shared" | ".const" | ".local" | ".align" => {
                    let mut v = self.variable(None)?;
                    v.external = external;
                    v.visible = visible;
                    self.module.variables.push(v);
                }
                ".section" => {
                    // DWARF sections of a -G/-lineinfo build: `.section .debug_x { ... }`.
                    while self.peek().is_some() && !self.is_punct('{') {
                        self.pos += 1;
                    }
                    self.skip_block();
                }
                ".pragma" => self.skip_statement(),
                _ => return self.err(Reason::Unsupported("module directive")),
            }
            external = false;
            visible = false;
        }
        Ok(())
    }

    /// `.param [.align N] .TYPE [.ptr .space .align N] name[[N]]`.
    fn param(&mut self) -> R<Param> {
        let kw = self.word(".param")?;
        if kw != ".param" {
            self.pos -= 1;
            return self.err(Reason::Unsupported("a parameter not in .param space"));
        }
        let mut align = 0u32;
        let mut size = 0u32;
        loop {
            let w = self.word("a parameter")?;
            if w == ".align" {
                align = self.int("an alignment")? as u32;
            } else if let Some(s) = type_size(&w) {
                size = s;
            } else if w.starts_with('.') {
                // `.ptr`, `.global`, `.shared`, `.const`, `.local`: pointer attributes.
            } else {
                let mut count = 1u64;
                while self.eat_punct('[') {
                    count = count.saturating_mul(self.int("an array size")?);
                    self.expect_punct(']', "]")?;
                }
                let elem = size.max(1);
                return Ok(Param {
                    name: w,
                    size: u64::from(elem)
                        .saturating_mul(count)
                        .min(u64::from(u32::MAX)) as u32,
                    align: if align == 0 { elem } else { align },
                });
            }
        }
    }

    fn param_list(&mut self) -> R<Vec<Param>> {
        let mut out = Vec::new();
        self.expect_punct('(', "(")?;
        if self.eat_punct(')') {
            return Ok(out);
        }
        loop {
            out.push(self.param()?);
            if self.eat_punct(')') {
                return Ok(out);
            }
            self.expect_punct(',', ", or )")?;
        }
    }

    fn function(&mut self) -> R<Function> {
        let line = self.line();
        let kind = self.word("a function")?;
        let entry = kind == ".entry";
        let returns = if !entry && self.is_punct('(') {
            self.param_list()?
        } else {
            Vec::new()
        };
        let name = self.word("a function name")?;
        let params = if self.is_punct('(') {
            self.param_list()?
        } else {
            Vec::new()
        };
        // Performance tuning directives and `.noreturn`; of them only the cluster's shape
        // (`.reqnctapercluster x, y, z`, `__cluster_dims__`) changes how a kernel runs.
        let mut cluster = None;
        loop {
            match self.peek() {
                Some(Tok::Word(w)) if w.starts_with('.') => {
                    let directive = w.clone();
                    self.pos += 1;
                    let mut values = Vec::new();
                    while matches!(self.peek(), Some(Tok::Word(w)) if !w.starts_with('.'))
                        || self.is_punct(',')
                        || matches!(self.peek(), Some(Tok::Str(_)))
                    {
                        if let Some(Tok::Word(v)) = self.peek() {
                            values.push(v.parse::<u32>().ok());
                        }
                        self.pos += 1;
                    }
                    self.eat_punct(';');
                    if directive == ".reqnctapercluster" {
                        let mut dims = [1u32; 3];
                        for (d, v) in dims.iter_mut().zip(&values) {
                            match v {
                                Some(v) => *d = *v,
                                None => return self.err(Reason::Syntax("a cluster dimension")),
                            }
                        }
                        cluster = Some(dims);
                    }
                }
                _ => break,
            }
        }
        if self.eat_punct(';') {
            return Ok(Function {
                name,
                entry,
                params,
                returns,
                body: None,
                line,
                cluster,
            });
        }
        self.expect_punct('{', "{")?;
        let body = self.body()?;
        Ok(Function {
            name,
            entry,
            params,
            returns,
            body: Some(body),
            line,
            cluster,
        })
    }

    fn variable(&mut self, first: Option<String>) -> R<Variable> {
        let line = self.line();
        let mut space = None;
        let mut align = 0u32;
        let mut elem = 0u32;
        let mut vec = 1u32;
        let mut external = false;
        let mut w = match first {
            Some(w) => w,
            None => self.word("a declaration")?,
        };
        loop {
            match w.as_str() {
                ".global" => space = Some(Space::Global),
                ".shared" | ".shared::cta" => space = Some(Space::Shared),
                ".const" => space = Some(Space::Const),
                ".local" => space = Some(Space::Local),
                ".param" => space = Some(Space::Param),
                ".extern" => external = true,
                ".visible" | ".weak" | ".common" => {}
                ".align" => align = self.int("an alignment")? as u32,
                ".v2" => vec = 2,
                ".v4" => vec = 4,
                ".v8" => vec = 8,
                ".ptr" => {}
                _ => {
                    if let Some(s) = type_size(&w) {
                        elem = s;
                    } else if w.starts_with('.') {
                        return self.err(Reason::Unsupported("variable type"));
                    } else {
                        break;
                    }
                }
            }
            w = self.word("a variable name")?;
        }
        let Some(space) = space else {
            return self.err(Reason::Syntax("a state space"));
        };
        let elem_size = elem.max(1) * vec;
        let mut count = 1u64;
        let mut unsized_array = false;
        while self.eat_punct('[') {
            if self.eat_punct(']') {
                unsized_array = true;
                continue;
            }
            count = count.saturating_mul(self.int("an array size")?);
            self.expect_punct(']', "]")?;
        }
        let mut init = Vec::new();
        let mut init_symbols = Vec::new();
        if self.eat_punct('=') {
            let mut n = 0u64;
            self.initializer(elem_size, &mut init, &mut init_symbols, &mut n)?;
            if unsized_array {
                count = n;
                unsized_array = false;
            }
        }
        if unsized_array {
            count = 0;
        }
        self.expect_punct(';', ";")?;
        Ok(Variable {
            name: w,
            space,
            align: if align == 0 { elem_size } else { align },
            elem_size,
            count,
            init,
            init_symbols,
            external,
            visible: false,
            line,
        })
    }

    /// One initializer (scalar, `{…}`, nested) appended as `elem`-byte elements.
    fn initializer(
        &mut self,
        elem: u32,
        bytes: &mut Vec<u8>,
        syms: &mut Vec<(u64, String)>,
        n: &mut u64,
    ) -> R<()> {
        if self.eat_punct('{') {
            if self.eat_punct('}') {
                return Ok(());
            }
            loop {
                self.initializer(elem, bytes, syms, n)?;
                if self.eat_punct('}') {
                    return Ok(());
                }
                self.expect_punct(',', ", or }")?;
            }
        }
        let neg = self.eat_punct('-');
        let w = self.word("an initializer")?;
        let value = match number(&w) {
            Some(Operand::Int(v)) => {
                if neg {
                    v.wrapping_neg()
                } else {
                    v
                }
            }
            Some(Operand::Float { bits, single }) => {
                let f = if single {
                    f64::from(f32::from_bits(bits as u32))
                } else {
                    f64::from_bits(bits)
                };
                let f = if neg { -f } else { f };
                if elem == 4 {
                    u64::from((f as f32).to_bits())
                } else {
                    f.to_bits()
                }
            }
            _ => {
                // `name`, `generic(name)`, `name+off`: an address the loader fills in.
                let name = if w == "generic" && self.eat_punct('(') {
                    let name = self.word("a variable name")?;
                    self.expect_punct(')', ")")?;
                    name
                } else {
                    w
                };
                if self.eat_punct('+') {
                    self.int("an offset")?;
                }
                syms.push((bytes.len() as u64, name));
                0
            }
        };
        bytes.extend_from_slice(
            value
                .to_le_bytes()
                .get(..elem.min(8) as usize)
                .unwrap_or(&[]),
        );
        for _ in 8..elem {
            bytes.push(0);
        }
        *n += 1;
        Ok(())
    }

    fn body(&mut self) -> R<Vec<Statement>> {
        let mut out = Vec::new();
        let mut depth = 0u32;
        loop {
            let line = self.line();
            let Some(tok) = self.peek().cloned() else {
                return self.err(Reason::Syntax("}"));
            };
            match tok {
                Tok::Punct('{') => {
                    self.pos += 1;
                    depth += 1;
                    out.push(Statement::Open);
                }
                Tok::Punct('}') => {
                    self.pos += 1;
                    if depth == 0 {
                        return Ok(out);
                    }
                    depth -= 1;
                    out.push(Statement::Close);
                }
                Tok::Punct(';') => self.pos += 1,
                Tok::Punct('@') => {
                    self.pos += 1;
                    let neg = self.eat_punct('!');
                    let p = self.word("a guard predicate")?;
                    let mut inst = self.instruction(line)?;
                    inst.guard = Some((p, neg));
                    out.push(Statement::Inst(inst));
                }
                Tok::Word(w) => {
                    if self.peek_at(1) == Some(&Tok::Punct(':')) {
                        self.pos += 2;
                        if matches!(self.peek_word(), Some(".callprototype" | ".branchtargets")) {
                            self.skip_statement();
                        } else {
                            out.push(Statement::Label(w));
                        }
                        continue;
                    }
                    match w.as_str() {
                        ".reg" => {
                            self.pos += 1;
                            out.push(self.reg_decl()?);
                        }
                        ".local" | ".shared" | ".param" | ".const" | ".global" | ".align"
                        | ".extern" => {
                            self.pos += 1;
                            out.push(Statement::Var(self.variable(Some(w))?));
                        }
                        ".pragma" => self.skip_statement(),
                        _ if w.starts_with('.') => {
                            return self.err(Reason::Unsupported("directive"));
                        }
                        _ => {
                            let inst = self.instruction(line)?;
                            out.push(Statement::Inst(inst));
                        }
                    }
                }
                _ => return self.err(Reason::Syntax("a statement")),
            }
        }
    }

    fn reg_decl(&mut self) -> R<Statement> {
        let bits;
        let mut vec = 1;
        loop {
            let w = self.word("a register type")?;
            if w == ".v2" {
                vec = 2;
            } else if w == ".v4" {
                vec = 4;
            } else if let Some(s) = type_size(&w) {
                bits = s * 8;
                break;
            } else {
                self.pos -= 1;
                return self.err(Reason::Unsupported("register type"));
            }
        }
        if vec != 1 {
            return self.err(Reason::Unsupported("vector registers"));
        }
        let mut names = Vec::new();
        loop {
            let name = self.word("a register name")?;
            if self.eat_punct('<') {
                let n = self.int("a register count")?;
                self.expect_punct('>', ">")?;
                if n > 1 << 20 {
                    return self.err(Reason::Unsupported("more than 2^20 registers"));
                }
                for i in 0..n {
                    names.push(alloc::format!("{name}{i}"));
                }
            } else {
                names.push(name);
            }
            if self.eat_punct(';') {
                return Ok(Statement::Reg { bits, names });
            }
            self.expect_punct(',', ", or ;")?;
        }
    }

    fn instruction(&mut self, line: u32) -> R<Instruction> {
        let opcode = self.word("an opcode")?;
        let start = self.pos;
        match self.operands() {
            Ok(operands) => Ok(Instruction {
                line,
                guard: None,
                opcode,
                operands,
                unread: None,
            }),
            Err(e) => {
                // Operands this parser does not read: kept as an instruction without them, which
                // decoding refuses, so that only the kernels using it are refused.
                let why = match e.reason {
                    Reason::Syntax(s) => s,
                    _ => "operands not read",
                };
                self.pos = start;
                self.skip_statement();
                Ok(Instruction {
                    line,
                    guard: None,
                    opcode,
                    operands: Vec::new(),
                    unread: Some(why),
                })
            }
        }
    }

    /// An instruction's operands, through its `;`.
    fn operands(&mut self) -> R<Vec<Operand>> {
        let mut operands = Vec::new();
        if !self.eat_punct(';') {
            loop {
                operands.push(self.operand()?);
                if self.eat_punct(';') {
                    break;
                }
                self.expect_punct(',', ", or ;")?;
            }
        }
        Ok(operands)
    }

    fn operand(&mut self) -> R<Operand> {
        if self.eat_punct('[') {
            let mut base = None;
            let mut offset = 0i64;
            let mut sign = 1i64;
            loop {
                if self.eat_punct(']') {
                    return Ok(Operand::Address { base, offset });
                }
                if self.eat_punct('+') {
                    continue;
                }
                // A texture or surface operand `[%rd, {x, y}]` (PTX ISA 9.7.10: the object
                // handle, then its coordinates, a vector or one register).
                if let Some(handle) = base.clone().filter(|_| offset == 0)
                    && self.eat_punct(',')
                {
                    let coords = match self.operand()? {
                        Operand::Vector(v) => v,
                        one => alloc::vec![one],
                    };
                    self.expect_punct(']', "]")?;
                    return Ok(Operand::Texture { handle, coords });
                }
                if self.eat_punct('-') {
                    sign = -sign;
                    continue;
                }
                let w = self.word("an address")?;
                match number(&w) {
                    Some(Operand::Int(v)) => {
                        offset = offset.wrapping_add(sign.wrapping_mul(v as i64));
                        sign = 1;
                    }
                    _ if base.is_none() => base = Some(w),
                    _ => return self.err(Reason::Syntax("an address")),
                }
            }
        }
        if self.eat_punct('{') {
            let mut v = Vec::new();
            loop {
                v.push(self.operand()?);
                if self.eat_punct('}') {
                    return Ok(Operand::Vector(v));
                }
                self.expect_punct(',', ", or }")?;
            }
        }
        if self.eat_punct('(') {
            let mut v = Vec::new();
            if self.eat_punct(')') {
                return Ok(Operand::List(v));
            }
            loop {
                v.push(self.operand()?);
                if self.eat_punct(')') {
                    return Ok(Operand::List(v));
                }
                self.expect_punct(',', ", or )")?;
            }
        }
        if self.eat_punct('!') {
            return Ok(Operand::Not(self.word("a predicate")?));
        }
        if self.eat_punct('-') {
            let w = self.word("a number")?;
            return match number(&w) {
                Some(Operand::Int(v)) => Ok(Operand::Int(v.wrapping_neg())),
                Some(Operand::Float { bits, single }) => Ok(Operand::Float {
                    bits: if single {
                        bits ^ 0x8000_0000
                    } else {
                        bits ^ (1 << 63)
                    },
                    single,
                }),
                _ => self.err(Reason::Syntax("a number")),
            };
        }
        let w = self.word("an operand")?;
        if w.starts_with(|c: char| c.is_ascii_digit()) {
            return match number(&w) {
                Some(n) => Ok(n),
                None => self.err(Reason::Syntax("a number")),
            };
        }
        if w == "_" {
            return Ok(Operand::Sink);
        }
        if self.eat_punct('|') {
            let q = self.word("a predicate")?;
            return Ok(Operand::Pair(w, q));
        }
        if self.is_punct('+') && matches!(self.peek_at(1), Some(Tok::Word(_))) {
            // `name+4` outside brackets (mov of a variable's address plus an offset).
            self.pos += 1;
            let off = self.int("an offset")?;
            return Ok(Operand::NameOffset(w, off as i64));
        }
        Ok(Operand::Name(w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn literals() {
        assert_eq!(number("42"), Some(Operand::Int(42)));
        assert_eq!(number("0x1F"), Some(Operand::Int(31)));
        assert_eq!(number("0xffffffffU"), Some(Operand::Int(0xffff_ffff)));
        assert_eq!(number("017"), Some(Operand::Int(15)));
        assert_eq!(number("0b101"), Some(Operand::Int(5)));
        assert_eq!(
            number("0f3F800000"),
            Some(Operand::Float {
                bits: 0x3f80_0000,
                single: true
            })
        );
        assert_eq!(
            number("0d4000000000000000"),
            Some(Operand::Float {
                bits: 2f64.to_bits(),
                single: false
            })
        );
        assert_eq!(
            number("1.5e-3"),
            Some(Operand::Float {
                bits: 1.5e-3f64.to_bits(),
                single: false
            })
        );
        assert_eq!(number("0x"), None);
        assert_eq!(number("12ab"), None);
    }

    #[test]
    fn body_forms() {
        let text = ".version 9.0\n.target sm_100a\n.address_size 64\n// c\n/* block\n comment */\n\
            .visible .entry k(.param .u64 .ptr .global .align 8 k_p0, .param .align 16 .b8 k_p1[32])\n\
            .maxntid 128, 1, 1\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n\t.loc 1 2 3\n\
            $L__BB0_1:\n\t@!%p1 bra.uni $L__BB0_1;\n\tsetp.lt.s32 %p1|%p2, %r1, -4;\n\
            \tmov.b64 %rd1, {%r1, %r2};\n\tld.global.v2.u32 {%r1, _}, [%rd2+-8];\n}\n";
        let m = parse(text).unwrap();
        assert_eq!(m.version, (9, 0));
        assert_eq!(m.target, "sm_100a");
        let f = &m.functions[0];
        assert_eq!(
            f.params[0],
            Param {
                name: "k_p0".into(),
                size: 8,
                align: 8
            }
        );
        assert_eq!(
            f.params[1],
            Param {
                name: "k_p1".into(),
                size: 32,
                align: 16
            }
        );
        let body = f.body.as_ref().unwrap();
        assert_eq!(
            body[0],
            Statement::Reg {
                bits: 0,
                names: vec!["%p0".into(), "%p1".into(), "%p2".into()]
            }
        );
        assert_eq!(body[2], Statement::Label("$L__BB0_1".into()));
        let Statement::Inst(bra) = &body[3] else {
            panic!()
        };
        assert_eq!(
            (bra.line, bra.guard.clone()),
            (14, Some(("%p1".into(), true)))
        );
        let Statement::Inst(setp) = &body[4] else {
            panic!()
        };
        assert_eq!(setp.operands[0], Operand::Pair("%p1".into(), "%p2".into()));
        assert_eq!(setp.operands[2], Operand::Int((-4i64) as u64));
        let Statement::Inst(ld) = &body[6] else {
            panic!()
        };
        assert_eq!(
            ld.operands[0],
            Operand::Vector(vec![Operand::Name("%r1".into()), Operand::Sink])
        );
        assert_eq!(
            ld.operands[1],
            Operand::Address {
                base: Some("%rd2".into()),
                offset: -8
            }
        );
    }

    #[test]
    fn variables_with_initializers() {
        let text = ".version 8.0\n.target sm_80\n.address_size 64\n\
            .global .align 4 .b32 a[4] = {1, -2, 0x10, 0f3F800000};\n\
            .const .align 8 .u64 p[2] = {generic(a), a};\n\
            .extern .shared .align 16 .b8 dyn[];\n\
            .global .f32 one = 1.0;\n";
        let m = parse(text).unwrap();
        let a = &m.variables[0];
        assert_eq!((a.size(), a.align), (16, 4));
        assert_eq!(&a.init[..8], &[1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff]);
        assert_eq!(&a.init[12..], &1f32.to_bits().to_le_bytes());
        assert_eq!(
            m.variables[1].init_symbols,
            vec![(0, "a".into()), (8, "a".into())]
        );
        assert!(m.variables[2].external && m.variables[2].count == 0);
        assert_eq!(m.variables[3].init, 1f32.to_bits().to_le_bytes().to_vec());
    }
}
