//! trtlog's native scanning core.
//!
//! TensorRT's verbose build logs are mostly a few message forms repeated millions of times
//! (tactic timings, Myelin tactic-table rows). This crate reads a log's bytes, splits its lines
//! and takes runs of those forms as columns (`scan`), leaving every other line to the Python
//! package's grammar (`grammars/*.lark`), which stays the one specification of every form: the
//! core's patterns are made of the grammar's terminals (`grammar`), and the Python test suite
//! checks that whatever the core claims equals what the grammar gives.

pub mod block;
pub mod envelope;
pub mod envelopes;
pub mod forms;
pub mod grammar;
pub mod guards;
pub mod layers;
pub mod messages;
pub mod progress;
pub mod reach;
pub mod records;
pub mod runs;
pub mod scan;
pub mod starts;
pub mod trtexec;
pub mod tuning;

#[cfg(feature = "python")]
mod python;
