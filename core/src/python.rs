//! The Python face of the core: `trtlog._core.Scanner` (typed in `trtlog/_core.pyi`).

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::guards::Guards;
use crate::records::Record;
use crate::runs::RunRecord;
use crate::scan::ahead::ScanAhead;
use crate::scan::{Piece, Scanner as CoreScanner};
use crate::starts::StartTerminals as CoreStartTerminals;
use crate::tuning::TuningRecord;

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
    /// The core while no chunk is being scanned on the scanning thread.
    core: Option<CoreScanner>,
    ahead: Option<ScanAhead>,
    guards: Arc<Guards>,
    /// The physical lines read, as of the last pieces handed on.
    lines: u64,
    kernels: HashMap<String, Py<PyString>>,
}

/// The pieces of the oldest chunk in flight, waited for with the interpreter lock released.
fn received(py: Python<'_>, ahead: &mut ScanAhead) -> PyResult<(Vec<Piece>, u64)> {
    let waiting: &ScanAhead = ahead;
    let pieces = py.detach(|| waiting.receive()).map_err(|_| stopped())?;
    ahead.received();
    Ok(pieces)
}

fn stopped() -> PyErr {
    PyRuntimeError::new_err("the scanning thread stopped")
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
        Scanner {
            core: Some(CoreScanner::new(first_line, Arc::clone(&guards.guards))),
            ahead: None,
            guards: Arc::clone(&guards.guards),
            lines: 0,
            kernels: HashMap::new(),
        }
    }

    /// Hands `data` to the scanning thread and returns the pieces that the data fed before it
    /// completes: one chunk is scanned while the pieces of the last are worked on.
    fn feed(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<Vec<Py<PyAny>>> {
        if self.ahead.is_none() {
            let core = self.core.take().ok_or_else(stopped)?;
            self.ahead = Some(ScanAhead::start(core).map_err(|_| stopped())?);
        }
        let ahead = self.ahead.as_mut().ok_or_else(stopped)?;
        ahead.send(data.to_vec()).map_err(|_| stopped())?;
        if ahead.in_flight < 2 {
            return Ok(Vec::new());
        }
        let (pieces, lines) = received(py, ahead)?;
        self.lines = lines;
        self.objects(py, pieces)
    }

    /// The pieces left at the end of the input: those of the chunks still being scanned, then
    /// the rest.
    fn finish(&mut self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let mut pieces = Vec::new();
        if let Some(mut ahead) = self.ahead.take() {
            while ahead.in_flight > 0 {
                pieces.extend(received(py, &mut ahead)?.0);
            }
            self.core = Some(py.detach(move || ahead.join()).map_err(|_| stopped())?);
        }
        let core = self.core.as_mut().ok_or_else(stopped)?;
        pieces.extend(core.finish());
        self.lines = core.lines;
        self.objects(py, pieces)
    }

    /// One message whose record the Python side has split from its envelope, claimed as a line
    /// of the scanner's own would be (`scan::Scanner::claim`): its piece, as `feed` hands them
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
        self.core.as_ref().map_or(self.lines, |core| core.lines)
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

/// A record as `(rule, token, ...)`: the values its grammar rule's transformer reads, numbers
/// already read (tactic ids as TensorRT's unsigned values, times and seconds as floats).
fn record(py: Python<'_>, found: Record) -> PyResult<Py<PyAny>> {
    let rule = PyString::intern(py, found.rule());
    let object = match found {
        Record::Fastest { tactic, time } => (rule, tactic, time).into_pyobject(py)?.into_any(),
        Record::Profiled {
            layer,
            runner,
            runner_id,
            seconds,
            tactic,
            time,
        } => (rule, layer, runner, runner_id, seconds, tactic, time)
            .into_pyobject(py)?
            .into_any(),
        Record::TimingRunner {
            layer,
            runner,
            runner_id,
        } => (rule, layer, runner, runner_id)
            .into_pyobject(py)?
            .into_any(),
        Record::Combination {
            inputs, outputs, ..
        } => (rule, inputs, outputs).into_pyobject(py)?.into_any(),
        Record::Costs { subject, .. } => (rule, subject).into_pyobject(py)?.into_any(),
        Record::Chose { runner, tactic } => (rule, runner, tactic).into_pyobject(py)?.into_any(),
        Record::Skipped { runner, layer } => (rule, runner, layer).into_pyobject(py)?.into_any(),
        Record::Step { step, rest, .. } => (rule, step, rest).into_pyobject(py)?.into_any(),
        Record::NodeIo {
            node,
            op,
            direction,
            rest,
        } => (rule, node, op, direction, rest)
            .into_pyobject(py)?
            .into_any(),
        Record::FusionPass { name, target } => (rule, name, target).into_pyobject(py)?.into_any(),
        Record::Symbolic { first, second, .. } => {
            (rule, first, second).into_pyobject(py)?.into_any()
        }
        Record::Layers(found) => return found.into_python(py, rule),
        Record::Plugin {
            already,
            namespace,
            name,
            version,
        } => (rule, already, namespace, name, version)
            .into_pyobject(py)?
            .into_any(),
        Record::Tuning(found) => tuning_record(py, rule, found)?,
        Record::Run(found) => run_record(py, rule, found)?,
    };
    Ok(object.unbind())
}

/// A tuning record (`tuning`) as `(rule, token, ...)`, as `record` hands on the others.
fn tuning_record<'py>(
    py: Python<'py>,
    rule: Bound<'py, PyString>,
    found: TuningRecord,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(match found {
        TuningRecord::TacticSkipped { tactic, scratch } => {
            let (requested, available) = scratch.unzip();
            (rule, tactic, requested, available)
                .into_pyobject(py)?
                .into_any()
        }
        TuningRecord::Pruning {
            layer,
            available,
            unparsable,
            pruned,
            remaining,
        } => (rule, layer, available, unparsable, pruned, remaining)
            .into_pyobject(py)?
            .into_any(),
        TuningRecord::KernelName {
            subject,
            kernel,
            tactic,
            parameters,
        } => (rule, subject, kernel, tactic, parameters)
            .into_pyobject(py)?
            .into_any(),
        TuningRecord::CacheHit {
            subject,
            inputs,
            outputs,
            runner,
            tactic,
            time,
        } => (rule, subject, inputs, outputs, runner, tactic, time)
            .into_pyobject(py)?
            .into_any(),
    })
}

/// A record of the forms around a build as `(rule, token, ...)` (see `runs`); a progress bar's
/// tokens are followed by its line's text.
fn run_record<'py>(
    py: Python<'py>,
    rule: Bound<'py, PyString>,
    found: RunRecord,
) -> PyResult<Bound<'py, PyAny>> {
    let object = match found {
        RunRecord::TraceAverage {
            runs,
            gpu_latency,
            host_latency,
            end_to_end,
            enqueue,
        } => (rule, runs, gpu_latency, host_latency, end_to_end, enqueue)
            .into_pyobject(py)?
            .into_any(),
        RunRecord::Progress {
            bar,
            phase,
            done,
            total,
            text,
        } => (rule, bar, phase, done, total, text)
            .into_pyobject(py)?
            .into_any(),
    };
    Ok(object)
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
