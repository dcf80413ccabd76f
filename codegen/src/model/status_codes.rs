//! Checks each spec's typed errors against the header: the stub returns the spec's value
//! (`STATUS_NO_LIBRARY = CUDART.errors.no_library.value`), so the header must define the named
//! enumerator with that value, in the generated bindings of the newest major.

use crate::read::libraries::Library;
use stub_model::TextAbi;

/// Fails unless `types` (the generated `types.rs`) has `pub const <name>: <type> = <value>;`
/// for both of `library`'s typed errors and each code its error-text exports return
/// (`TextAbi::OutParam`'s `unknown`), or, for a code that is a macro bindgen does not evaluate
/// (NVTX's `#define NVTX_NO_PUSH_POP_TRACKING ((int)-2)`: a cast), `header` (the newest major's
/// text of the spec's header) defines it with that value.
pub fn check(library: &Library, types: &str, header: &str) -> Result<(), String> {
    let returned = library.error_texts.iter().filter_map(|t| match t.abi {
        TextAbi::OutParam { unknown } => Some(unknown),
        TextAbi::Returned => None,
    });
    for code in [library.errors.no_library, library.errors.absent]
        .into_iter()
        .chain(returned)
    {
        let defined = types.lines().any(|line| {
            line.strip_prefix("pub const ")
                .and_then(|rest| rest.strip_prefix(code.name))
                .is_some_and(|rest| {
                    rest.starts_with(':') && rest.ends_with(&format!(" = {};", code.value))
                })
        });
        if !defined && !defines(header, code.name, code.value) {
            return Err(format!(
                "{}: the header defines no {} = {} (the spec's)",
                library.name(),
                code.name,
                code.value
            ));
        }
    }
    Ok(())
}

/// Whether `header` has `#define <name> <value>`, the value spelled as a C integer that may be
/// parenthesised and cast to `int` (`((int)-2)`, `(-2)`, `-2`).
fn defines(header: &str, name: &str, value: i32) -> bool {
    header.lines().any(|line| {
        let Some(rest) = line.trim_start().strip_prefix("#define ") else {
            return false;
        };
        let Some(text) = rest.trim_start().strip_prefix(name) else {
            return false;
        };
        if !text.starts_with(char::is_whitespace) {
            return false;
        }
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let text = text.replace("(int)", "");
        text.trim_start_matches('(').trim_end_matches(')').parse() == Ok(value)
    })
}

#[cfg(test)]
mod tests {
    use super::defines;

    #[test]
    fn a_cast_macro_defines_its_value() {
        let header = "#define NVTX_NO_PUSH_POP_TRACKING ((int)-2)\n#define NVTX_SUCCESS 0\n";
        assert!(defines(header, "NVTX_NO_PUSH_POP_TRACKING", -2));
        assert!(defines(header, "NVTX_SUCCESS", 0));
        assert!(!defines(header, "NVTX_NO_PUSH_POP_TRACKING", 2));
        assert!(!defines(header, "NVTX_NO_PUSH_POP", -2));
    }
}
