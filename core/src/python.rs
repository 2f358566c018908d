//! The Python face of the core: `trtlog._core.Scanner` (typed in `trtlog/_core.pyi`).

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::exceptions::PyRuntimeError;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::guards::Guards;
use crate::scan::ahead::{ScanAhead, Stopped};
use crate::scan::{Piece, Scanner as CoreScanner};
use crate::starts::StartTerminals as CoreStartTerminals;

mod records;

use records::record;

/// Kernel names kept as Python strings: a few thousand names fill millions of lines, and each
/// becomes one string object. Forgotten all at once past this many.
const KNOWN_KERNELS: usize = 100_000;

/// Reads a log's bytes into pieces (see `scan::Piece`), as tuples:
/// `(0, first_line, text)`, `(1, first_line, envelope, tactic ids (bytes of
/// native u64), times (bytes of native f64), kernels or None, parameters or None)`, and
/// `(2, first_line, envelope, lines, bodies)` and `(3, first_line, envelope, records)`, each
/// record a tuple of its grammar rule and its tokens (see `record`); an empty envelope: bare
/// lines read as their form, each record ending in the line's text (see `run_record`).
#[pyclass(module = "trtlog._core")]
struct Scanner {
    reading: Option<Reading>,
    guards: Arc<Guards>,
    /// The physical lines of the pieces handed on so far, while a thread scans.
    lines: u64,
    kernels: HashMap<String, Py<PyString>>,
}

/// Where the chunks are scanned.
enum Reading {
    /// Not yet decided: the first chunk is kept until a second comes (a log of one chunk
    /// needs no thread).
    Waiting {
        core: CoreScanner,
        first: Option<Vec<u8>>,
    },
    /// On a thread of its own, one chunk ahead.
    Ahead(ScanAhead),
    /// Here, as each chunk comes: once no thread could be started, or once finished.
    Here(CoreScanner),
}

/// The pieces of the oldest chunk in flight, waited for with the interpreter lock released;
/// where the thread stopped, it is joined for the reason.
fn received(py: Python<'_>, mut ahead: ScanAhead) -> PyResult<(ScanAhead, Vec<Piece>, u64)> {
    let waiting: &ScanAhead = &ahead;
    match py.detach(|| waiting.receive()) {
        Ok((pieces, lines)) => {
            ahead.received();
            Ok((ahead, pieces, lines))
        }
        Err(_) => Err(stopped(py.detach(move || ahead.join()).err())),
    }
}

fn stopped(why: Option<Stopped>) -> PyErr {
    match why {
        Some(Stopped::Panicked(message)) => PanicException::new_err(message),
        _ => PyRuntimeError::new_err("the scanner was used after it failed or finished"),
    }
}

/// Per form, the patterns of the terminals the grammar's lexer tries before it, compiled once
/// and shared by every scanner of a process (compiling them costs more than reading a small log).
#[pyclass(module = "trtlog._core", name = "Guards", frozen)]
struct SharedGuards {
    guards: Arc<Guards>,
}

#[pymethods]
impl SharedGuards {
    #[new]
    fn new(guards: Vec<(String, Vec<String>)>) -> Self {
        SharedGuards {
            guards: Arc::new(Guards::new(&guards)),
        }
    }
}

/// The terminals a start state of the grammar's lexer tries (widened patterns), compiled once:
/// whether the lexer can start a text at all.
#[pyclass(module = "trtlog._core", name = "StartTerminals", frozen)]
struct StartTerminals {
    starts: CoreStartTerminals,
}

#[pymethods]
impl StartTerminals {
    #[new]
    fn new(patterns: Vec<String>) -> Self {
        StartTerminals {
            starts: CoreStartTerminals::new(&patterns),
        }
    }

    /// False only when no terminal matches at the start of `text`.
    fn may_start(&self, text: &str) -> bool {
        self.starts.may_start(text)
    }
}

#[pymethods]
impl Scanner {
    #[new]
    #[pyo3(signature = (guards, first_line = 1))]
    fn new(guards: &SharedGuards, first_line: u64) -> Self {
        let core = CoreScanner::new(first_line, Arc::clone(&guards.guards));
        Scanner {
            reading: Some(Reading::Waiting { core, first: None }),
            guards: Arc::clone(&guards.guards),
            lines: 0,
            kernels: HashMap::new(),
        }
    }

