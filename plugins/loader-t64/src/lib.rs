//! The T64 loader: tape images in the format of C64S (a 64-byte header, then 32-byte
//! directory entries pointing at the files' bytes inside the image).
//!
//! Header: signature starting "C64" (offset 0, 32 bytes), version ($0100/$0101, offset 32),
//! directory size (34) and used entries (36), tape name (40, 24 bytes). Entry: type (0 free,
//! 1 normal file, 3 snapshot), 1541 file type, start and end address, offset of the data in
//! the image, name (16 bytes). Many images in the wild have a wrong end address (often
//! $C3C6) or a wrong used-entries count; the size is then taken from the image, as VICE does,
//! and a note says so.
//!
//! Options: `file` (the name to load; `*` and `?` wildcards; default the first program).

use c64kit_plugin_api::names::{name_matches, show_name};
use c64kit_plugin_api::{Confidence, Options, Program, ProgramLoader, Segment, Start};

/// One file on the tape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: Vec<u8>,
    pub entry_type: u8,
    pub file_type: u8,
    pub start: u16,
    pub data: Vec<u8>,
    /// The size was repaired (the header's end address did not fit the image).
    pub repaired: bool,
}

/// A parsed tape image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tape {
    pub name: Vec<u8>,
    pub entries: Vec<Entry>,
}

/// Reads a T64 image; errors say what is wrong.
pub fn parse(bytes: &[u8]) -> Result<Tape, String> {
    if bytes.len() < 64 || !bytes.starts_with(b"C64") {
        return Err(
            "not a T64 tape image: it does not start with the \"C64\" signature of a T64 header"
                .into(),
        );
    }
    let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
    let max_entries = u16_at(34) as usize;
    let used = u16_at(36) as usize;
    let name = trim_name(&bytes[40..64]);
    // Some images say 0 entries: read as many slots as the image has room for.
    let slots = max_entries.max(used).max(1);
    let mut raw = Vec::new();
    for i in 0..slots {
        let at = 64 + i * 32;
        if at + 32 > bytes.len() {
            if i < used {
                return Err(format!(
                    "truncated: directory entry {} of {used} lies past the end of the image \
                     ({} bytes)",
                    i + 1,
                    bytes.len()
                ));
            }
            break;
        }
        let e = &bytes[at..at + 32];
        if e[0] == 0 {
            continue;
        }
        let offset = u32::from_le_bytes([e[8], e[9], e[10], e[11]]) as usize;
        raw.push((
            e[0],
            e[1],
            u16_at(at + 2),
            u16_at(at + 4),
            offset,
            trim_name(&e[16..32]),
        ));
    }
    let mut entries = Vec::new();
    for (i, &(entry_type, file_type, start, end, offset, ref name)) in raw.iter().enumerate() {
        let shown = String::from_utf8_lossy(name).into_owned();
        if offset >= bytes.len() {
            return Err(format!(
                "entry {} {shown:?}: its data offset {offset} lies past the end of the image \
                 ({} bytes)",
                i + 1,
                bytes.len()
            ));
        }
        let stated = (end as usize).wrapping_sub(start as usize);
        // The file cannot run past the image or into the next file's data.
        let limit = raw
            .iter()
            .map(|r| r.4)
            .filter(|&o| o > offset)
            .min()
            .unwrap_or(bytes.len())
            .min(bytes.len());
        let room = limit - offset;
        let (len, repaired) = if end > start && stated <= room {
            (stated, false)
        } else {
            (room.min(0x10000 - start as usize), true)
        };
        entries.push(Entry {
            name: name.clone(),
            entry_type,
            file_type,
            start,
            data: bytes[offset..offset + len].to_vec(),
            repaired,
        });
    }
    Ok(Tape { name, entries })
}

/// Drops the padding ($20 or $A0) at the end of a name.
fn trim_name(raw: &[u8]) -> Vec<u8> {
    let mut v = raw.to_vec();
    while matches!(v.last(), Some(0x20 | 0xA0 | 0x00)) {
        v.pop();
    }
    v
}

pub struct T64Loader;

impl ProgramLoader for T64Loader {
    const EXTENSIONS: &'static str = "t64";

    fn probe(_path: &str, bytes: &[u8]) -> Confidence {
        if bytes.len() >= 64 && (bytes.starts_with(b"C64S tape") || bytes.starts_with(b"C64 tape"))
        {
            Confidence::Yes
        } else {
            Confidence::No
        }
    }

    fn load(path: &str, bytes: &[u8], options: &Options) -> Result<Program, String> {
        options.check_known(&["file"])?;
        let tape = parse(bytes)?;
        let entry = match options.get("file") {
            Some(want) => tape
                .entries
                .iter()
                .find(|e| name_matches(want.as_bytes(), &e.name))
                .ok_or_else(|| {
                    format!(
                        "no file {want:?} on the tape (it holds: {})",
                        list_names(&tape)
                    )
                })?,
            None => tape
                .entries
                .iter()
                .find(|e| e.entry_type == 1)
                .ok_or_else(|| "the tape holds no program file".to_string())?,
        };
        if entry.entry_type != 1 {
            return Err(format!(
                "{:?} is a snapshot (entry type {}), not a program file",
                show_name(&entry.name),
                entry.entry_type
            ));
        }
        let end = entry.start as usize + entry.data.len();
        let mut description = format!(
            "{path}: tape {:?}, file {:?} ${:04X}-${end:04X}",
            show_name(&tape.name),
            show_name(&entry.name),
            entry.start
        );
        if entry.repaired {
            description
                .push_str(" (end address in the directory was wrong; size taken from the image)");
        }
        Ok(Program {
            segments: vec![Segment {
                address: entry.start,
                bytes: entry.data.clone(),
            }],
            start: Start::Run,
            description,
        })
    }

