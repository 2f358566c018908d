use super::*;
use crate::guards::Guards;
use crate::records::Record;
use crate::scan::{Piece, Scanner};

fn bar(line: &str) -> Option<(String, String, i64, i64, String)> {
    match progress(line)? {
        RunRecord::Progress {
            bar,
            phase,
            done,
            total,
            text,
        } => Some((bar, phase, done, total, text)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bars_of_a_10_16_progress_monitor() {
    // TensorRT 10.16 Python build with a progress monitor (hackathon corpus log): the top bar
    // redrawn after moving the cursor up, and a nested one indented by its depth.
    assert_eq!(
        bar("\x1b[2A\x1b[0G\x1b[2K[=====-----] Building engine 3/6"),
        Some((
            "[=====-----]".into(),
            "Building engine".into(),
            3,
            6,
            "[=====-----] Building engine 3/6".into()
        ))
    );
    assert_eq!(
        bar("\x1b[2K    [=---------] Timing graph nodes 2/12"),
        Some((
            "    [=---------]".into(),
            "Timing graph nodes".into(),
            2,
            12,
            "    [=---------] Timing graph nodes 2/12".into()
        ))
    );
    assert!(may_be_bar(
        "\x1b[2K [----------] Cloning network graph 0/30"
    ));
}

#[test]
fn the_phase_is_the_text_up_to_the_last_space() {
    // "Building engine from subgraph 0/1" (same log); a phase holding counts of its own.
    let (_, phase, done, total, _) = bar("[----------] Building engine from subgraph 0/1").unwrap();
    assert_eq!(
        (phase.as_str(), done, total),
        ("Building engine from subgraph", 0, 1)
    );
    let (_, phase, ..) = bar("[==] Step 1/2 of  3/4").unwrap();
    assert_eq!(phase, "Step 1/2 of ");
}

#[test]
fn lines_the_reader_cleans_otherwise_or_that_are_no_bar_are_declined() {
    for line in [
        // A carriage return redraws the line: several segments.
        "[==--] Building engine 1/2\r[===-] Building engine 2/2",
        // An escape the core does not remove as the reader does (an OSC title).
        "\x1b]0;title\x07[==--] Building engine 1/2",
        "\x1b[2K[==--] Building engine 1/2\x1b",
        // A second timestamp: the reader splits the line there.
        "[==--] Building engine [07/07/2026-06:12:50] 1/2",
        // Not the rule in full.
        "[==--] Building engine",
        "[==--]  1/2",
        "[==--] Building engine 1/",
        "[==--] Building engine \u{663}/4",
        "[==--] Building engine 9223372036854775808/9223372036854775809",
        "[== --] Building engine 1/2",
        "[07/07/2026-06:12:50] [TRT] [W] ModelImporter.cpp:994: Make sure output z has Int64 binding.",
    ] {
        assert_eq!(progress(line), None, "{line:?}");
    }
    assert!(!may_be_bar("[07/07/2026-06:12:50] [TRT] [W] x"));
    assert!(!may_be_bar("[==--] Building engine 1/2\r"));
}

#[test]
fn escapes_are_removed_as_the_reader_removes_them() {
    assert_eq!(
        cleaned("\x1b[1;31mred\x1b[0m \x1b[7A"),
        Some(Cow::Owned("red ".into()))
    );
    assert_eq!(cleaned("plain"), Some(Cow::Borrowed("plain")));
    // Parameters the reader's pattern reads otherwise ("?" of private modes): declined.
    assert_eq!(cleaned("\x1b[?25l"), None);
    assert_eq!(cleaned("\x1b["), None);
}

// The start of the same log: a warning, then bars under it without an envelope.
const LOG: &str = "[07/07/2026-06:12:50] [TRT] [W] ModelImporter.cpp:994: Make sure output z has Int64 binding.\n\
\x1b[0G\x1b[2K[----------] Building engine 0/6\n\
\x1b[1A\x1b[0G\x1b[2K[----------] Building engine 0/6\n\
\x1b[2K [----------] Cloning network graph 0/30\n\
\x1b[2K [----------] Cloning network graph\n\
[07/07/2026-06:12:51] [TRT] [I] done\n";

#[test]
fn bars_come_with_their_text_and_the_warning_above_stays_text() {
    let mut scanner = Scanner::new(1, Guards::none());
    let mut pieces = scanner.feed(LOG.as_bytes());
    pieces.extend(scanner.finish());
    let lines: usize = pieces.iter().map(Piece::line_count).sum();
    assert_eq!(lines, 6);
    // The warning's line goes on as text: its message may take the lines under it, which the
    // grammar decides.
    assert!(matches!(&pieces[0], Piece::Lines { first_line: 1, .. }));
    match &pieces[1] {
        Piece::Records {
            first_line: 2,
            prefix,
            records,
        } => {
            assert_eq!(prefix, "");
            let texts: Vec<&str> = records
                .iter()
                .map(|found| match found {
                    Record::Run(RunRecord::Progress { text, .. }) => text.as_str(),
                    other => panic!("{other:?}"),
                })
                .collect();
            assert_eq!(
                texts,
                [
                    "[----------] Building engine 0/6",
                    "[----------] Building engine 0/6",
                    " [----------] Cloning network graph 0/30"
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&pieces[2], Piece::Lines { first_line: 5, .. }));
}
