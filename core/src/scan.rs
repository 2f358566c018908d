//! Bytes in, pieces out: the log's lines, with the runs of frequent forms taken as blocks.
//!
//! A verbose build prints tactic timings and Myelin trace rows hundreds in a row under one
//! timing runner, each a one-line record in the same envelope (one second's stamp). The scanner
//! takes such a run as a block of columns; every other line is handed on as text, in order,
//! with its line number, for the grammar. A run line is only claimed where it is one record:
//! the line after it opens a record of its own (so it has no continuation lines), it is one
//! clean segment (no CR, no ANSI escape, no second timestamp), and its body is its form in full
//! (`forms`). A progress bar's line has no envelope and is read, not claimed (`progress`).
//! Bytes are fed in pieces of any size (`feed`); `finish` ends the input.

use crate::envelope::{may_embed_stamp, opens_record, trtexec_info_prefix_len, verbose_prefix_len};
use std::sync::Arc;

use crate::block::Block;
use crate::forms::Kind;
use crate::guards::Guards;
use crate::records::Record;

/// What the scanner hands on, in the order of the lines.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Lines `first_line`.. as text joined by "\n" (no final "\n").
    Lines { first_line: u64, text: String },
    /// One-line tactic timings in envelope `prefix`; kernels and parameters where named.
    Timings {
        first_line: u64,
        prefix: String,
        tactics: Vec<u64>,
        times: Vec<f64>,
        kernels: Option<Vec<String>>,
        parameters: Option<Vec<Option<String>>>,
    },
    /// One-line Myelin trace rows in envelope `prefix`: their bodies joined by "\n".
    Myelin {
        first_line: u64,
        prefix: String,
        lines: usize,
        bodies: String,
    },
    /// One-line records in envelope `prefix`, one per line; with no prefix, bare lines read as
    /// their form (`progress`), which are no records of their own.
    Records {
        first_line: u64,
        prefix: String,
        records: Vec<Record>,
    },
}

impl Piece {
    /// The physical lines the piece holds.
    pub fn line_count(&self) -> usize {
        match self {
            Piece::Lines { text, .. } => text.split('\n').count(),
            Piece::Timings { tactics, .. } => tactics.len(),
            Piece::Myelin { lines, .. } => *lines,
            Piece::Records { records, .. } => records.len(),
        }
    }

    pub fn first_line(&self) -> u64 {
        match self {
            Piece::Lines { first_line, .. }
            | Piece::Timings { first_line, .. }
            | Piece::Myelin { first_line, .. }
            | Piece::Records { first_line, .. } => *first_line,
        }
    }
}

/// Text pieces are handed on once they hold this much.
const TEXT_PIECE_BYTES: usize = 1 << 20;

/// A run is closed after this many lines (the next begins a new one), so that memory stays
/// bounded whatever the input.
const RUN_LINES: usize = 1 << 16;

/// A run of candidate lines: one envelope, one form.
struct Run {
    first_line: u64,
    prefix: String,
    kind: Kind,
    bodies: Vec<String>,
}

/// Reads a log's bytes into pieces; `lines` counts the physical lines read.
pub struct Scanner {
    guards: Arc<Guards>,
    /// Bytes after the last newline fed so far.
    partial: Vec<u8>,
    next_line: u64,
    pub lines: u64,
    text: String,
    text_first: u64,
    text_lines: usize,
    run: Option<Run>,
    out: Vec<Piece>,
}

impl Scanner {
    pub fn new(first_line: u64, guards: impl Into<Arc<Guards>>) -> Scanner {
        Scanner {
            guards: guards.into(),
            partial: Vec::new(),
            next_line: first_line,
            lines: 0,
            text: String::new(),
            text_first: first_line,
            text_lines: 0,
            run: None,
            out: Vec::new(),
        }
    }

    /// Reads `data` (any piece of the log) and hands on the pieces it completes.
    pub fn feed(&mut self, data: &[u8]) -> Vec<Piece> {
        let Some(last_newline) = memchr::memrchr(b'\n', data) else {
            self.partial.extend_from_slice(data);
            return std::mem::take(&mut self.out);
        };
        let complete = if self.partial.is_empty() {
            std::borrow::Cow::Borrowed(&data[..last_newline])
        } else {
            let mut joined = std::mem::take(&mut self.partial);
            joined.extend_from_slice(&data[..last_newline]);
            std::borrow::Cow::Owned(joined)
        };
        self.partial = data[last_newline + 1..].to_vec();
        let text = decoded(&complete);
        for line in text.split('\n') {
            self.line(line);
        }
        std::mem::take(&mut self.out)
    }

    /// `body`, the message of a one-line record that the Python side has split from its
    /// envelope (one the scanner does not read, or a line it could not claim as it read it),
    /// claimed as a line of the scanner's own would be: its piece, numbered `line`, or None.
    /// `trtexec`: the message is trtexec's own (its `trtexec_message` start rule).
    pub fn claim(&self, body: &str, trtexec: bool, line: u64) -> Option<Piece> {
        claim(&self.guards, body, trtexec, line)
    }

