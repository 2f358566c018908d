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

    #[test]
    fn a_message_claimed_on_its_own_never_panics_and_is_one_line(
        body in prop_oneof![
            "\\PC{0,80}",
            "(Tactic|Fastest Tactic|Average on|Layer|  \\[=*-*\\]|Set Tactic Name)[: ]\\PC{0,40}",
        ],
        trtexec in any::<bool>(),
    ) {
        let scanner = Scanner::new(1, Guards::none());
        if let Some(piece) = scanner.claim(&body, trtexec, 7) {
            assert_eq!((piece.first_line(), piece.line_count()), (7, 1), "{piece:?}");
        }
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
