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

#[test]
fn the_grammar_still_reads_profile_rows_and_options_so() {
    assert_eq!(
        crate::grammar::rule_alternatives("profile_row"),
        [
            "PROFILE_NAME_FIRST PROFILE_NUMBERS",
            "PROFILE_NUMBERS_FIRST PROFILE_LAYER"
        ]
    );
    assert_eq!(
        rule_text("option_line"),
        Some(r#"OPTION_KEY ":" [OPTION_VALUE]"#)
    );
}

fn row(numbers_first: bool, first: &str, second: &str) -> Option<RunRecord> {
    Some(RunRecord::ProfileRow {
        numbers_first,
        first: first.to_string(),
        second: second.to_string(),
    })
}

#[test]
fn profile_rows_of_8_4_and_8_5_name_first_with_the_median() {
    // TensorRT 8.5.3 trtexec --dumpProfile (sparsedrive corpus log), its padding shortened.
    let body = "      Reformatting CopyNode for Network Input prev_map_feat        1.50           0.0127             0.0051      0.1";
    assert!(may_be_message(body));
    let numbers = "        1.50           0.0127             0.0051      0.1";
    let name = "      Reformatting CopyNode for Network Input prev_map_feat";
    assert_eq!(message(body), row(false, name, numbers));
    assert_eq!(message(body).unwrap().rule(), "profile_row");
    // A ForeignNode's name holds brackets, parentheses and dots (the same log).
    let body = "  {ForeignNode[onnx::Gather_1538...(Unnamed Layer* 1019) [Shuffle] + Transpose_1608]}       47.66           0.4039             0.4004      1.7";
    let Some(RunRecord::ProfileRow { first, second, .. }) = message(body) else {
        panic!("not read");
    };
    assert!(first.ends_with("Transpose_1608]}"));
    assert_eq!(
        second,
        "       47.66           0.4039             0.4004      1.7"
    );
}

#[test]
fn profile_rows_of_8_2_and_earlier_have_three_numbers() {
    // The 8.2 layout (performance.toml's case): no median.
    let body =
        "Reformatting CopyNode for Input Tensor 0 to Conv_0       58.18           0.4247      6.6";
    assert_eq!(
        message(body),
        row(
            false,
            "Reformatting CopyNode for Input Tensor 0 to Conv_0",
            "       58.18           0.4247      6.6"
        )
    );
}

#[test]
fn profile_rows_of_8_6_and_later_have_the_numbers_first() {
    // TensorRT 10.x layout (sample_logs/trtexec_10.x_build_inference_profile.log).
    let body = "      29.71       0.0030       0.0029       9.6   Reformatting CopyNode for Input Tensor 0 to /conv1/Conv + /relu1/Relu";
    assert!(may_be_message(body));
    let found = message(body);
    assert_eq!(
        found,
        row(
            true,
            "      29.71       0.0030       0.0029       9.6   ",
            "Reformatting CopyNode for Input Tensor 0 to /conv1/Conv + /relu1/Relu"
        )
    );
    assert_eq!(found.unwrap().rule(), "profile_row_numbers_first");
    // A layer named as numbers after the row's own: the numbers-first terminal comes first.
    let body = "    1.0   2.0   3.0   4.0   5.0 6.0 7.0";
    assert_eq!(
        message(body),
        row(true, "    1.0   2.0   3.0   4.0   ", "5.0 6.0 7.0")
    );
}

#[test]
fn a_profile_row_s_name_is_the_shortest_its_numbers_follow() {
    // Five numbers: the lexer's lazy name takes the first, as Python's lookahead decides.
    assert_eq!(
        message("conv 1.0 2.0 3.0 4.0 5.0"),
        row(false, "conv 1.0", " 2.0 3.0 4.0 5.0")
    );
    // Python's \d reads the Arabic-Indic digit: the grammar's name is "x", its numbers hold
    // that digit, which the narrowed numbers do not take. Left to the grammar.
    assert_eq!(message("x \u{663}.5 1.0 2.0 3.0"), None);
}

#[test]
fn lines_of_the_profile_that_are_not_rows_are_declined() {
    // TensorRT 8.5.3 (sparsedrive corpus log): the profile's header and its columns row.
    for body in [
        "=== Profile (118 iterations ) ===",
        "   Layer   Time (ms)   Avg. Time (ms)   Median Time (ms)   Time %",
        "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer",
        // Two numbers, a number without a fraction, the numbers-first row without a layer.
        "conv 1.0 2.0",
        "conv 1.0 2.0 3",
        "    1.0   2.0   3.0   4.0   ",
        "",
    ] {
        assert_eq!(message(body), None, "{body:?}");
    }
}

fn option(key: &str, value: Option<&str>) -> Option<RunRecord> {
    Some(RunRecord::OptionLine {
        key: key.to_string(),
        value: value.map(str::to_string),
    })
}

#[test]
fn option_lines_with_and_without_a_value() {
    // TensorRT 7.1 trtexec on a Jetson (corpus log, googlenet INT8).
    assert_eq!(message("Format: Caffe"), option("Format", Some(" Caffe")));
    assert_eq!(message("Model: "), option("Model", Some(" ")));
    // TensorRT 10.14 trtexec (corpus log, rtx6000ada): an option with no value.
    assert_eq!(message("Output:"), option("Output", None));
    assert_eq!(message("Output:").unwrap().rule(), "option_line");
    // The key ends at the first colon; the value keeps the others.
    assert_eq!(
        message("Memory Pools: workspace: default, dlaSRAM: default"),
        option(
            "Memory Pools",
            Some(" workspace: default, dlaSRAM: default")
        )
    );
    for body in [
        "no colon",
        ": value",
        " Indented: x",
        "=== Build Options ===",
    ] {
        assert_eq!(message(body), None, "{body:?}");
    }
}

#[test]
fn an_option_like_line_an_earlier_terminal_takes_is_declined() {
    // Every form is checked against its guards: where a terminal the lexer tries first takes
    // the line ("Tactic: ", "Trace averages of ", DEVICE_KEY), it is not an option line. (The
    // guards as the Python side sends them, widened: lookaheads as plain groups.)
    let mut scanner = Scanner::new(
        1,
        Guards::new(&[(
            "option_line".to_string(),
            vec![
                "Tactic:?(?: )".to_string(),
                r"Trace\ averages\ of\ ".to_string(),
                "(Selected Device( ID)?)(?::)".to_string(),
            ],
        )]),
    );
    let log = "[04/25/2026-00:55:02] [I] Selected Device: NVIDIA RTX 6000 Ada Generation\n\
[04/25/2026-00:55:02] [I] Tactic: 0x0000000000000000 Time: 0.0123\n\
[08/30/2026-04:09:00] [I] Trace averages of 10 runs:\n\
[04/25/2026-00:55:01] [I] Output:\n\
[04/25/2026-00:55:01] [I] Format: Caffe\n";
    assert!(message("Selected Device: NVIDIA RTX 6000 Ada Generation").is_some());
    let mut pieces = scanner.feed(log.as_bytes());
    pieces.extend(scanner.finish());
    assert_eq!(claimed(&pieces), vec![(4, "[04/25/2026-00:55:01] [I] ", 2)]);
}

#[test]
fn a_device_property_passes_the_first_test_and_reads_as_an_option_line_without_guards() {
    // TensorRT 8.6 trtexec's device section: the grammar reads a device property (DEVICE_KEY is
    // tried before OPTION_KEY), so only the guards keep the scanner from claiming it.
    let body = "Compute Capability: 8.9";
    assert!(may_be_message(body));
    assert_eq!(
        message(body).map(|record| record.rule()),
        Some("option_line")
    );
}
