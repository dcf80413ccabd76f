//! Checks each spec's typed errors against the header: the stub returns the spec's value
//! (`STATUS_NO_LIBRARY = CUDART.errors.no_library.value`), so the header must define the named
//! enumerator with that value, in the generated bindings of the newest major.

use crate::read::libraries::Library;
use stub_model::TextAbi;

/// Fails unless `types` (the generated `types.rs`) has `pub const <name>: <type> = <value>;`
/// for both of `library`'s typed errors and each code its error-text exports return
/// (`TextAbi::OutParam`'s `unknown`).
pub fn check(library: &Library, types: &str) -> Result<(), String> {
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
        if !defined {
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
