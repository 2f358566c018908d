use super::*;

#[test]
fn guards_decline_what_an_earlier_terminal_takes() {
    let profiled =
        r"[^\n]+? \([A-Za-z][\w]*(\[0x[0-9a-fA-F]+\])?\) profiling completed in ".to_string();
    let guards = Guards::new(&[
        ("myelin_trace".into(), vec![profiled]),
        ("tactic_timing".into(), vec![]),
        ("named_tactic_timing".into(), vec!["(".into()]),
    ]);
    assert!(guards.clear("myelin_trace", " (foreignNode) 1, 0.5, kernel"));
    let profiled_row = " (foreignNode) x (Gemm) profiling completed in 1";
    assert!(!guards.clear("myelin_trace", profiled_row));
    assert!(guards.clear("tactic_timing", "Tactic: 0x1 Time: 1"));
    // A pattern that does not compile: the form is never claimed.
    assert!(!guards.clear("named_tactic_timing", "Tactic Name: k Tactic: 0x1 Time: 1"));
    // No guards at all: never claimed.
    assert!(!guards.clear("fastest_tactic", "Fastest Tactic: 0x1 Time: 1"));
    assert!(Guards::none().clear("fastest_tactic", "Fastest Tactic: 0x1 Time: 1"));
}

#[test]
fn rules_guarded_by_one_list_see_only_their_own_guards() {
    let earlier = "Fastest".to_string();
    let later = "[^ ]+ Tactic".to_string();
    let guards = Guards::new(&[
        ("timing_runner".into(), vec![earlier.clone()]),
        ("tactic_timing".into(), vec![earlier, later]),
    ]);
    let body = "Named Tactic: 0x1 Time: 1";
    // Only the later pattern matches: it guards the rule with both, not the other.
    assert!(guards.clear("timing_runner", body));
    assert!(!guards.clear("tactic_timing", body));
    let fastest = "Fastest Tactic: 0x1 Time: 1";
    assert!(!guards.clear("timing_runner", fastest));
    assert!(!guards.clear("tactic_timing", fastest));
    assert!(guards.clear("tactic_timing", "Tactic: 0x1 Time: 1"));
}

#[test]
fn the_rules_of_two_start_rules_are_guarded_by_their_own_lists() {
    // trtexec's own messages start another rule: its lexer tries other terminals first.
    let guards = Guards::new(&[
        (
            "tactic_timing".into(),
            vec!["Fastest".into(), "Average".into()],
        ),
        (
            "trace_average".into(),
            vec!["Tactic".into(), "x".into(), "y".into()],
        ),
        ("fastest_tactic".into(), vec!["Fastest".into()]),
    ]);
    assert_eq!(guards.lists.len(), 2);
    assert!(guards.clear("trace_average", "Average on 10 runs"));
    assert!(!guards.clear("tactic_timing", "Average on 10 runs"));
    assert!(!guards.clear("trace_average", "Tactic: 0x1 Time: 1"));
    assert!(guards.clear("fastest_tactic", "Average on 10 runs"));
}

#[test]
fn a_pattern_that_does_not_compile_stops_only_the_rules_it_guards() {
    let guards = Guards::new(&[
        ("fastest_tactic".into(), vec!["Skipping".into()]),
        ("timing_runner".into(), vec!["Skipping".into(), "(".into()]),
    ]);
    assert!(guards.clear("fastest_tactic", "Fastest Tactic: 0x1 Time: 1"));
    assert!(!guards.clear("fastest_tactic", "Skipping x"));
    assert!(!guards.clear("timing_runner", "--------------- Timing Runner: c (R)"));
}

#[test]
fn the_first_pattern_of_a_list_that_matches_tells_not_the_longest() {
    // The lexer tries "a" before "abc": a rule guarded by "a" alone is not claimed for "abc",
    // though "abc" is the longer match.
    let guards = Guards::new(&[
        ("fastest_tactic".into(), vec!["a".into()]),
        ("timing_runner".into(), vec!["a".into(), "abc".into()]),
        (
            "tactic_timing".into(),
            vec!["a".into(), "abc".into(), "x".into()],
        ),
    ]);
    assert!(!guards.clear("fastest_tactic", "abc"));
    assert!(!guards.clear("timing_runner", "abc"));
    assert!(guards.clear("fastest_tactic", "xyz"));
    assert!(guards.clear("timing_runner", "xyz"));
    assert!(!guards.clear("tactic_timing", "xyz"));
}

#[test]
fn the_first_pattern_tells_even_where_a_later_one_matches_first() {
    // "a" matches after one byte, "abc" after three; the lexer tries "abc" first.
    let guards = Guards::new(&[
        ("fastest_tactic".into(), vec!["abc".into()]),
        ("timing_runner".into(), vec!["abc".into(), "a".into()]),
    ]);
    assert!(!guards.clear("fastest_tactic", "abc"));
    assert!(guards.clear("fastest_tactic", "ab"));
    assert!(!guards.clear("timing_runner", "ab"));
}
