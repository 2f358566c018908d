//! The lines of a run being collected into one piece (`scan`): tactic timings and Myelin rows
//! as columns, one-line records as their tokens.

use crate::forms::{timing, Kind};
use crate::guards::Guards;
use crate::records::Record;
use crate::scan::Piece;

/// The lines of a block being collected.
pub struct Block {
    pub kind: Kind,
    tactics: Vec<u64>,
    times: Vec<f64>,
    kernels: Vec<String>,
    parameters: Vec<Option<String>>,
    bodies: String,
    records: Vec<Record>,
    lines: usize,
}

impl Block {
    pub fn new(kind: Kind) -> Block {
        Block {
            kind,
            tactics: Vec::new(),
            times: Vec::new(),
            kernels: Vec::new(),
            parameters: Vec::new(),
            bodies: String::new(),
            records: Vec::new(),
            lines: 0,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// Adds `body` if it is the block's form in full and no terminal the grammar's lexer
    /// tries first would take it.
    pub fn take(&mut self, body: &str, guards: &Guards) -> bool {
        if self.kind == Kind::Record {
            let Some(found) = crate::tuning::claimed(body, guards) else {
                return false;
            };
            self.records.push(found);
            self.lines += 1;
            return true;
        }
        if let Some(read) = crate::runs::reader(self.kind) {
            let Some(found) = read(body) else {
                return false;
            };
            if !guards.clear(found.rule(), crate::runs::message(&found, body)) {
                return false;
            }
            self.records.push(found);
            self.lines += 1;
            return true;
        }
        if !guards.clear(self.kind.rule(), body) {
            return false;
        }
        if self.kind == Kind::Myelin {
            if self.lines > 0 {
                self.bodies.push('\n');
            }
            self.bodies.push_str(body);
            self.lines += 1;
            return true;
        }
        let Some(found) = timing(self.kind, body) else {
            return false;
        };
        self.tactics.push(found.tactic);
        self.times.push(found.time);
        if self.kind == Kind::Named {
            self.kernels
                .push(found.kernel.unwrap_or_default().to_string());
            self.parameters.push(found.parameters.map(str::to_string));
        }
        self.lines += 1;
        true
    }

    /// The block as a piece; the block is empty again after.
    pub fn piece(&mut self, first_line: u64, prefix: &str) -> Piece {
        let taken = std::mem::replace(self, Block::new(self.kind));
        match taken.kind {
            Kind::Myelin => Piece::Myelin {
                first_line,
                prefix: prefix.to_string(),
                lines: taken.lines,
                bodies: taken.bodies,
            },
            Kind::Plain => Piece::Timings {
                first_line,
                prefix: prefix.to_string(),
                tactics: taken.tactics,
                times: taken.times,
                kernels: None,
                parameters: None,
            },
            Kind::Named => Piece::Timings {
                first_line,
                prefix: prefix.to_string(),
                tactics: taken.tactics,
                times: taken.times,
                kernels: Some(taken.kernels),
                parameters: Some(taken.parameters),
            },
            Kind::Record | Kind::Trtexec | Kind::Progress => Piece::Records {
                first_line,
                prefix: prefix.to_string(),
                records: taken.records,
            },
        }
    }
}
