//! Bytes in, pieces out: the log's lines, with the runs of frequent forms taken as blocks.
//!
//! A verbose build prints tactic timings and Myelin trace rows hundreds in a row under one
//! timing runner, each a one-line record in the same envelope (one second's stamp). The scanner
//! takes such a run as a block of columns; every other line is handed on as text, in order,
//! with its line number, for the grammar. A run line is only claimed where it is one record:
//! the line after it opens a record of its own (so it has no continuation lines), it is one
//! clean segment (no CR, no ANSI escape, no second timestamp), and its body is its form in full
//! (`forms`). Bytes are fed in pieces of any size (`feed`); `finish` ends the input.

use crate::envelope::{may_embed_stamp, opens_record, verbose_prefix_len};
use crate::forms::{timing, Guards, Kind};
use crate::records::{record, Record};

/// What the scanner hands on, in the order of the lines.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Lines `first_line`.. as text joined by "\n" (no final "\n"); `record_follows`: whether
    /// the line after the last one is known to open a record.
    Lines {
        first_line: u64,
        text: String,
        record_follows: bool,
    },
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
    /// One-line tuning records in envelope `prefix`, one per line.
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
    guards: Guards,
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
    pub fn new(first_line: u64, guards: Guards) -> Scanner {
        Scanner {
            guards,
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

    /// Ends the input: hands on what is left (a last line without "\n" included).
    pub fn finish(&mut self) -> Vec<Piece> {
        if !self.partial.is_empty() {
            let partial = std::mem::take(&mut self.partial);
            let text = decoded(&partial).into_owned();
            self.line(&text);
        }
        // The input ends here: nothing continues its last record.
        self.close_run(true);
        self.flush_text(true);
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
            let follows = opens_record(line.as_bytes());
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
            let follows = opens_record(line.as_bytes());
            self.flush_text(follows);
        }
        if self.text_lines == 0 {
            self.text_first = number;
        } else {
            self.text.push('\n');
        }
        self.text.push_str(line);
        self.text_lines += 1;
    }

    fn flush_text(&mut self, record_follows: bool) {
        if self.text_lines == 0 {
            return;
        }
        self.out.push(Piece::Lines {
            first_line: self.text_first,
            text: std::mem::take(&mut self.text),
            record_follows,
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
            let taken = (!last || follows) && block.take(body, &self.guards);
            if taken {
                continue;
            }
            self.emit_block(&mut block, block_first, &run.prefix);
            let line = format!("{}{}", run.prefix, body);
            // A run line has an envelope: it opens a record, and so closes the text before it.
            self.push_text(number, &line);
            block_first = number + 1;
        }
        self.emit_block(&mut block, block_first, &run.prefix);
    }

    fn emit_block(&mut self, block: &mut Block, first_line: u64, prefix: &str) {
        if block.is_empty() {
            return;
        }
        // The block's first line opens a record: the text before it ends there.
        self.flush_text(true);
        self.out.push(block.piece(first_line, prefix));
    }
}

/// The text of `bytes`, invalid UTF-8 replaced by U+FFFD (as Python's "replace" does).
fn decoded(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Whether a line may belong to a run: a clean segment in a verbose timing envelope whose body
/// starts as one of the forms. Returns the envelope's length and the form.
fn candidate(line: &str) -> Option<(usize, Kind)> {
    let bytes = line.as_bytes();
    let prefix_len = verbose_prefix_len(bytes)?;
    // A CR redraws the line and an escape colours it (both make several segments or change
    // the text); a second timestamp starts a record in the middle.
    if memchr::memchr2(b'\r', 0x1b, bytes).is_some() || may_embed_stamp(line) {
        return None;
    }
    Some((prefix_len, Kind::of(&line[prefix_len..])?))
}

/// The lines of a block being collected.
struct Block {
    kind: Kind,
    tactics: Vec<u64>,
    times: Vec<f64>,
    kernels: Vec<String>,
    parameters: Vec<Option<String>>,
    bodies: String,
    records: Vec<Record>,
    lines: usize,
}

impl Block {
    fn new(kind: Kind) -> Block {
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

    fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// Adds `body` if it is the block's form in full and no terminal the grammar's lexer
    /// tries first would take it.
    fn take(&mut self, body: &str, guards: &Guards) -> bool {
        if self.kind == Kind::Record {
            let Some(found) = record(body) else {
                return false;
            };
            if !guards.clear(found.rule(), body) {
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
    fn piece(&mut self, first_line: u64, prefix: &str) -> Piece {
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
            Kind::Record => Piece::Records {
                first_line,
                prefix: prefix.to_string(),
                records: taken.records,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_all(data: &[u8], sizes: usize) -> (Vec<Piece>, u64) {
        let mut scanner = Scanner::new(1, Guards::none());
        let mut pieces = Vec::new();
        for chunk in data.chunks(sizes.max(1)) {
            pieces.extend(scanner.feed(chunk));
        }
        pieces.extend(scanner.finish());
        (pieces, scanner.lines)
    }

    // Lines of a TensorRT 10.16 trtexec --verbose build (hackathon corpus log).
    const LOG: &str = "[07/07/2026-02:11:09] [V] [TRT] --------------- Timing Runner: conv1 (CaskConvolution)\n\
[07/07/2026-02:11:09] [V] [TRT] Tactic Name: sm80_xmma_fprop Tactic: 0x0000000000020318 Time: 0.0123\n\
[07/07/2026-02:11:09] [V] [TRT] Tactic Name: sm80_xmma_fprop_b Tactic: 0x000000000002031a Time: 0.0456\n\
[07/07/2026-02:11:09] [V] [TRT] Fastest Tactic: 0x0000000000020318 Time: 0.0123\n\
[07/07/2026-02:11:10] [V] [TRT]  (foreignNode)   20, 0.0101120, 1.05934, 0.83962, sm80_xmma_gemm\n\
[07/07/2026-02:11:10] [V] [TRT]  (foreignNode)  261, 0.0142336, 1.49112, 0.74913, sm80_xmma_gemm\n\
[07/07/2026-02:11:10] [I] [TRT] Done\n";

    #[test]
    fn runs_become_blocks_and_the_rest_stays_text() {
        let (pieces, lines) = scan_all(LOG.as_bytes(), 1 << 20);
        assert_eq!(lines, 7);
        assert_eq!(pieces.len(), 5);
        match &pieces[1] {
            Piece::Timings {
                first_line,
                tactics,
                times,
                kernels,
                ..
            } => {
                assert_eq!(*first_line, 2);
                assert_eq!(tactics, &vec![0x20318, 0x2031a]);
                assert_eq!(times, &vec![0.0123, 0.0456]);
                assert_eq!(kernels.as_ref().unwrap()[1], "sm80_xmma_fprop_b");
            }
            other => panic!("{other:?}"),
        }
        match &pieces[3] {
            Piece::Myelin {
                first_line,
                lines,
                bodies,
                ..
            } => {
                assert_eq!((*first_line, *lines), (5, 2));
                assert!(bodies.starts_with(" (foreignNode)   20,"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(&pieces[4], Piece::Lines { first_line: 7, .. }));
    }

    #[test]
    fn any_feeding_gives_the_same_pieces() {
        let (whole, _) = scan_all(LOG.as_bytes(), 1 << 20);
        for size in [1, 2, 7, 64, 100] {
            assert_eq!(
                scan_all(LOG.as_bytes(), size).0,
                whole,
                "fed {size} bytes at a time"
            );
        }
    }

    #[test]
    fn a_run_followed_by_a_bare_line_keeps_its_last_line_as_text() {
        let log = "[07/07/2026-02:11:09] [V] [TRT] Tactic: 0x1 Time: 1\n\
[07/07/2026-02:11:09] [V] [TRT] Tactic: 0x2 Time: 2\n\
  a continuation line\n";
        let (pieces, _) = scan_all(log.as_bytes(), 1 << 20);
        assert!(matches!(&pieces[0], Piece::Timings { tactics, .. } if tactics == &vec![1]));
        match &pieces[1] {
            Piece::Lines {
                first_line, text, ..
            } => {
                assert_eq!(*first_line, 2);
                assert_eq!(text.lines().count(), 2);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unclean_lines_and_crlf_stay_text() {
        let log = "[07/07/2026-02:11:09] [V] [TRT] Tactic: 0x1 Time: 1\r\n\
[07/07/2026-02:11:09] [V] [TRT] \x1b[0mTactic: 0x2 Time: 2\n\
[07/07/2026-02:11:09] [V] [TRT] Tactic: 0x3 Time: 3[07/07/2026-02:11:10] [I] x\n";
        let (pieces, lines) = scan_all(log.as_bytes(), 5);
        assert_eq!(lines, 3);
        assert!(pieces
            .iter()
            .all(|piece| matches!(piece, Piece::Lines { .. })));
    }

    #[test]
    fn invalid_utf8_is_replaced_and_a_last_line_without_newline_counts() {
        let log = b"[07/07/2026-02:11:09] [I] caf\xe9\n[07/07/2026-02:11:09] [I] end";
        let (pieces, lines) = scan_all(log, 3);
        assert_eq!(lines, 2);
        let text: Vec<&str> = pieces
            .iter()
            .map(|piece| match piece {
                Piece::Lines { text, .. } => text.as_str(),
                _ => "",
            })
            .collect();
        assert_eq!(
            text.concat(),
            "[07/07/2026-02:11:09] [I] caf\u{FFFD}\n[07/07/2026-02:11:09] [I] end"
        );
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Lines a log is made of: the frequent forms, their near misses, and noise.
    fn log_line() -> impl Strategy<Value = Vec<u8>> {
        let stamp = "[07/07/2026-02:11:09] ";
        prop_oneof![
            Just(format!("{stamp}[V] [TRT] Tactic: 0x1 Time: 0.5").into_bytes()),
            Just(format!("{stamp}[V] [TRT] Tactic Name: k Tactic: 0x2 Time: 1").into_bytes()),
            Just(format!("{stamp}[TRT] [V]  (foreignNode) 1, 0.1, kernel").into_bytes()),
            Just(format!("{stamp}[V] [TRT] Tactic: 99999999999999999999 Time: 1").into_bytes()),
            Just(format!("{stamp}[I] [TRT] Fastest Tactic: 0x1 Time: 0.5").into_bytes()),
            Just(b"    bare continuation".to_vec()),
            proptest::collection::vec(any::<u8>(), 0..40),
        ]
    }

    proptest! {
        // Cheap enough to try many inputs every run (PROPTEST_CASES still overrides).
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn arbitrary_bytes_never_panic_and_every_line_is_handed_on_once(
            data in proptest::collection::vec(any::<u8>(), 0..400),
            chunk in 1usize..64,
        ) {
            check_accounting(&data, chunk);
        }

        #[test]
        fn log_like_lines_are_each_handed_on_once(
            lines in proptest::collection::vec(log_line(), 0..60),
            chunk in 1usize..200,
        ) {
            check_accounting(&lines.join(&b'\n'), chunk);
        }
    }

    fn check_accounting(data: &[u8], chunk: usize) {
        let mut scanner = Scanner::new(1, Guards::none());
        let mut pieces = Vec::new();
        for piece in data.chunks(chunk) {
            pieces.extend(scanner.feed(piece));
        }
        pieces.extend(scanner.finish());
        let newlines = data.iter().filter(|byte| **byte == b'\n').count() as u64;
        let expected = newlines + u64::from(!data.is_empty() && data.last() != Some(&b'\n'));
        assert_eq!(scanner.lines, expected);
        let mut next = 1;
        for piece in &pieces {
            assert_eq!(piece.first_line(), next, "{pieces:?}");
            next += piece.line_count() as u64;
        }
        assert_eq!(next - 1, expected);
    }
}
