//! A loaded module: parsed once, each kernel decoded once ([`Program::load`]).

use alloc::string::String;
use alloc::vec::Vec;

use crate::decode::{Kernel, decode_kernel};
use crate::error::PtxError;
use crate::module::{Module, Variable};
use crate::parse::parse;

/// A PTX module ready to launch: immutable, shared by the threads that run its blocks.
#[derive(Debug)]
pub struct Program {
    module: Module,
    kernels: Vec<(String, Result<Kernel, PtxError>)>,
}

impl Program {
    /// Parses `ptx` and decodes each of its kernels. A kernel with an instruction the executor
    /// lacks does not stop the others: [`Program::kernel`] answers its error.
    ///
    /// # Errors
    /// The text does not parse: the line and text of the first construct not understood.
    pub fn load(ptx: &str) -> Result<Program, PtxError> {
        let mut module = parse(ptx)?;
        function_pointers(&mut module);
        let kernels = module
            .functions
            .iter()
            .filter(|f| f.entry && f.body.is_some())
            .map(|f| (f.name.clone(), decode_kernel(&module, &f.name)))
            .collect();
        Ok(Program { module, kernels })
    }

    /// Kernel `name`, decoded.
    ///
    /// # Errors
    /// [`crate::Reason::NoKernel`] without such an `.entry`; else its decoding's error (the
    /// first instruction refused, [`crate::Reason::Unsupported`], with its line).
    pub fn kernel(&self, name: &str) -> Result<&Kernel, PtxError> {
        match self.kernels.iter().find(|(n, _)| n == name) {
            Some((_, Ok(k))) => Ok(k),
            Some((_, Err(e))) => Err(e.clone()),
            None => Err(PtxError {
                line: 0,
                text: String::from(name),
                reason: crate::Reason::NoKernel,
            }),
        }
    }

    /// The kernels' names, in module order.
    pub fn kernel_names(&self) -> impl Iterator<Item = &str> {
        self.kernels.iter().map(|(n, _)| n.as_str())
    }

    /// The module-level variables (`.global`, `.const`, `.shared`), with sizes, alignments and
    /// initializers: the mock allocates the `.global` and `.const` ones and answers their
    /// addresses through [`crate::Device::symbol`].
    pub fn variables(&self) -> &[Variable] {
        &self.module.variables
    }

    /// The parsed module.
    pub fn module(&self) -> &Module {
        &self.module
    }
}

/// Writes the addresses of the functions a variable's initializer names (`.global .u64
/// table[2] = {f, g};`) into its initial bytes ([`crate::decode::function_address`]); the
/// entries stay in `init_symbols`, where the device finds no variable of their name and leaves
/// them, and where the decoder finds the functions whose address is taken.
fn function_pointers(module: &mut Module) {
    let Module {
        functions,
        variables,
        ..
    } = module;
    for v in variables.iter_mut() {
        for (offset, name) in &v.init_symbols {
            let Some(i) = functions
                .iter()
                .rposition(|f| &f.name == name && f.body.is_some() && !f.entry)
            else {
                continue;
            };
            let Ok(at) = usize::try_from(*offset) else {
                continue;
            };
            let end = at.saturating_add(8);
            if v.init.len() < end {
                v.init.resize(end, 0);
            }
            if let Some(b) = v.init.get_mut(at..end) {
                b.copy_from_slice(&crate::decode::function_address(i).to_le_bytes());
            }
        }
    }
}
