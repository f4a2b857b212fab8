//! The result table, as Markdown or as a self-contained HTML page (CI artifacts).

use crate::Outcome;

/// The table's columns, shared by the terminal, Markdown and HTML forms.
pub const HEADER: [&str; 8] = [
    "scenario",
    "fact",
    "program",
    "published facts",
    "golden",
    "result",
    "emulated cycles",
    "time",
];

/// One row of cells for an outcome.
pub fn row(o: &Outcome) -> [String; 8] {
    let facts = if o.error.is_some() {
        "ERROR".to_string()
    } else {
        let failed = o.facts.iter().filter(|c| !c.passed).count();
        if failed == 0 {
            format!("hold ({})", o.facts.len())
        } else {
            format!("FAIL {failed}/{}", o.facts.len())
        }
    };
    let golden = match &o.golden {
        None => "-".to_string(),
        Some(None) => "match".to_string(),
        Some(Some(_)) => "DIFFERS".to_string(),
    };
    [
        o.name.clone(),
        o.fact.clone(),
        o.program.clone(),
        facts,
        golden,
        if o.passed() { "pass" } else { "FAIL" }.to_string(),
        format!(
            "{} ({:.1} s C64)",
            o.cycles,
            o.cycles as f64 / c64kit_machine::PAL_HZ as f64
        ),
        format!("{:.2} s", o.elapsed.as_secs_f64()),
    ]
}

pub fn markdown(outcomes: &[Outcome]) -> String {
    let mut s = String::from("# c64kit conformance report\n\n");
    s += &format!("| {} |\n", HEADER.join(" | "));
    s += &format!("|{}\n", "---|".repeat(HEADER.len()));
    for o in outcomes {
        s += &format!("| {} |\n", row(o).join(" | "));
    }
    let failures: Vec<String> = outcomes.iter().flat_map(|o| o.failures()).collect();
    if !failures.is_empty() {
        s += "\n## Failures\n\n";
        for f in failures {
            s += &format!("```\n{f}\n```\n");
        }
    }
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

pub fn html(outcomes: &[Outcome]) -> String {
    let passed = outcomes.iter().filter(|o| o.passed()).count();
    let mut s = String::from(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>c64kit conformance</title>\
         <style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #999;padding:4px 8px}\
         .pass{background:#dfd}.FAIL{background:#fdd}pre{background:#f4f4f4;padding:8px}</style></head><body>",
    );
    s += &format!(
        "<h1>c64kit conformance</h1><p>{passed} of {} scenarios passed.</p><table><tr>",
        outcomes.len()
    );
    for h in HEADER {
        s += &format!("<th>{h}</th>");
    }
    s += "</tr>";
    for o in outcomes {
        let cells = row(o);
        s += &format!("<tr class=\"{}\">", cells[5]);
        for c in cells {
            s += &format!("<td>{}</td>", escape(&c));
        }
        s += "</tr>";
    }
    s += "</table>";
    for o in outcomes {
        s += &format!(
            "<h3>{} ({})</h3><p>{}</p>",
            escape(&o.name),
            escape(&o.fact),
            escape(&o.claim)
        );
        for f in o.failures() {
            s += &format!("<pre>{}</pre>", escape(&f));
        }
    }
    s + "</body></html>\n"
}
