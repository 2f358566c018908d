//! The Python face of `envelopes`: `envelope_end` per line, `envelope_fields` once per prefix
//! (typed in `trtlog/_core.pyi`).

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::{fields, split, Split};

/// How many characters of `line` its envelope takes: 0 where it has none, -1 where only the
/// grammar can tell.
#[pyfunction]
fn envelope_end(line: &Bound<'_, PyString>) -> isize {
    // A string Python cannot encode as UTF-8 (a lone surrogate) is left to the grammar.
    let Ok(text) = line.to_str() else {
        return -1;
    };
    match split(text) {
        Split::Grammar => -1,
        Split::NoEnvelope => 0,
        Split::Envelope { len, .. } => isize::try_from(len).unwrap_or(-1),
    }
}

/// The style, stamp, level and producer of the envelope `prefix` is (as `envelope_end` found
/// it, nothing after it); None when it is not one.
#[pyfunction]
fn envelope_fields(
    prefix: &str,
) -> Option<(&'static str, Option<String>, Option<String>, &'static str)> {
    let found = fields(prefix)?;
    Some((
        found.style.name(),
        found.stamp.map(str::to_owned),
        found.level.map(str::to_owned),
        found.producer,
    ))
}

/// Adds the functions to the extension module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(envelope_end, module)?)?;
    module.add_function(wrap_pyfunction!(envelope_fields, module)?)?;
    Ok(())
}
