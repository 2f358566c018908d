//! The Python face of `envelopes` (typed in `trtlog/_core.pyi`): `EnvelopeSplitter`, which
//! splits each line with one call and keeps the envelope Python built for each prefix.

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::{fields, Fields, HeadMemo, Split};

/// Envelopes kept before all are forgotten (a stamped log moves on second by second).
const KEPT: usize = 4096;

/// Splits lines into `(envelope, body)`, or None where only the grammar can tell. Each
/// envelope is built once per distinct prefix, by `build(style, stamp, level, producer)` (see
/// `Fields`); a line without one gets `no_envelope`.
#[pyclass(module = "trtlog._core")]
struct EnvelopeSplitter {
    build: Py<PyAny>,
    no_envelope: Py<PyAny>,
    envelopes: HashMap<String, Py<PyAny>>,
    memo: HeadMemo,
}

#[pymethods]
impl EnvelopeSplitter {
    #[new]
    fn new(build: Py<PyAny>, no_envelope: Py<PyAny>) -> Self {
        EnvelopeSplitter {
            build,
            no_envelope,
            envelopes: HashMap::new(),
            memo: HeadMemo::default(),
        }
    }

    fn split<'py>(&mut self, line: &Bound<'py, PyString>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let py = line.py();
        // A string Python cannot encode as UTF-8 (a lone surrogate) is left to the grammar.
        let Ok(text) = line.to_str() else {
            return Ok(None);
        };
        let (envelope, body) = match self.memo.split(text) {
            Split::Grammar => return Ok(None),
            Split::NoEnvelope => (self.no_envelope.bind(py).clone(), line.clone()),
            Split::Envelope { len, .. } => {
                let envelope = self.envelope(py, &text[..len])?;
                (envelope, PyString::new(py, &text[len..]))
            }
        };
        Ok(Some(PyTuple::new(py, [envelope, body.into_any()])?))
    }
}

impl EnvelopeSplitter {
    fn envelope<'py>(&mut self, py: Python<'py>, prefix: &str) -> PyResult<Bound<'py, PyAny>> {
        if let Some(known) = self.envelopes.get(prefix) {
            return Ok(known.bind(py).clone());
        }
        let found = fields(prefix).expect("a prefix split found is read again");
        let envelope = self.build.bind(py).call1(arguments(found))?;
        if self.envelopes.len() > KEPT {
            self.envelopes.clear();
        }
        self.envelopes
            .insert(prefix.to_owned(), envelope.clone().unbind());
        Ok(envelope)
    }
}

fn arguments(found: Fields<'_>) -> (&'static str, Option<&str>, Option<&str>, &'static str) {
    (found.style.name(), found.stamp, found.level, found.producer)
}
/// Adds the class to the extension module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<EnvelopeSplitter>()?;
    Ok(())
}
