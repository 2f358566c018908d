//! The frequent message forms the core claims, as their grammar rules read them.
//!
//! - `tactic_timing` (`grammars/autotuning.lark`): 8.x-10.x "Tactic: 0x... Time: 0.0123", and
//!   the 5.x-7.x spellings "Tactic: 12 time 0.1", "Tactic 12 Time: 0.1";
//! - `named_tactic_timing`: 8.6-10.x "Tactic Name: <kernel> [numSplitK: ...] Tactic: 0x...
//!   Time: ...";
//! - `myelin_trace` (`grammars/notes.lark`): the rows of Myelin's tactic tables,
//!   " (foreignNode) ..." (10.x) and " (myelin) ..." (8.x).
//!
//! A body is claimed only when it matches its form in full and no terminal that the grammar's
//! lexer tries before the form's first terminal matches at its start (`Guards`, sent by the
//! Python side, which reads the order from the parser).

use regex::Regex;
use std::sync::OnceLock;

use crate::grammar::narrowed_terminal;

/// The form of a body, from its first bytes (before it is checked in full).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Plain,
    Named,
    Myelin,
    /// One of the one-line records (`records`, `tuning`).
    Record,
    /// One of trtexec's own one-line messages, in its own envelope (`trtexec`).
    Trtexec,
    /// A progress monitor's bar, on a line without an envelope (`progress`).
    Progress,
}

impl Kind {
    /// The form a body may be, by how it starts.
    pub fn of(body: &str) -> Option<Kind> {
        if let Some(rest) = body.strip_prefix("Tactic") {
            if rest.starts_with(" Name: ") {
                return Some(Kind::Named);
            }
            if crate::tuning::may_be_skipped_tactic(body) {
                return Some(Kind::Record);
            }
            let rest = rest.strip_prefix(':').unwrap_or(rest);
            let after = rest.strip_prefix(' ')?.as_bytes().first()?;
            return (after.is_ascii_digit() || *after == b'-').then_some(Kind::Plain);
        }
        let myelin = [" (foreignNode)", " (myelin)", " (Myelin)"];
        if myelin.iter().any(|prefix| body.starts_with(prefix)) {
            return Some(Kind::Myelin);
        }
        let record = crate::tuning::may_be_tuning(body) || crate::records::may_be_record(body);
        record.then_some(Kind::Record)
    }

    /// The grammar rule of a block form (a record's is its own: `Record::rule`).
    pub fn rule(self) -> &'static str {
        match self {
            Kind::Plain => "tactic_timing",
            Kind::Named => "named_tactic_timing",
            Kind::Myelin => "myelin_trace",
            Kind::Record | Kind::Trtexec | Kind::Progress => "",
        }
    }
}

/// A tactic timing: the tactic as TensorRT's unsigned 64-bit value, the time as printed (read
/// as a number: inf and FLT_MAX are kept), the kernel and its parameters where named.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing<'a> {
    pub tactic: u64,
    pub time: f64,
    pub kernel: Option<&'a str>,
    pub parameters: Option<&'a str>,
}

struct Patterns {
    plain: Regex,
    named: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let tactic = narrowed_terminal("TACTIC_ID");
        let number = narrowed_terminal("NUMBER");
        let time = narrowed_terminal("_TIME_KEYWORD");
        let kernel = narrowed_terminal("KERNEL_NAME");
        let parameters = narrowed_terminal("KERNEL_PARAMETERS");
        // tactic_timing: _TACTIC_KEYWORD TACTIC_ID _TIME_KEYWORD NUMBER (the keyword's own
        // lookahead is the TACTIC_ID that follows it).
        let plain = format!(r"\ATactic:? ({tactic}){time}({number})\z");
        // named_tactic_timing: "Tactic Name: " KERNEL_NAME [KERNEL_PARAMETERS] " Tactic: "
        // TACTIC_ID " Time: " NUMBER
        let named = format!(
            r"\ATactic Name: ({kernel})({parameters})? Tactic: ({tactic}) Time: ({number})\z"
        );
        Patterns {
            plain: Regex::new(&plain).expect("tactic_timing pattern"),
            named: Regex::new(&named).expect("named_tactic_timing pattern"),
        }
    })
}

/// TensorRT's tactic id as the grammar's transformer reads it: hexadecimal, or decimal (a
/// negative one as its two's complement). None where it does not fit in 64 bits.
pub fn tactic_value(text: &str) -> Option<u64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u64::from_str_radix(hex, 16).ok();
    }
    if let Some(negative) = text.strip_prefix('-') {
        // Python reads "-0" as 0 and wraps a negative id into 64 bits.
        let magnitude: u64 = negative.parse().ok()?;
        return (magnitude <= 1 << 63).then(|| magnitude.wrapping_neg());
    }
    text.parse().ok()
}