    /// Hands `data` on to be scanned and returns the pieces that the data fed before it
    /// completes: a thread scans one chunk while the pieces of the last are worked on.
    fn feed(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<Vec<Py<PyAny>>> {
        let (reading, pieces) = match self.reading.take().ok_or_else(|| stopped(None))? {
            Reading::Waiting { core, first: None } => {
                let first = Some(data.to_vec());
                (Reading::Waiting { core, first }, Vec::new())
            }
            Reading::Waiting {
                core,
                first: Some(first),
            } => match ScanAhead::start(core) {
                Ok(mut ahead) => {
                    for chunk in [first, data.to_vec()] {
                        ahead.send(chunk).map_err(|why| stopped(Some(why)))?;
                    }
                    let (ahead, pieces, lines) = received(py, ahead)?;
                    self.lines = lines;
                    (Reading::Ahead(ahead), pieces)
                }
                Err(back) => {
                    // No thread to be had (a process limit): every chunk is scanned here.
                    let mut core = *back;
                    let mut pieces = py.detach(|| core.feed(&first));
                    pieces.extend(py.detach(|| core.feed(data)));
                    (Reading::Here(core), pieces)
                }
            },
            Reading::Ahead(mut ahead) => {
                ahead
                    .send(data.to_vec())
                    .map_err(|why| stopped(Some(why)))?;
                let (ahead, pieces, lines) = received(py, ahead)?;
                self.lines = lines;
                (Reading::Ahead(ahead), pieces)
            }
            Reading::Here(mut core) => {
                let pieces = py.detach(|| core.feed(data));
                (Reading::Here(core), pieces)
            }
        };
        self.reading = Some(reading);
        self.objects(py, pieces)
    }

    /// The pieces left at the end of the input: those of the chunks still being scanned, then
    /// the rest.
    fn finish(&mut self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let mut pieces = Vec::new();
        let mut core = match self.reading.take().ok_or_else(|| stopped(None))? {
            Reading::Waiting { mut core, first } => {
                if let Some(first) = first {
                    pieces.extend(py.detach(|| core.feed(&first)));
                }
                core
            }
            Reading::Ahead(mut ahead) => {
                while ahead.in_flight() > 0 {
                    let (rest, scanned, _) = received(py, ahead)?;
                    ahead = rest;
                    pieces.extend(scanned);
                }
                py.detach(move || ahead.join())
                    .map_err(|why| stopped(Some(why)))?
            }
            Reading::Here(core) => core,
        };
        pieces.extend(core.finish());
        self.reading = Some(Reading::Here(core));
        self.objects(py, pieces)
    }

    /// One message whose record the Python side has split from its envelope, claimed as a line
    /// of the scanner's own would be (`scan::claim`): its piece, as `feed` hands them
    /// on (with no envelope), or None.
    fn claim(
        &mut self,
        py: Python<'_>,
        body: &str,
        trtexec: bool,
        line: u64,
    ) -> PyResult<Option<Py<PyAny>>> {
        let piece = crate::scan::claim(&self.guards, body, trtexec, line);
        piece.map(|piece| self.piece(py, piece)).transpose()
    }

    /// The physical lines read so far.
    #[getter]
    fn lines(&self) -> u64 {
        match &self.reading {
            Some(Reading::Waiting { core, .. } | Reading::Here(core)) => core.lines,
            _ => self.lines,
        }
    }
}

impl Scanner {
    fn objects(&mut self, py: Python<'_>, pieces: Vec<Piece>) -> PyResult<Vec<Py<PyAny>>> {
        pieces
            .into_iter()
            .map(|piece| self.piece(py, piece))
            .collect()
    }

    fn piece(&mut self, py: Python<'_>, piece: Piece) -> PyResult<Py<PyAny>> {
        let object = match piece {
            Piece::Lines { first_line, text } => {
                (0, first_line, text).into_pyobject(py)?.into_any()
            }
            Piece::Timings {
                first_line,
                prefix,
                tactics,
                times,
                kernels,
                parameters,
            } => {
                let tactics: Vec<u8> = tactics.iter().flat_map(|id| id.to_ne_bytes()).collect();
                let times: Vec<u8> = times.iter().flat_map(|time| time.to_ne_bytes()).collect();
                let kernels = kernels.map(|names| self.shared(py, names));
                (
                    1,
                    first_line,
                    prefix,
                    PyBytes::new(py, &tactics),
                    PyBytes::new(py, &times),
                    kernels,
                    parameters,
                )
                    .into_pyobject(py)?
                    .into_any()
            }
            Piece::Myelin {
                first_line,
                prefix,
                lines,
                bodies,
            } => (2, first_line, prefix, lines, bodies)
                .into_pyobject(py)?
                .into_any(),
            Piece::Records {
                first_line,
                prefix,
                records,
            } => {
                let records: Vec<Py<PyAny>> = records
                    .into_iter()
                    .map(|found| record(py, found))
                    .collect::<PyResult<_>>()?;
                (3, first_line, prefix, records)
                    .into_pyobject(py)?
                    .into_any()
            }
        };
        Ok(object.unbind())
    }

    fn shared(&mut self, py: Python<'_>, names: Vec<String>) -> Vec<Py<PyString>> {
        if self.kernels.len() > KNOWN_KERNELS {
            self.kernels.clear();
        }
        names
            .into_iter()
            .map(|name| {
                self.kernels
                    .entry(name)
                    .or_insert_with_key(|name| PyString::new(py, name).unbind())
                    .clone_ref(py)
            })
            .collect()
    }
}

/// A grammar terminal's Python pattern as a Rust pattern matching the same text or more (see
/// `grammar::widened`), for the guards handed to `Scanner`.
#[pyfunction]
fn widened(pattern: &str) -> String {
    crate::grammar::widened(pattern)
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Scanner>()?;
    module.add_class::<SharedGuards>()?;
    module.add_class::<StartTerminals>()?;
    module.add_function(wrap_pyfunction!(widened, module)?)?;
    crate::envelopes::python::register(module)?;
    Ok(())
}
