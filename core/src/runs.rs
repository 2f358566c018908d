//! Forms printed around a build rather than inside its tuning, each filling runs of lines of
//! some logs: trtexec's trace averages, profile rows and option lines (`trtexec`) and a progress
//! monitor's bars (`progress`).

use crate::forms::Kind;
use crate::records::{record, Record};

/// One line of these forms: its grammar rule's tokens, read as the transformer reads them.
#[derive(Clone, Debug, PartialEq)]
pub enum RunRecord {
    /// "Average on " UINT " runs - GPU latency: " NUMBER ... (`trtexec`).
    TraceAverage {
        runs: i64,
        gpu_latency: f64,
        host_latency: f64,
        end_to_end: Option<f64>,
        enqueue: f64,
    },
    /// A row of trtexec's per-layer profile (`trtexec`): its two tokens as printed, in its
    /// rule's order: PROFILE_NAME_FIRST PROFILE_NUMBERS, or (`numbers_first`)
    /// PROFILE_NUMBERS_FIRST PROFILE_LAYER.
    ProfileRow {
        numbers_first: bool,
        first: String,
        second: String,
    },
    /// OPTION_KEY ":" [OPTION_VALUE], as printed (`trtexec`).
    OptionLine { key: String, value: Option<String> },
    /// PROGRESS_BAR " " PROGRESS_PHASE " " UINT "/" UINT, as printed, on a line whose text
    /// (`text`) is what the Python reader makes of it (`progress`).
    Progress {
        bar: String,
        phase: String,
        done: i64,
        total: i64,
        text: String,
    },
}

impl RunRecord {
    /// The grammar rule the record is.
    pub fn rule(&self) -> &'static str {
        match self {
            RunRecord::TraceAverage { .. } => RULES[0],
            RunRecord::Progress { .. } => RULES[1],
            RunRecord::ProfileRow {
                numbers_first: false,
                ..
            } => RULES[2],
            RunRecord::ProfileRow { .. } => RULES[3],
            RunRecord::OptionLine { .. } => RULES[4],
        }
    }
}

/// Every rule a record may be (for the guards each needs).
pub const RULES: [&str; 5] = [
    "trace_average",
    "progress_update",
    "profile_row",
    "profile_row_numbers_first",
    "option_line",
];

/// How the records of a run of `kind` are read, for the kinds read as records.
pub fn reader(kind: Kind) -> Option<fn(&str) -> Option<Record>> {
    match kind {
        Kind::Record => Some(record),
        Kind::Trtexec => Some(|body| crate::trtexec::message(body).map(Record::Run)),
        Kind::Progress => Some(|line| crate::progress::progress(line).map(Record::Run)),
        Kind::Plain | Kind::Named | Kind::Myelin => None,
    }
}

/// The text of `body` the guards are tried on: the message as the grammar sees it.
pub fn message<'a>(found: &'a Record, body: &'a str) -> &'a str {
    match found {
        Record::Run(RunRecord::Progress { text, .. }) => text,
        _ => body,
    }
}