    /// Ends the input: hands on what is left (a last line without "\n" included).
    pub fn finish(&mut self) -> Vec<Piece> {
        if !self.partial.is_empty() {
            let partial = std::mem::take(&mut self.partial);
            let text = decoded(&partial).into_owned();
            self.line(&text);
        }
        // The input ends here: nothing continues its last record.
        self.close_run(true);
        self.flush_text();
        std::mem::take(&mut self.out)
    }

    fn line(&mut self, line: &str) {
        let number = self.next_line;
        self.next_line += 1;
        self.lines += 1;
        let candidate = candidate(line);
        if let Some(run) = &mut self.run {
            if let Some((prefix_len, kind)) = candidate {
                if run.kind == kind
                    && run.prefix == line[..prefix_len]
                    && run.bodies.len() < RUN_LINES
                {
                    run.bodies.push(line[prefix_len..].to_string());
                    return;
                }
            }
            let follows = opens_record(line);
            self.close_run(follows);
        }
        match candidate {
            Some((prefix_len, kind)) => {
                self.run = Some(Run {
                    first_line: number,
                    prefix: line[..prefix_len].to_string(),
                    kind,
                    bodies: vec![line[prefix_len..].to_string()],
                });
            }
            None => self.push_text(number, line),
        }
    }

    fn push_text(&mut self, number: u64, line: &str) {
        if self.text.len() >= TEXT_PIECE_BYTES {
            self.flush_text();
        }
        if self.text_lines == 0 {
            self.text_first = number;
        } else {
            self.text.push('\n');
        }
        self.text.push_str(line);
        self.text_lines += 1;
    }

    fn flush_text(&mut self) {
        if self.text_lines == 0 {
            return;
        }
        self.out.push(Piece::Lines {
            first_line: self.text_first,
            text: std::mem::take(&mut self.text),
        });
        self.text_lines = 0;
    }

    /// Ends the current run; `follows`: whether the line after it opens a record. The run's
    /// lines that are their form in full go on as blocks, the others as text.
    fn close_run(&mut self, follows: bool) {
        let Some(run) = self.run.take() else {
            return;
        };
        let mut block = Block::new(run.kind);
        let mut block_first = run.first_line;
        let count = run.bodies.len();
        for (index, body) in run.bodies.iter().enumerate() {
            let number = run.first_line + index as u64;
            // The last line is one record only if the line after it opens one.
            let last = index + 1 == count;
            // A bare line is read on its own wherever it goes (`progress`).
            let alone = run.kind == Kind::Progress;
            let taken = (!last || follows || alone) && block.take(body, &self.guards);
            if taken {
                continue;
            }
            self.emit_block(&mut block, block_first, &run.prefix);
            let line = format!("{}{}", run.prefix, body);
            // A run line with an envelope opens a record, and so closes the text before it (a
            // bar's line has none: it is handed on as text like the lines around it).
            self.push_text(number, &line);
            block_first = number + 1;
        }
        self.emit_block(&mut block, block_first, &run.prefix);
    }

    fn emit_block(&mut self, block: &mut Block, first_line: u64, prefix: &str) {
        if block.is_empty() {
            return;
        }
        // The block's first line opens a record (a bare line does not): the text before it
        // ends there.
        self.flush_text();
        self.out.push(block.piece(first_line, prefix));
    }
}

/// `body`, the message of a one-line record split from its envelope elsewhere, claimed as a
/// line of a scanner's own would be (`Scanner::claim`).
pub fn claim(guards: &Guards, body: &str, trtexec: bool, line: u64) -> Option<Piece> {
    let kind = if trtexec {
        crate::trtexec::may_be_message(body).then_some(Kind::Trtexec)?
    } else if let Some(kind) = Kind::of(body) {
        kind
    } else {
        // A progress monitor's bar, in an envelope or none.
        crate::progress::may_be_bar(body).then_some(Kind::Progress)?
    };
    let mut block = Block::new(kind);
    block.take(body, guards).then(|| block.piece(line, ""))
}

/// The text of `bytes`, invalid UTF-8 replaced by U+FFFD (as Python's "replace" does).
fn decoded(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Whether a line may belong to a run: a clean segment in a verbose timing envelope (or
/// trtexec's own at INFO) whose body starts as one of the forms, or a progress bar without an
/// envelope (of length 0). Returns the envelope's length and the form.
fn candidate(line: &str) -> Option<(usize, Kind)> {
    let bytes = line.as_bytes();
    let (prefix_len, trtexec) = if let Some(length) = verbose_prefix_len(bytes) {
        (length, false)
    } else if let Some(length) = trtexec_info_prefix_len(line) {
        (length, true)
    } else {
        return crate::progress::may_be_bar(line).then_some((0, Kind::Progress));
    };
    // A CR redraws the line and an escape colours it (both make several segments or change
    // the text); a second timestamp starts a record in the middle.
    if memchr::memchr2(b'\r', 0x1b, bytes).is_some() || may_embed_stamp(line) {
        return None;
    }
    let body = &line[prefix_len..];
    if trtexec {
        return crate::trtexec::may_be_message(body).then_some((prefix_len, Kind::Trtexec));
    }
    Some((prefix_len, Kind::of(body)?))
}

pub mod ahead;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod properties;
