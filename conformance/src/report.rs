//! What a run of scenarios shows: the terminal's rows, and the files CI keeps (Markdown or
//! HTML with every check and its evidence, JUnit XML, JSON). Files never carry colour. One
//! writer for both suites: the RYG suite's (`conform`: published facts, transcripts
//! informative) and a user's (`test`: every check decides), told apart by their outcomes.

use crate::check::{c64_seconds, clip_diff, not_checked_reasons, thousands, Check, Kind, Verdict};
use crate::{Outcome, PublishedFact, Suite};
use std::fmt::Write as _;

/// Diff lines shown per scenario unless `--full-diff`.
pub const DIFF_LINES: usize = 40;

/// The table's columns, shared by the terminal, Markdown and HTML forms.
pub const HEADER: [&str; 8] = [
    "scenario",
    "fact",
    "program",
    "published facts",
    "published transcript",
    "golden transcript",
    "C64 time",
    "run time",
];

/// The columns of a user's scenarios (`c64kit test`).
pub const TEST_HEADER: [&str; 6] = [
    "scenario", "file", "program", "checks", "C64 time", "run time",
];

/// The suite of a run's outcomes (all are of one).
pub fn suite(outcomes: &[Outcome]) -> Suite {
    outcomes.first().map_or(Suite::Ryg, |o| o.suite)
}

/// The columns for a suite.
pub fn header(suite: Suite) -> &'static [&'static str] {
    match suite {
        Suite::Ryg => &HEADER,
        Suite::User => &TEST_HEADER,
    }
}

/// An outcome's row under [`header`].
pub fn cells(o: &Outcome) -> Vec<String> {
    match o.suite {
        Suite::Ryg => row(o).to_vec(),
        Suite::User => vec![
            o.name.clone(),
            o.location.clone(),
            o.program.clone(),
            facts_cell(o),
            format!(
                "{} ({} cycles)",
                c64_seconds(o.cycles, o.clock_hz),
                thousands(o.cycles)
            ),
            format!("{:.2} s", o.elapsed.as_secs_f64()),
        ],
    }
}

/// "hold 4/4", "FAIL 1 of 4", "hold 3/4, 1 not checked", "not checked: 15 of 15", "ERROR"
/// ("pass 4/4" for a user's scenario).
pub fn facts_cell(o: &Outcome) -> String {
    if o.error.is_some() {
        return "ERROR".into();
    }
    let total = o.facts().count();
    let failed = o.facts().filter(|c| c.failed()).count();
    let unchecked = o.not_checked();
    if unchecked == total && total > 0 {
        return format!("not checked: {unchecked} of {total}");
    }
    let hold = match o.suite {
        Suite::Ryg => "hold",
        Suite::User => "pass",
    };
    let mut s = if failed > 0 {
        format!("FAIL {failed} of {total}")
    } else {
        format!("{hold} {}/{total}", total - unchecked)
    };
    if unchecked > 0 {
        s += &format!(", {unchecked} not checked");
    }
    s
}

/// "identical", "differs in 1 line", "not built in", or "-" when the scenario has none.
pub fn transcript_cell(c: Option<&Check>) -> String {
    match c {
        None => "-".into(),
        Some(c) if c.verdict == Verdict::NotChecked => "not checked".into(),
        Some(c) => c.measured.clone(),
    }
}

/// One row of cells for an outcome.
pub fn row(o: &Outcome) -> [String; 8] {
    [
        o.name.clone(),
        o.fact.clone(),
        o.program.clone(),
        facts_cell(o),
        transcript_cell(o.published_transcript()),
        transcript_cell(o.golden_transcript()),
        format!(
            "{} ({} cycles)",
            c64_seconds(o.cycles, o.clock_hz),
            thousands(o.cycles)
        ),
        format!("{:.2} s", o.elapsed.as_secs_f64()),
    ]
}

/// How a scenario's facts came out, as its row shows it: a row with facts that could not be
/// checked never looks like a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    Fails,
    Unchecked,
    Holds,
}

