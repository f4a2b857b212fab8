//! The symbol table of one pass, as CBM prg Studio's users write labels:
//!
//! - Names are not case-sensitive: `dtTextLo` and `dtTextlo` are one label. A symbol keeps
//!   the spelling of its definition for the label file and `Assembly::symbols`.
//! - A label may be defined in several files (units) of one program: each file's references
//!   go to its own definition. A reference from a file that defines none takes the first
//!   definition in build order, and is ambiguous (a warning) when several files define it.
//!   Defined twice in one file is an error.

use crate::source::Unit;
use std::collections::HashMap;
use std::rc::Rc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Label,
    Constant,
    /// From `Options::defines`: wins over assignments in the source, in every file.
    Define,
}

pub(crate) struct SymDef {
    /// The name as the definition spells it.
    pub name: String,
    pub value: i64,
    pub kind: Kind,
    pub unit: Unit,
    pub file: Rc<str>,
    pub line: usize,
}

/// The unit of `Options::defines`: no source file's.
pub(crate) const COMMAND_LINE: Unit = Unit::MAX;

/// The key a name is found by.
pub(crate) fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Every definition of every symbol, by folded name, in the order they were made (build
/// order).
#[derive(Default)]
pub(crate) struct Symbols {
    by_key: HashMap<String, Vec<SymDef>>,
}

/// What defining a symbol did.
pub(crate) enum Defined {
    /// A new definition (or the same constant again).
    Ok,
    /// A predefined symbol wins: the source's definition is ignored.
    Overridden,
    /// Already defined in this file: where.
    Duplicate(Rc<str>, usize),
}

impl Symbols {
    pub fn define(&mut self, def: SymDef) -> Defined {
        let defs = self.by_key.entry(fold(&def.name)).or_default();
        if defs.iter().any(|d| d.kind == Kind::Define) {
            return Defined::Overridden;
        }
        if let Some(old) = defs.iter().find(|d| d.unit == def.unit) {
            if old.kind == Kind::Constant && def.kind == Kind::Constant && old.value == def.value {
                return Defined::Ok;
            }
            return Defined::Duplicate(old.file.clone(), old.line);
        }
        defs.push(def);
        Defined::Ok
    }

    pub fn contains(&self, key: &str) -> bool {
        self.by_key.contains_key(key)
    }

    pub fn get(&self, key: &str) -> &[SymDef] {
        self.by_key.get(key).map_or(&[], Vec::as_slice)
    }

    /// Settled: every symbol has the same values, file for file, as in `other`.
    pub fn same_values(&self, other: &Symbols) -> bool {
        self.by_key.len() == other.by_key.len()
            && self.by_key.iter().all(|(k, defs)| {
                let theirs = other.get(k);
                defs.len() == theirs.len()
                    && defs
                        .iter()
                        .zip(theirs)
                        .all(|(a, b)| a.unit == b.unit && a.value == b.value)
            })
    }

    /// The first definition of each symbol (build order), by its spelling.
    pub fn first_definitions(&self) -> impl Iterator<Item = &SymDef> {
        self.by_key.values().filter_map(|defs| defs.first())
    }
}

/// A reference's value, looked up in this pass's table and then the previous pass's.
pub(crate) struct Found<'a> {
    pub value: i64,
    /// The definitions in other files a reference chose between, when there were several.
    pub ambiguous: Option<Vec<&'a SymDef>>,
}

/// Looks up `key` for a reference from `unit`: its own file's definition (this pass's,
/// else the previous pass's, for one further down), else the first in build order.
pub(crate) fn lookup<'a>(
    cur: &'a Symbols,
    prev: &'a Symbols,
    key: &str,
    unit: Unit,
) -> Option<Found<'a>> {
    let (now, before) = (cur.get(key), prev.get(key));
    let own = |defs: &'a [SymDef]| defs.iter().find(|d| d.unit == unit);
    if let Some(d) = own(now).or_else(|| own(before)) {
        return Some(Found {
            value: d.value,
            ambiguous: None,
        });
    }
    let first = now.first().or(before.first())?;
    if before.iter().chain(now).all(|d| d.unit == first.unit) {
        // One file defines it (the usual case): no question which.
        return Some(Found {
            value: first.value,
            ambiguous: None,
        });
    }
    // All the files that define it, this pass or the last (the last pass saw them all).
    let mut files: Vec<&SymDef> = Vec::new();
    for d in before.iter().chain(now) {
        if !files.iter().any(|f| f.unit == d.unit) {
            files.push(d);
        }
    }
    Some(Found {
        value: first.value,
        ambiguous: Some(files),
    })
}

/// `name` with every occurrence of `var` replaced by `value`, ignoring case (names are
/// not case-sensitive, so neither is a repeat variable inside one); None if it has none.
pub(crate) fn replace_ignoring_case(name: &str, var: &str, value: &str) -> Option<String> {
    if var.is_empty() || var.len() > name.len() {
        return None;
    }
    let (lower, var) = (name.to_ascii_lowercase(), var.to_ascii_lowercase());
    if !lower.contains(&var) {
        return None;
    }
    let mut out = String::with_capacity(name.len());
    let mut last = 0;
    for (at, _) in lower.match_indices(&var) {
        out.push_str(&name[last..at]);
        out.push_str(value);
        last = at + var.len();
    }
    out.push_str(&name[last..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeat_variables_ignore_case() {
        assert_eq!(
            replace_ignoring_case("Table_IDX_lo", "idx", "3").as_deref(),
            Some("Table_3_lo")
        );
        assert_eq!(replace_ignoring_case("other", "idx", "3"), None);
        assert_eq!(
            replace_ignoring_case("idxidx", "IDX", "1").as_deref(),
            Some("11")
        );
    }
}
