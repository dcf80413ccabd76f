//! Which functions the loaded library may be asked for: a symbol's majors against the loaded
//! major, decided before any `dlsym`.

use crate::spec::Gating;
use core::ffi::c_void;
use core::fmt;

/// Which majors have a symbol, as bit masks (bit `n` set = CUDA major `n`). Emitted by the
/// `cuda_stubs` macro from the generated declarations.
#[derive(Debug, Clone, Copy)]
pub struct SymbolGate {
    /// Majors whose library exports the symbol (driver: whose `cuda.h` declares it).
    pub majors: u32,
    /// Majors where the symbol has the ABI the stub exports. A major in `majors` but not here
    /// has the name with another prototype or struct layout: calling it would corrupt memory.
    pub abi: u32,
}

/// What the first call of a function finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// The real entry point, with the ABI the stub exports.
    Found(*mut c_void),
    /// No real library was found: the "library not found" error.
    NoLibrary,
    /// The loaded version lacks the symbol (by its majors, or `dlsym` failed): the "function
    /// absent" error.
    Absent,
    /// The loaded version has the name with another ABI and no adapter exists: refused with the
    /// "function absent" error, never called.
    NotTranslatable,
}

/// What the gate says for `major`, the loaded one: `None` when `dlsym` decides (the major has
/// the symbol with the stub's ABI, or the major is unknown and every major that has the name
/// has it with the stub's ABI).
pub(crate) fn gate_decision(gating: Gating, gate: SymbolGate, major: u32) -> Option<Resolution> {
    if major == 0 || major >= 32 {
        // An unknown version (a probe that found none: NPP's unversioned file name, a
        // cuSPARSELt without PTX) cannot tell which prototype the name has where the majors
        // differ (NPP 12.0 widened `int` lengths to `size_t`): refused, never guessed.
        return (gate.abi != gate.majors).then_some(Resolution::NotTranslatable);
    }
    let bit = 1u32 << major;
    match gating {
        Gating::Exact if gate.majors & bit == 0 => Some(Resolution::Absent),
        Gating::Exact if gate.abi & bit == 0 => Some(Resolution::NotTranslatable),
        Gating::AtLeast if gate.majors != 0 && major < gate.majors.trailing_zeros() => {
            Some(Resolution::Absent)
        }
        // A driver of a major whose headers declare the name with another struct layout
        // (CUdevResource in 12.x vs 13.x) would read the caller's structs wrongly.
        Gating::AtLeast if gate.majors & bit != 0 && gate.abi & bit == 0 => {
            Some(Resolution::NotTranslatable)
        }
        _ => None,
    }
}

/// A majors mask as text, `11,12`: a `Display`, so a debug line that is not written costs
/// nothing (a `format_args!` argument is evaluated whether or not the line is written).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Majors(pub(crate) u32);

impl fmt::Display for Majors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        for m in (0..32u32).filter(|m| self.0 & (1 << m) != 0) {
            write!(f, "{sep}{m}")?;
            sep = ",";
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    const M: SymbolGate = SymbolGate {
        majors: (1 << 11) | (1 << 12),
        abi: 1 << 12,
    };

    #[test]
    fn exact_gating_separates_absent_from_refused() {
        assert_eq!(
            gate_decision(Gating::Exact, M, 13),
            Some(Resolution::Absent)
        );
        assert_eq!(
            gate_decision(Gating::Exact, M, 11),
            Some(Resolution::NotTranslatable)
        );
        assert_eq!(gate_decision(Gating::Exact, M, 12), None);
        // Unknown version: a name whose ABI differs across majors is refused; one that is the
        // same everywhere is left to dlsym.
        assert_eq!(
            gate_decision(Gating::Exact, M, 0),
            Some(Resolution::NotTranslatable)
        );
        let same = SymbolGate {
            majors: M.majors,
            abi: M.majors,
        };
        assert_eq!(gate_decision(Gating::Exact, same, 0), None);
    }

    #[test]
    fn driver_gating_refuses_a_driver_major_with_another_layout() {
        let g = SymbolGate {
            majors: 1 << 12 | 1 << 13,
            abi: 1 << 13,
        };
        assert_eq!(
            gate_decision(Gating::AtLeast, g, 12),
            Some(Resolution::NotTranslatable)
        );
        assert_eq!(gate_decision(Gating::AtLeast, g, 13), None);
        assert_eq!(gate_decision(Gating::AtLeast, g, 14), None);
    }

    #[test]
    fn driver_gating_is_a_minimum() {
        let g = SymbolGate {
            majors: 1 << 12 | 1 << 13,
            abi: 1 << 12 | 1 << 13,
        };
        assert_eq!(
            gate_decision(Gating::AtLeast, g, 11),
            Some(Resolution::Absent)
        );
        assert_eq!(gate_decision(Gating::AtLeast, g, 13), None);
        assert_eq!(gate_decision(Gating::AtLeast, g, 14), None);
    }

    #[test]
    fn majors_print_as_a_list() {
        assert_eq!(Majors(M.majors).to_string(), "11,12");
        assert_eq!(Majors(0).to_string(), "");
    }
}