/// The body as a tactic timing of form `kind` (`Plain` or `Named`), if it is one in full.
///
/// The form's pattern (made of the grammar's terminals) decides whether the body is one; the
/// fields are then cut at the separators the pattern puts between them, which none of them can
/// hold (a kernel name holds no white space, ids and numbers no spaces).
pub fn timing(kind: Kind, body: &str) -> Option<Timing<'_>> {
    let patterns = patterns();
    let (tactic, time, kernel, parameters) = match kind {
        Kind::Plain => {
            if !patterns.plain.is_match(body) {
                return None;
            }
            // "Tactic" [":"] " " ID " " ("Time"|"time") [":"] " " NUMBER
            let rest = body["Tactic".len()..]
                .strip_prefix(':')
                .unwrap_or(&body[6..]);
            let (tactic, rest) = rest[1..].split_once(' ')?;
            let (_keyword, time) = rest.split_once(' ')?;
            (tactic, time, None, None)
        }
        Kind::Named => {
            if !patterns.named.is_match(body) {
                return None;
            }
            // "Tactic Name: " KERNEL [" numSplitK: ..."] " Tactic: " ID " Time: " NUMBER
            let rest = &body["Tactic Name: ".len()..];
            let (kernel, rest) = rest.split_at(rest.find(' ')?);
            let (parameters, rest) = rest.split_once(" Tactic: ")?;
            let (tactic, time) = rest.split_once(" Time: ")?;
            let parameters = (!parameters.is_empty()).then(|| parameters.trim());
            (tactic, time, Some(kernel), parameters)
        }
        Kind::Myelin | Kind::Record | Kind::Trtexec | Kind::Progress => return None,
    };
    Some(Timing {
        tactic: tactic_value(tactic)?,
        time: time.parse().ok()?,
        kernel,
        parameters,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tactic_timings_in_every_historical_spelling() {
        // TensorRT 8.0-10.x trtexec.
        let timing = super::timing(Kind::Plain, "Tactic: 0x0000000000020318 Time: 0.0123").unwrap();
        assert_eq!(timing.tactic, 0x20318);
        assert_eq!(timing.time, 0.0123);
        // TensorRT 7.1 (jetson trtexec): decimal ids, lower-case "time".
        let timing = super::timing(Kind::Plain, "Tactic: 1 time 0.191488").unwrap();
        assert_eq!((timing.tactic, timing.time), (1, 0.191488));
        // TensorRT 5/6: "Tactic -3 Time: ..." (no colon), a negative id wraps to 64 bits.
        let timing = super::timing(Kind::Plain, "Tactic -3 Time: 1.5").unwrap();
        assert_eq!(timing.tactic, u64::MAX - 2);
        // Not timed: kept as printed, the reader decides.
        let timing = super::timing(Kind::Plain, "Tactic: 0x1 Time: inf").unwrap();
        assert!(timing.time.is_infinite());
        assert!(super::timing(Kind::Plain, "Tactic: 0x1 Time: 0.5 ms").is_none());
        assert!(super::timing(Kind::Plain, "Tactic: 0x1 Time: \u{0661}").is_none());
    }

    #[test]
    fn named_tactic_timings() {
        // TensorRT 10.16 trtexec --verbose.
        let body = "Tactic Name: sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16 Tactic: 0x4d7f2b7e0c4a1f73 Time: 0.0463817";
        let timing = super::timing(Kind::Named, body).unwrap();
        assert_eq!(timing.tactic, 0x4d7f2b7e0c4a1f73);
        assert!(timing.kernel.unwrap().starts_with("sm80_xmma_gemm"));
        assert_eq!(timing.parameters, None);
        // TensorRT 8.6: cuBLAS-style kernels print their split-K parameters.
        let body = "Tactic Name: sm75_xmma_gemm numSplitK: 1 numBuffers: 0 numKernels: 1 Tactic: 0x000000000000001e Time: 0.0112";
        let timing = super::timing(Kind::Named, body).unwrap();
        assert_eq!(
            timing.parameters,
            Some("numSplitK: 1 numBuffers: 0 numKernels: 1")
        );
    }

    #[test]
    fn ids_beyond_64_bits_are_declined() {
        assert_eq!(tactic_value("0x10000000000000000"), None);
        assert_eq!(tactic_value("99999999999999999999"), None);
        assert_eq!(tactic_value("-9223372036854775808"), Some(1 << 63));
        assert_eq!(tactic_value("-9223372036854775809"), None);
        assert_eq!(tactic_value("-0"), Some(0));
        assert!(super::timing(Kind::Plain, "Tactic: 99999999999999999999 Time: 1").is_none());
    }

    #[test]
    fn kinds_by_first_bytes() {
        assert_eq!(Kind::of("Tactic: 0x1 Time: 1"), Some(Kind::Plain));
        assert_eq!(
            Kind::of("Tactic Name: k Tactic: 0x1 Time: 1"),
            Some(Kind::Named)
        );
        // TensorRT 10.16: a Myelin tactic table row.
        assert_eq!(
            Kind::of(" (foreignNode)   20, 0.0101120, 1.05934"),
            Some(Kind::Myelin)
        );
        assert_eq!(Kind::of("Tactic: is the only option"), None);
        assert_eq!(Kind::of("Tactics: 3"), None);
        assert_eq!(
            Kind::of(" (myelin) Set user's cuda kernel library"),
            Some(Kind::Myelin)
        );
    }
}
