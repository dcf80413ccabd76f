//! The `#[cuda(majors = [..], abi = [..], hand_written, opaque, version = N)]` attribute of one
//! declaration: its grammar, parser and printer (codegen writes declarations through
//! [`CudaAttr`]'s `ToTokens`, the macro and the tests read them with [`CudaAttr::parse`]).

use crate::majors;
use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Lit};

/// One declaration's `#[cuda(..)]` arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CudaAttr {
    /// Majors whose library has the symbol (sorted, deduplicated, each [`majors::valid`]).
    pub majors: Vec<u32>,
    /// Majors whose ABI for the symbol equals the declared prototype (subset of `majors`;
    /// written only when it differs from `majors`, its default).
    pub abi: Vec<u32>,
    /// The stub crate implements the export by hand; the macro only provides the forwarder.
    pub hand_written: bool,
    /// Exported by the real library but declared in no header: the prototype is unknown, so the
    /// stub forwards it with a tail jump that leaves every argument register untouched.
    pub opaque: bool,
    /// The CUDA major whose ABI this declaration exports, for a name declared once per ABI
    /// (`cudaMemAdvise`: 12.x's `int device`, 13.x's `cudaMemLocation`); `None` for a name
    /// declared once, exported unversioned.
    pub version: Option<u32>,
}

impl CudaAttr {
    /// Parses `#[cuda(..)]`, checking what the arguments alone decide (the prototype's part,
    /// e.g. an opaque function's `fn NAME();`, is the declaration parser's).
    pub fn parse(attr: &Attribute) -> syn::Result<Self> {
        let mut majors = None;
        let mut abi = None;
        let mut hand_written = false;
        let mut opaque = false;
        let mut version = None;
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("majors") {
                majors = Some(parse_majors(&meta.value()?.parse::<Expr>()?)?);
            } else if meta.path.is_ident("abi") {
                abi = Some(parse_majors(&meta.value()?.parse::<Expr>()?)?);
            } else if meta.path.is_ident("hand_written") {
                hand_written = true;
            } else if meta.path.is_ident("opaque") {
                opaque = true;
            } else if meta.path.is_ident("version") {
                let lit: syn::LitInt = meta.value()?.parse()?;
                match lit.base10_parse::<u32>() {
                    Ok(v) if majors::valid(v) => version = Some(v),
                    _ => return Err(syn::Error::new(lit.span(), majors::RANGE_ERROR)),
                }
            } else {
                return Err(meta.error(
                    "cuda_stubs: expected `majors`, `abi`, `hand_written`, `opaque` or `version`",
                ));
            }
            Ok(())
        })?;
        let majors = majors
            .ok_or_else(|| syn::Error::new(attr.span(), "cuda_stubs: missing `majors = [...]`"))?;
        if majors.is_empty() {
            return Err(syn::Error::new(
                attr.span(),
                "cuda_stubs: `majors` is empty",
            ));
        }
        if opaque && version.is_some() {
            return Err(syn::Error::new(
                attr.span(),
                "cuda_stubs: an opaque function has no known ABI to version",
            ));
        }
        let abi = abi.unwrap_or_else(|| majors.clone());
        if let Some(m) = abi.iter().find(|m| !majors.contains(m)) {
            return Err(syn::Error::new(
                attr.span(),
                format!("cuda_stubs: abi major {m} is not in `majors`"),
            ));
        }
        Ok(CudaAttr {
            majors,
            abi,
            hand_written,
            opaque,
            version,
        })
    }
}

/// Prints the attribute, `#[cuda(..)]`, arguments in the grammar's order, `abi` only where it
/// differs from `majors`.
impl ToTokens for CudaAttr {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let majors = list(&self.majors);
        let mut args = quote!(majors = #majors);
        if self.abi != self.majors {
            let abi = list(&self.abi);
            args.extend(quote!(, abi = #abi));
        }
        if self.hand_written {
            args.extend(quote!(, hand_written));
        }
        if self.opaque {
            args.extend(quote!(, opaque));
        }
        if let Some(v) = self.version {
            let v = Literal::u32_unsuffixed(v);
            args.extend(quote!(, version = #v));
        }
        tokens.extend(quote!(#[cuda(#args)]));
    }
}

fn list(majors: &[u32]) -> TokenStream {
    let lits = majors.iter().map(|m| Literal::u32_unsuffixed(*m));
    quote!([#(#lits),*])
}

fn parse_majors(expr: &Expr) -> syn::Result<Vec<u32>> {
    let Expr::Array(array) = expr else {
        return Err(syn::Error::new(
            expr.span(),
            "cuda_stubs: expected a list of CUDA majors, e.g. [11, 12, 13]",
        ));
    };
    let mut out = Vec::new();
    for elem in &array.elems {
        let value = match elem {
            Expr::Lit(l) => match &l.lit {
                Lit::Int(i) => i.base10_parse::<u32>().ok(),
                _ => None,
            },
            _ => None,
        };
        match value {
            Some(v) if majors::valid(v) => out.push(v),
            _ => return Err(syn::Error::new(elem.span(), majors::RANGE_ERROR)),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn what_is_printed_parses_back() {
        let attrs: [Attribute; 3] = [
            parse_quote!(#[cuda(majors = [11, 12, 13])]),
            parse_quote!(#[cuda(majors = [11, 12, 13], abi = [13], hand_written, version = 13)]),
            parse_quote!(#[cuda(majors = [12], opaque)]),
        ];
        for attr in attrs {
            let parsed = CudaAttr::parse(&attr).unwrap();
            let printed: Attribute = parse_quote!(#parsed);
            assert_eq!(
                printed.to_token_stream().to_string(),
                attr.to_token_stream().to_string()
            );
            assert_eq!(CudaAttr::parse(&printed).unwrap(), parsed);
        }
    }
}