impl Standing {
    pub fn of(o: &Outcome) -> Standing {
        if !o.facts_hold() {
            Standing::Fails
        } else if o.not_checked() > 0 {
            Standing::Unchecked
        } else {
            Standing::Holds
        }
    }

    /// The HTML class of its row (the page's style colours it).
    pub fn class(self) -> &'static str {
        match self {
            Standing::Fails => "fails",
            Standing::Unchecked => "unchecked",
            Standing::Holds => "holds",
        }
    }
}

/// The diffs of a scenario's transcripts that differ, at most `max_lines` in all (0: all).
/// (Only a transcript's failed check carries a detail: its diff.)
pub fn diffs(o: &Outcome, max_lines: usize) -> Option<String> {
    let mut all = String::new();
    for c in o.checks.iter().filter(|c| c.failed()) {
        if let Some(d) = &c.detail {
            let _ = match c.kind {
                Kind::Fact => writeln!(all, "{}: {} (- expected, + this run)", c.what, c.measured),
                _ => writeln!(
                    all,
                    "{} {}: {} (- expected, + this run)",
                    c.kind.label(),
                    c.what,
                    c.measured
                ),
            };
            all += d;
            if !all.ends_with('\n') {
                all.push('\n');
            }
        }
    }
    (!all.is_empty()).then(|| clip_diff(&all, max_lines))
}

/// Every published fact with the scenarios that check it and what they measured.
pub struct FactCoverage {
    pub id: String,
    pub text: String,
    /// (scenario, every fact check's evidence) of each scenario naming this fact.
    pub scenarios: Vec<(String, Vec<String>)>,
    /// Why no scenario of this run checks it.
    pub absent: String,
}

pub fn coverage(published: &[PublishedFact], outcomes: &[Outcome]) -> Vec<FactCoverage> {
    published
        .iter()
        .map(|f| FactCoverage {
            id: f.id.clone(),
            text: f.text.clone(),
            absent: if f.programs.is_empty() {
                "NO SCENARIO in the suite checks it".into()
            } else {
                format!(
                    "not in this run (its scenarios run on {})",
                    f.programs.join(", ")
                )
            },
            scenarios: outcomes
                .iter()
                .filter(|o| o.fact.eq_ignore_ascii_case(&f.id))
                .map(|o| {
                    let mut lines: Vec<String> = o.facts().map(|c| o.evidence(c)).collect();
                    if let Some(e) = &o.error {
                        lines.push(format!("ERROR: {e}"));
                    }
                    if let Some(n) = &o.note {
                        lines.push(format!("NOTE: {n}"));
                    }
                    (o.name.clone(), lines)
                })
                .collect(),
        })
        .collect()
}

