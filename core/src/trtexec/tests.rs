use super::*;
use crate::grammar::rule_text;
use crate::guards::Guards;
use crate::records::Record;
use crate::runs::RunRecord;
use crate::scan::{Piece, Scanner};

#[test]
fn the_grammar_still_spells_the_literals_read_here() {
    assert_eq!(
        rule_text("trace_average"),
        Some(
            r#""Average on " UINT " runs - GPU latency: " NUMBER " ms - Host latency: " NUMBER " ms (" ["end to end " NUMBER " ms, "] "enqueue " NUMBER " ms)""#
        )
    );
}

#[test]
fn trace_averages_of_8_4_and_later() {
    // TensorRT 8.6 trtexec inference (hackathon corpus log, rtx3090).
    let body = "Average on 10 runs - GPU latency: 0.0433136 ms - Host latency: 0.0513611 ms (enqueue 0.0253128 ms)";
    assert!(may_be_message(body));
    assert_eq!(
        message(body),
        Some(RunRecord::TraceAverage {
            runs: 10,
            gpu_latency: 0.0433136,
            host_latency: 0.0513611,
            end_to_end: None,
            enqueue: 0.0253128,
        })
    );
}

#[test]
fn trace_averages_with_end_to_end_of_7_1_to_8_2() {
    // TensorRT 7.1 trtexec on a Jetson (corpus log, googlenet INT8).
    let body = "Average on 3 runs - GPU latency: 1.96852 ms - Host latency: 2.10776 ms (end to end 2.12201 ms, enqueue 1.98582 ms)";
    assert_eq!(
        message(body),
        Some(RunRecord::TraceAverage {
            runs: 3,
            gpu_latency: 1.96852,
            host_latency: 2.10776,
            end_to_end: Some(2.12201),
            enqueue: 1.98582,
        })
    );
    assert_eq!(message(body).unwrap().rule(), "trace_average");
}

#[test]
fn near_misses_are_declined() {
    let good = "Average on 10 runs - GPU latency: 1 ms - Host latency: 2 ms (enqueue 3 ms)";
    assert!(message(good).is_some());
    for body in [
        // Text after the closing parenthesis, a missing enqueue, a word for a number.
        "Average on 10 runs - GPU latency: 1 ms - Host latency: 2 ms (enqueue 3 ms) x",
        "Average on 10 runs - GPU latency: 1 ms - Host latency: 2 ms (end to end 4 ms)",
        "Average on ten runs - GPU latency: 1 ms - Host latency: 2 ms (enqueue 3 ms)",
        "Average on 10 runs - GPU latency: 1e ms - Host latency: 2 ms (enqueue 3 ms)",
        // Python's \d takes Arabic-Indic digits: left to the grammar.
        "Average on \u{663} runs - GPU latency: 1 ms - Host latency: 2 ms (enqueue 3 ms)",
        // A run count beyond 64 signed bits.
        "Average on 9223372036854775808 runs - GPU latency: 1 ms - Host latency: 2 ms (enqueue 3 ms)",
        "Average on",
    ] {
        assert_eq!(trace_average(body), None, "{body}");
    }
}

#[test]
fn numbers_in_every_spelling_the_grammar_takes() {
    let body = "Average on 0 runs - GPU latency: inf ms - Host latency: -1.5e+3 ms (end to end .5 ms, enqueue 1. ms)";
    let Some(RunRecord::TraceAverage {
        runs,
        gpu_latency,
        host_latency,
        end_to_end,
        enqueue,
    }) = message(body)
    else {
        panic!("not read");
    };
    assert_eq!(runs, 0);
    assert_eq!(gpu_latency, f64::INFINITY);
    assert_eq!(host_latency, -1500.0);
    assert_eq!(end_to_end, Some(0.5));
    assert_eq!(enqueue, 1.0);
}

// Lines of a TensorRT 8.6 trtexec inference log (hackathon corpus log, rtx3090).
const LOG: &str = "[03/25/2023-07:13:26] [I] Average on 10 runs - GPU latency: 0.0433136 ms - Host latency: 0.0513611 ms (enqueue 0.0253128 ms)\n\
[03/25/2023-07:13:26] [I] Average on 10 runs - GPU latency: 0.0434158 ms - Host latency: 0.0518692 ms (enqueue 0.0253555 ms)\n\
[03/25/2023-07:13:26] [I] Average on ten runs\n\
[03/25/2023-07:13:27] [I] Average on 10 runs - GPU latency: 0.0434158 ms - Host latency: 0.0518692 ms (enqueue 0.0253555 ms)\n\
[03/25/2023-07:13:27] [W] Average on 10 runs - GPU latency: 0.0434158 ms - Host latency: 0.0518692 ms (enqueue 0.0253555 ms)\n\
[03/25/2023-07:13:27] [I] Average on 10 runs - GPU latency: 0.0434158 ms - Host latency: 0.0518692 ms (enqueue 0.0253555 ms)\n\
  a bare line under it\n";

fn scanned(guards: Guards) -> Vec<Piece> {
    let mut scanner = Scanner::new(1, guards);
    let mut pieces = scanner.feed(LOG.as_bytes());
    pieces.extend(scanner.finish());
    pieces
}

/// The claimed records' first lines, envelopes and counts.
fn claimed(pieces: &[Piece]) -> Vec<(u64, &str, usize)> {
    pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Records {
                first_line,
                prefix,
                records,
            } => {
                assert!(records.iter().all(|found| matches!(found, Record::Run(_))));
                Some((*first_line, prefix.as_str(), records.len()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn runs_of_trace_averages_are_claimed_in_trtexec_s_info_envelope() {
    let pieces = scanned(Guards::none());
    // Lines 1-2 in one second, line 4 in the next; line 3 is no trace average, line 5 is a
    // warning (another start rule) and line 6 has a continuation line under it.
    assert_eq!(
        claimed(&pieces),
        vec![
            (1, "[03/25/2023-07:13:26] [I] ", 2),
            (4, "[03/25/2023-07:13:27] [I] ", 1)
        ]
    );
    let lines: usize = pieces.iter().map(Piece::line_count).sum();
    assert_eq!(lines, 7);
}

#[test]
fn a_guard_of_the_start_rule_makes_the_core_decline() {
    // A terminal the lexer tries before "Average on " that takes the line: nothing is claimed.
    let guards = Guards::new(&[("trace_average".to_string(), vec!["Average".to_string()])]);
    assert!(claimed(&scanned(guards)).is_empty());
    // Without guards read for the rule, the rule is never claimed.
    let guards = Guards::new(&[("fastest_tactic".to_string(), vec![])]);
    assert!(claimed(&scanned(guards)).is_empty());
}
