//! PTX text into tokens: words (identifiers, opcodes with their `.` modifiers, directives,
//! numbers), strings and punctuation, each with its 1-based line. Comments (`//`, `/* */`) and
//! the line-oriented debug directives without a `;` (`.loc`, `.file`) are dropped here.

use alloc::string::String;
use alloc::vec::Vec;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A run of `[A-Za-z0-9_$%.]` (and a float exponent's sign): `ld.global.u32`, `%r1`,
    /// `.reg`, `0f3F800000`, `$L__BB0_2`, `%tid.x`.
    Word(String),
    /// A double-quoted string without its quotes.
    Str(String),
    /// One punctuation character: `, ; : { } [ ] ( ) + - < > @ ! = |`.
    Punct(char),
}

/// A token and its source line.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its 1-based line.
    pub line: u32,
}

fn word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.')
}

/// Splits `text` into tokens. Unknown characters become punctuation the parser refuses.
pub fn lex(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0usize;
    let mut line = 1u32;
    while let Some(&c) = b.get(i) {
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while b.get(i).is_some_and(|&c| c != b'\n') {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while let Some(&c) = b.get(i) {
                if c == b'*' && b.get(i + 1) == Some(&b'/') {
                    i += 2;
                    break;
                }
                if c == b'\n' {
                    line += 1;
                }
                i += 1;
            }
        } else if c == b'"' {
            let start = i + 1;
            i += 1;
            while b.get(i).is_some_and(|&c| c != b'"' && c != b'\n') {
                if b.get(i) == Some(&b'\\') {
                    i += 1;
                }
                i += 1;
            }
            let s = text.get(start..i.min(b.len())).unwrap_or("");
            out.push(Token {
                tok: Tok::Str(String::from(s)),
                line,
            });
            i += 1;
        } else if word_char(c) {
            let start = i;
            let numeric = c.is_ascii_digit();
            let hex = |w: &str| {
                ["0x", "0X", "0f", "0F", "0d", "0D"]
                    .iter()
                    .any(|p| w.starts_with(p))
            };
            while let Some(&c) = b.get(i) {
                // A decimal float's exponent sign (`1e-5`) belongs to the number.
                let exponent_sign = numeric
                    && matches!(c, b'+' | b'-')
                    && matches!(b.get(i.wrapping_sub(1)), Some(b'e' | b'E'))
                    && !text.get(start..i).is_some_and(hex);
                if word_char(c) || exponent_sign {
                    i += 1;
                } else if c == b':' && b.get(i + 1) == Some(&b':') {
                    // A state space's sub-qualifier inside an opcode (`.shared::cta`,
                    // `.mbarrier::complete_tx::bytes`); a label's single `:` ends the word.
                    i += 2;
                } else {
                    break;
                }
            }
            let w = text.get(start..i).unwrap_or("");
            if w == ".loc" || w == ".file" {
                // Debug line information: no `;`, the rest of the line is its operands.
                while b.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
                continue;
            }
            out.push(Token {
                tok: Tok::Word(String::from(w)),
                line,
            });
        } else {
            // A multi-byte UTF-8 character is consumed whole (as one unknown punctuation).
            let ch = text.get(i..).and_then(|s| s.chars().next()).unwrap_or('?');
            out.push(Token {
                tok: Tok::Punct(ch),
                line,
            });
            i += ch.len_utf8();
        }
    }
    out
}