/// The summary line: "24 of 24 scenarios: every published fact holds" ("3 scenarios: all
/// pass" for a user's).
pub fn summary(outcomes: &[Outcome]) -> String {
    let bad = outcomes.iter().filter(|o| !o.facts_hold()).count();
    let unchecked: usize = outcomes.iter().map(|o| o.not_checked()).sum();
    let user = suite(outcomes) == Suite::User;
    let mut s = if user && bad == 0 {
        format!("{}: all pass", plural(outcomes.len(), "scenario"))
    } else if user {
        format!("{}: {bad} FAILED", plural(outcomes.len(), "scenario"))
    } else if bad == 0 {
        format!(
            "{}: every published fact checked holds",
            plural(outcomes.len(), "scenario")
        )
    } else {
        format!(
            "{}: published facts DO NOT HOLD in {bad}",
            plural(outcomes.len(), "scenario")
        )
    };
    if unchecked > 0 {
        // Each reason once (36 checks without labels share one), with its count when several.
        let reasons = not_checked_reasons(outcomes.iter().flat_map(|o| o.checks.iter()));
        let why: Vec<String> = match &reasons[..] {
            [(_, why)] => vec![why.clone()],
            _ => reasons
                .iter()
                .map(|(n, why)| format!("{why} ({n})"))
                .collect(),
        };
        s += &format!(
            " ({unchecked} checks could not be made: {})",
            why.join("; ")
        );
    }
    s
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The whole report as Markdown: the table, the published facts F1..F19 with their
/// evidence, then every scenario's checks and diffs.
pub fn markdown(
    outcomes: &[Outcome],
    published: &[PublishedFact],
    title: &str,
    max_diff: usize,
) -> String {
    let header = header(suite(outcomes));
    let mut s = format!("# {title}\n\n{}.\n\n", summary(outcomes));
    s += &format!(
        "| {} |\n|{}\n",
        header.join(" | "),
        "---|".repeat(header.len())
    );
    for o in outcomes {
        let cells: Vec<String> = cells(o).iter().map(|c| md_escape(c)).collect();
        s += &format!("| {} |\n", cells.join(" | "));
    }
    if !published.is_empty() {
        s += "\n## The published facts\n\n";
        for f in coverage(published, outcomes) {
            s += &format!("- **{}** {}\n", f.id, md_escape(&f.text));
            if f.scenarios.is_empty() {
                s += &format!("  - {}\n", f.absent);
            }
            for (name, lines) in f.scenarios {
                s += &format!("  - `{name}`\n");
                for l in lines {
                    s += &format!("    - {}\n", md_escape(&l));
                }
            }
        }
    }
    s += "\n## Scenarios\n";
    for o in outcomes {
        s += &match o.suite {
            Suite::Ryg => format!(
                "\n### {} ({}, {})\n\n{}\n\n",
                o.name, o.fact, o.program, o.claim
            ),
            Suite::User => format!("\n### {} ({}, {})\n\n", o.name, o.location, o.program),
        };
        if let Some(n) = &o.note {
            s += &format!("Note: {}\n\n", md_escape(n));
        }
        if let Some(e) = &o.error {
            s += &format!("- ERROR: {}\n", md_escape(e));
        }
        for c in &o.checks {
            s += &match o.suite {
                Suite::Ryg => format!(
                    "- {}: {}\n",
                    c.kind.label(),
                    md_escape(&c.evidence(&o.fact))
                ),
                Suite::User => format!("- {}\n", md_escape(&o.evidence(c))),
            };
        }
        if let Some(d) = diffs(o, max_diff) {
            s += &format!("\n```diff\n{d}\n```\n");
        }
    }
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The same report as one self-contained HTML page.
pub fn html(
    outcomes: &[Outcome],
    published: &[PublishedFact],
    title: &str,
    max_diff: usize,
) -> String {
    let mut s = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{}</title>\
         <style>body{{font-family:sans-serif;max-width:80em}}table{{border-collapse:collapse}}\
         td,th{{border:1px solid #999;padding:4px 8px}}.holds{{background:#dfd}}\
         .fails{{background:#fdd}}.unchecked{{background:#ffd}}\
         pre{{background:#f4f4f4;padding:8px;overflow:auto}}</style></head><body>",
        escape(title)
    );
    s += &format!(
        "<h1>{}</h1><p>{}.</p><table><tr>",
        escape(title),
        escape(&summary(outcomes))
    );
    for h in header(suite(outcomes)) {
        s += &format!("<th>{h}</th>");
    }
    s += "</tr>";
    for o in outcomes {
        s += &format!("<tr class=\"{}\">", Standing::of(o).class());
        for c in cells(o) {
            s += &format!("<td>{}</td>", escape(&c));
        }
        s += "</tr>";
    }
    s += "</table>";
    if !published.is_empty() {
        s += "<h2>The published facts</h2><ul>";
        for f in coverage(published, outcomes) {
            s += &format!("<li><b>{}</b> {}<ul>", escape(&f.id), escape(&f.text));
            if f.scenarios.is_empty() {
                s += &format!("<li>{}</li>", escape(&f.absent));
            }
            for (name, lines) in f.scenarios {
                s += &format!("<li><code>{}</code><ul>", escape(&name));
                for l in lines {
                    s += &format!("<li>{}</li>", escape(&l));
                }
                s += "</ul></li>";
            }
            s += "</ul></li>";
        }
        s += "</ul>";
    }
    s += "<h2>Scenarios</h2>";
    for o in outcomes {
        s += &match o.suite {
            Suite::Ryg => format!(
                "<h3 id=\"{0}\">{0} ({1}, {2})</h3><p>{3}</p><table>\
                 <tr><th>check</th><th>what</th><th>published</th><th>measured</th><th>verdict</th></tr>",
                escape(&o.name),
                escape(&o.fact),
                escape(&o.program),
                escape(&o.claim)
            ),
            Suite::User => format!(
                "<h3 id=\"{0}\">{0} ({1}, {2})</h3><table>\
                 <tr><th>check</th><th>what</th><th>expected</th><th>measured</th><th>verdict</th></tr>",
                escape(&o.name),
                escape(&o.location),
                escape(&o.program),
            ),
        };
        if let Some(n) = &o.note {
            s += &format!("<tr><td colspan=\"5\">Note: {}</td></tr>", escape(n));
        }
        if let Some(e) = &o.error {
            s += &format!(
                "<tr class=\"fails\"><td colspan=\"5\">ERROR: {}</td></tr>",
                escape(e)
            );
        }
        for c in &o.checks {
            let class = match c.verdict {
                Verdict::Holds => "holds",
                Verdict::DoesNotHold if c.kind == Kind::Fact => "fails",
                _ => "unchecked",
            };
            let expected = match o.suite {
                Suite::Ryg => c.expected(),
                Suite::User => c.published.clone(),
            };
            let label = match o.suite {
                Suite::Ryg => c.kind.label(),
                Suite::User => "check",
            };
            s += &format!(
                "<tr class=\"{class}\"><td>{label}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&c.what),
                escape(&expected),
                escape(&c.measured),
                c.verdict.word()
            );
        }
        s += "</table>";
        if let Some(d) = diffs(o, max_diff) {
            s += &format!("<pre>{}</pre>", escape(&d));
        }
    }
    s + "</body></html>\n"
}

/// JUnit XML: a testsuite of the run, a testcase per check with its scenario as the class.
/// A fact that does not hold is a failure; a fact that could not be checked is skipped;
/// transcripts are informative, so a differing one passes with its diff in system-out.
pub fn junit(outcomes: &[Outcome], title: &str) -> String {
    use quick_xml::events::BytesText;
    use quick_xml::Writer;
    let tests: usize = outcomes.iter().map(|o| o.checks.len().max(1)).sum();
    let failures: usize = outcomes
        .iter()
        .map(|o| o.facts().filter(|c| c.failed()).count())
        .sum();
    let errors = outcomes.iter().filter(|o| o.error.is_some()).count();
    let skipped: usize = outcomes.iter().map(|o| o.not_checked()).sum();
    let time: f64 = outcomes.iter().map(|o| o.elapsed.as_secs_f64()).sum();
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let suite = [
        ("name", title.to_string()),
        ("tests", tests.to_string()),
        ("failures", failures.to_string()),
        ("errors", errors.to_string()),
        ("skipped", skipped.to_string()),
        ("time", format!("{time:.3}")),
    ];
    let suite_attrs = || suite.iter().map(|(k, v)| (*k, v.as_str()));
    let result = w
        .create_element("testsuites")
        .with_attributes(suite_attrs())
        .write_inner_content(|w| {
            w.create_element("testsuite")
                .with_attributes(suite_attrs())
                .write_inner_content(|w| {
                    for o in outcomes {
                        let class = o.name.as_str();
                        if let Some(e) = &o.error {
                            w.create_element("testcase")
                                .with_attributes([
                                    ("classname", class),
                                    ("name", "the program runs"),
                                ])
                                .write_inner_content(|w| {
                                    w.create_element("error")
                                        .with_attribute(("message", e.as_str()))
                                        .write_empty()?;
                                    Ok(())
                                })?;
                            continue;
                        }
                        for c in &o.checks {
                            let name = match o.suite {
                                Suite::Ryg => format!("{} {}: {}", o.fact, c.kind.label(), c.what),
                                Suite::User => c.what.clone(),
                            };
                            let evidence = o.evidence_with_reason(c);
                            w.create_element("testcase")
                                .with_attributes([("classname", class), ("name", name.as_str())])
                                .write_inner_content(|w| {
                                    match (c.kind, c.verdict) {
                                        (Kind::Fact, Verdict::DoesNotHold) => {
                                            w.create_element("failure")
                                                .with_attribute(("message", evidence.as_str()))
                                                .write_empty()?;
                                        }
                                        (_, Verdict::NotChecked) => {
                                            w.create_element("skipped")
                                                .with_attribute(("message", evidence.as_str()))
                                                .write_empty()?;
                                        }
                                        _ => {
                                            let mut out = evidence.clone();
                                            if let Some(d) =
                                                c.detail.as_ref().filter(|_| c.failed())
                                            {
                                                out = format!("{out}\n{d}");
                                            }
                                            w.create_element("system-out")
                                                .write_text_content(BytesText::new(&out))?;
                                        }
                                    }
                                    Ok(())
                                })?;
                        }
                    }
                    Ok(())
                })?;
            Ok(())
        });
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    match result {
        Ok(_) => out.push_str(&String::from_utf8_lossy(&w.into_inner())),
        // Writing into a Vec cannot fail; say so in the file rather than panic if it did.
        Err(e) => out.push_str(&format!("<!-- could not write the report: {e} -->")),
    }
    out.push('\n');
    out
}

/// The run as data: every scenario with its checks, and the published facts' coverage.
pub fn json(outcomes: &[Outcome], published: &[PublishedFact], title: &str) -> String {
    if suite(outcomes) == Suite::User {
        return test_json(outcomes, title);
    }
    let scenarios: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            serde_json::json!({
                "name": o.name,
                "fact": o.fact,
                "claim": o.claim,
                "note": o.note,
                "program": o.program,
                "error": o.error,
                "stop": o.stop.as_ref().map(|s| s.to_string()),
                "facts_hold": o.facts_hold(),
                "published_transcript": transcript_cell(o.published_transcript()),
                "golden_transcript": transcript_cell(o.golden_transcript()),
                "cycles": o.cycles,
                "c64_seconds": o.cycles as f64 / o.clock_hz.max(1) as f64,
                "run_seconds": o.elapsed.as_secs_f64(),
                "checks": o.checks,
            })
        })
        .collect();
    let facts: Vec<serde_json::Value> = coverage(published, outcomes)
        .into_iter()
        .map(|f| {
            serde_json::json!({
                "id": f.id,
                "text": f.text,
                "scenarios": f.scenarios.iter().map(|(n, _)| n).collect::<Vec<_>>(),
                "evidence": f.scenarios.iter().flat_map(|(_, l)| l.clone()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "title": title,
        "passed": outcomes.iter().all(|o| o.facts_hold()),
        "summary": summary(outcomes),
        "scenarios": scenarios,
        "published_facts": facts,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// A user's run as data: every scenario with its checks and their verdicts.
fn test_json(outcomes: &[Outcome], title: &str) -> String {
    let scenarios: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            serde_json::json!({
                "name": o.name,
                "file": o.location,
                "program": o.program,
                "error": o.error,
                "stop": o.stop.as_ref().map(|s| s.to_string()),
                "passed": o.facts_hold(),
                "cycles": o.cycles,
                "c64_seconds": o.cycles as f64 / o.clock_hz.max(1) as f64,
                "run_seconds": o.elapsed.as_secs_f64(),
                // Every expected value is the user's: no published/ours to tell apart.
                "checks": o.checks.iter().map(|c| serde_json::json!({
                    "what": c.what,
                    "expected": c.published,
                    "measured": c.measured,
                    "verdict": c.verdict,
                    "detail": c.detail,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "title": title,
        "passed": outcomes.iter().all(|o| o.facts_hold()),
        "summary": summary(outcomes),
        "scenarios": scenarios,
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}
