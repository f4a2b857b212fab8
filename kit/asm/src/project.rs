//! CBM prg Studio project files (`.cbmprj`, XML).
//!
//! What is read (everything else is ignored):
//! - `<Project><BuildList><FileName>`: the source files, in build order. When the list is
//!   empty, the `<SourceFiles><SourceFile>` entries with `<FileType>2</FileType>` (assembly)
//!   and `<IncludeInBuild>True</IncludeInBuild>` are used in file order instead.
//! - `<Executable>`: the output file name (`<OutputFile>` is accepted too).
//! - `<StartAddress>`: decimal; the program counter before the first `*=`.
//! - `<PaddingByte>`: decimal; fills gaps between origins.

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Project {
    pub executable: Option<String>,
    pub start_address: Option<u16>,
    pub padding: Option<u8>,
    pub build_list: Vec<String>,
}

fn child_text<'a>(node: roxmltree::Node<'a, 'a>, name: &str) -> Option<&'a str> {
    node.children()
        .find(|c| c.has_tag_name(name))
        .and_then(|c| c.text())
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

fn number<T: TryFrom<u64>>(root: roxmltree::Node, name: &str) -> Result<Option<T>, String> {
    let Some(text) = child_text(root, name) else {
        return Ok(None);
    };
    let parsed = if let Some(hex) = text.strip_prefix('$') {
        u64::from_str_radix(hex, 16).ok()
    } else {
        text.parse::<u64>().ok()
    };
    parsed
        .and_then(|v| T::try_from(v).ok())
        .map(Some)
        .ok_or_else(|| {
            format!(
                "<{name}> value '{}' is not a valid number",
                c64kit_files::quote(text)
            )
        })
}

pub fn parse_project(xml: &str) -> Result<Project, String> {
    let doc = roxmltree::Document::parse(xml).map_err(|e| format!("not a valid XML file: {e}"))?;
    let root = doc.root_element();
    if !root.has_tag_name("Project") {
        return Err(format!(
            "root element is <{}>, expected <Project>",
            c64kit_files::quote(root.tag_name().name())
        ));
    }
    let mut build_list: Vec<String> = root
        .children()
        .filter(|c| c.has_tag_name("BuildList"))
        .flat_map(|b| b.children().filter(|c| c.has_tag_name("FileName")))
        .filter_map(|f| f.text().map(|t| t.trim().to_string()))
        .filter(|t| !t.is_empty())
        .collect();
    if build_list.is_empty() {
        build_list = root
            .children()
            .filter(|c| c.has_tag_name("SourceFiles"))
            .flat_map(|s| s.children().filter(|c| c.has_tag_name("SourceFile")))
            .filter(|f| child_text(*f, "FileType") == Some("2"))
            .filter(|f| {
                child_text(*f, "IncludeInBuild").is_none_or(|v| v.eq_ignore_ascii_case("true"))
            })
            .filter_map(|f| child_text(f, "Name").map(str::to_string))
            .collect();
    }
    Ok(Project {
        executable: child_text(root, "Executable")
            .or_else(|| child_text(root, "OutputFile"))
            .map(str::to_string),
        start_address: number(root, "StartAddress")?,
        padding: number(root, "PaddingByte")?,
        build_list,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields() {
        let p = parse_project(
            r#"<?xml version="1.0" encoding="utf-8"?>
<Project><Executable>x.prg</Executable><StartAddress>2049</StartAddress>
<BuildList><FileName>a.asm</FileName><FileName>b.asm</FileName></BuildList>
<PaddingByte>255</PaddingByte></Project>"#,
        )
        .unwrap();
        assert_eq!(p.executable.as_deref(), Some("x.prg"));
        assert_eq!(p.start_address, Some(2049));
        assert_eq!(p.padding, Some(255));
        assert_eq!(p.build_list, vec!["a.asm", "b.asm"]);
    }

    #[test]
    fn falls_back_to_source_files() {
        let p = parse_project(
            "<Project><BuildList/><SourceFiles>\
             <SourceFile><Name>m.asm</Name><FileType>2</FileType><IncludeInBuild>True</IncludeInBuild></SourceFile>\
             <SourceFile><Name>c.cst</Name><FileType>6</FileType></SourceFile>\
             <SourceFile><Name>n.asm</Name><FileType>2</FileType><IncludeInBuild>False</IncludeInBuild></SourceFile>\
             </SourceFiles></Project>",
        )
        .unwrap();
        assert_eq!(p.build_list, vec!["m.asm"]);
    }

    #[test]
    fn output_file_alias() {
        let p = parse_project("<Project><OutputFile>o.prg</OutputFile></Project>").unwrap();
        assert_eq!(p.executable.as_deref(), Some("o.prg"));
        assert_eq!(p.start_address, None);
        assert!(p.build_list.is_empty());
    }

    #[test]
    fn bad_input() {
        assert!(parse_project("<Project>").unwrap_err().contains("XML"));
        assert!(parse_project("<Foo/>").unwrap_err().contains("<Project>"));
        assert!(
            parse_project("<Project><PaddingByte>300</PaddingByte></Project>")
                .unwrap_err()
                .contains("PaddingByte")
        );
    }
}