    fn directory(_path: &str, bytes: &[u8]) -> Option<Result<String, String>> {
        Some(parse(bytes).map(|tape| {
            let mut out = format!("0 \"{:<24}\" T64\n", show_name(&tape.name));
            for e in &tape.entries {
                let blocks = e.data.len().div_ceil(254);
                let kind = if e.entry_type == 1 { "PRG" } else { "FRZ" };
                out.push_str(&format!(
                    "{blocks:<5}{:<18} {kind}  ${:04X}-${:04X}\n",
                    format!("\"{}\"", show_name(&e.name)),
                    e.start,
                    e.start as usize + e.data.len()
                ));
            }
            out.push_str(&format!("{} file(s).\n", tape.entries.len()));
            out
        }))
    }
}

fn list_names(tape: &Tape) -> String {
    let names: Vec<String> = tape
        .entries
        .iter()
        .map(|e| format!("{:?}", show_name(&e.name)))
        .collect();
    if names.is_empty() {
        "nothing".into()
    } else {
        names.join(", ")
    }
}

c64kit_plugin_api::export_loader!(
    c64kit_plugin_entry_t64,
    T64Loader,
    "t64",
    "T64 tape images: a file by name (--entry) or the first program"
);

/// Builds a T64 image (for tests and examples): files as (name, start address, data).
pub fn build_image(tape_name: &str, files: &[(&str, u16, &[u8])]) -> Vec<u8> {
    let mut out = vec![0u8; 64 + 32 * files.len()];
    let sig = b"C64S tape image file";
    out[..sig.len()].copy_from_slice(sig);
    out[32] = 0x01;
    out[33] = 0x01;
    out[34..36].copy_from_slice(&(files.len() as u16).to_le_bytes());
    out[36..38].copy_from_slice(&(files.len() as u16).to_le_bytes());
    for (i, b) in out[40..64].iter_mut().enumerate() {
        *b = tape_name.as_bytes().get(i).copied().unwrap_or(0x20);
    }
    for (n, (name, start, data)) in files.iter().enumerate() {
        let offset = out.len() as u32;
        let e = 64 + 32 * n;
        out[e] = 1;
        out[e + 1] = 0x82;
        out[e + 2..e + 4].copy_from_slice(&start.to_le_bytes());
        out[e + 4..e + 6].copy_from_slice(&(start.wrapping_add(data.len() as u16)).to_le_bytes());
        out[e + 8..e + 12].copy_from_slice(&offset.to_le_bytes());
        for i in 0..16 {
            out[e + 16 + i] = name.as_bytes().get(i).copied().unwrap_or(0x20);
        }
        out.extend_from_slice(data);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_by_name_or_the_first_program() {
        let img = build_image(
            "MY TAPE",
            &[("FIRST", 0x0801, &[1, 2, 3]), ("SECOND", 0xC000, &[9])],
        );
        assert_eq!(T64Loader::probe("x", &img), Confidence::Yes);
        let p = T64Loader::load("x.t64", &img, &Options::default()).unwrap();
        assert_eq!(p.segments[0].address, 0x0801);
        assert_eq!(p.segments[0].bytes, vec![1, 2, 3]);
        let opts = Options::new(vec![("file".into(), "SEC*".into())]);
        let p = T64Loader::load("x.t64", &img, &opts).unwrap();
        assert_eq!(p.segments[0].address, 0xC000);
        let opts = Options::new(vec![("file".into(), "NOPE".into())]);
        let e = T64Loader::load("x.t64", &img, &opts).unwrap_err();
        assert!(e.contains("\"FIRST\", \"SECOND\""), "{e}");
        let dir = T64Loader::directory("x", &img).unwrap().unwrap();
        assert!(dir.contains("\"MY TAPE"), "{dir}");
        assert!(dir.contains("\"SECOND\""), "{dir}");
    }

    #[test]
    fn repairs_a_wrong_end_address() {
        let mut img = build_image("T", &[("A", 0x0801, &[1, 2, 3, 4])]);
        img[64 + 4] = 0xC6; // end $C3C6, as many tools wrote
        img[64 + 5] = 0xC3;
        let t = parse(&img).unwrap();
        assert_eq!(t.entries[0].data, vec![1, 2, 3, 4]);
        assert!(t.entries[0].repaired);
    }

    #[test]
    fn malformed_images_say_what_is_wrong() {
        let e = parse(b"hello").unwrap_err();
        assert!(e.contains("not a T64"), "{e}");
        let mut img = build_image("T", &[("A", 0x0801, &[1])]);
        img[64 + 8] = 0xFF;
        img[64 + 9] = 0xFF;
        let e = parse(&img).unwrap_err();
        assert!(e.contains("past the end of the image"), "{e}");
        let mut img = build_image("T", &[("A", 0x0801, &[1]), ("B", 0x0801, &[1])]);
        img.truncate(64 + 40);
        let e = parse(&img).unwrap_err();
        assert!(e.contains("truncated"), "{e}");
    }
}
