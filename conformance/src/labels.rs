//! A program's labels, for routine-level checks: from our assembler (built-in programs, or a
//! judged .cbmprj/.asm) or from a VICE label file (`al C:0820 .main`, what `c64kit asm
//! --labels`, 64tass `--vice-labels` and CBM prg Studio's label export write).

use std::collections::BTreeMap;

#[derive(Debug, Clone, Default)]
pub struct Labels {
    by_name: BTreeMap<String, u16>,
}

impl Labels {
    /// Reads a VICE monitor label file; `name` names it in errors ("x.lbl:3: ...").
    /// Lines other than `al` commands (comments, blank lines) are skipped.
    pub fn parse_vice(text: &str, name: &str) -> Result<Labels, String> {
        let mut labels = Labels::default();
        for (n, line) in text.lines().enumerate() {
            let mut words = line.split_whitespace();
            if words.next() != Some("al") {
                continue;
            }
            let bad = || {
                format!(
                    "{name}:{}: expected `al C:ADDRESS .NAME`, found {:?}",
                    n + 1,
                    c64kit_files::quote(line)
                )
            };
            let (Some(addr), Some(label)) = (words.next(), words.next()) else {
                return Err(bad());
            };
            let addr = addr
                .strip_prefix("C:")
                .or(addr.strip_prefix("c:"))
                .unwrap_or(addr);
            let addr = u16::from_str_radix(addr, 16).map_err(|_| bad())?;
            let label = label.strip_prefix('.').unwrap_or(label);
            if label.is_empty() {
                return Err(bad());
            }
            labels.by_name.insert(label.to_string(), addr);
        }
        Ok(labels)
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Every label and its address, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u16)> {
        self.by_name.iter().map(|(n, a)| (n.as_str(), *a))
    }

    /// A label's address: exact spelling first, then ignoring case (CBM prg Studio's
    /// labels are not case-sensitive).
    pub fn get(&self, name: &str) -> Option<u16> {
        self.by_name.get(name).copied().or_else(|| {
            self.by_name
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| *v)
        })
    }

    /// "$0823", "0x0823", "2083", "eval" or "eval+3" / "eval-1" as an address.
    pub fn resolve(&self, expr: &str) -> Result<u16, String> {
        let expr = expr.trim();
        let (base, offset) = match expr.rfind(['+', '-']) {
            Some(i) if i > 0 => {
                let n: i64 = expr[i + 1..].trim().parse().map_err(|_| {
                    format!(
                        "{expr:?}: the offset after {:?} is not a number",
                        &expr[i..=i]
                    )
                })?;
                (expr[..i].trim(), if &expr[i..=i] == "-" { -n } else { n })
            }
            _ => (expr, 0),
        };
        let address = if let Some(hex) = base.strip_prefix('$').or(base.strip_prefix("0x")) {
            i64::from_str_radix(hex, 16).map_err(|_| format!("{base:?} is not an address"))?
        } else if base.bytes().all(|b| b.is_ascii_digit()) {
            base.parse::<i64>()
                .map_err(|_| format!("{base:?} is not an address"))?
        } else {
            match self.get(base) {
                Some(a) => a as i64,
                // One reason for every label, so that reports say it once.
                None if self.is_empty() => {
                    return Err(
                        "no labels for this program, so its routines are unknown (give \
                         a VICE label file with -l, or judge the .cbmprj/.asm so c64kit \
                         assembles it)"
                            .into(),
                    )
                }
                None => return Err(format!("the program has no label {base:?}")),
            }
        };
        address
            .checked_add(offset)
            .and_then(|at| u16::try_from(at).ok())
            .ok_or_else(|| format!("{expr:?} is outside $0000-$FFFF"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vice_label_files_and_expressions() {
        let l =
            Labels::parse_vice("# comment\nal C:0820 .main\nal C:4600 .BOARD\n", "x.lbl").unwrap();
        assert_eq!(l.resolve("main"), Ok(0x0820));
        assert_eq!(l.resolve("board+12"), Ok(0x460C));
        assert_eq!(l.resolve("BOARD-1"), Ok(0x45FF));
        assert_eq!(l.resolve("$0823"), Ok(0x0823));
        assert_eq!(l.resolve("2080"), Ok(0x0820));
        assert!(l
            .resolve("nosuch")
            .unwrap_err()
            .contains("no label \"nosuch\""));
        assert!(l.resolve("$FFFF+1").unwrap_err().contains("outside"));
        let e = Labels::parse_vice("al C:zz .x\n", "x.lbl").unwrap_err();
        assert!(e.starts_with("x.lbl:1: expected"), "{e}");
        assert!(Labels::default()
            .resolve("eval")
            .unwrap_err()
            .contains("-l"));
    }
}
