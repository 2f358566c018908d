//! The core's records as Python tuples: `(rule, token, ...)`, as `trtlog.parse.claimed` makes
//! them into items.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::records::Record;
use crate::runs::RunRecord;
use crate::tuning::TuningRecord;

/// A record as `(rule, token, ...)`: the values its grammar rule's transformer reads, numbers
/// already read (tactic ids as TensorRT's unsigned values, times and seconds as floats).
pub(super) fn record(py: Python<'_>, found: Record) -> PyResult<Py<PyAny>> {
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
        RunRecord::ProfileRow { first, second, .. } => {
            (rule, first, second).into_pyobject(py)?.into_any()
        }
        RunRecord::OptionLine { key, value } => (rule, key, value).into_pyobject(py)?.into_any(),
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
