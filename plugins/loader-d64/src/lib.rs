//! The D64 loader: 1541 disk images (35, 40 or 42 tracks, with or without the error bytes).
//!
//! The BAM at track 18 sector 0 holds the disk name, ID and the free-block counts, and links
//! to the directory; directory sectors hold eight 32-byte entries; files are chains of
//! sectors whose first two bytes link to the next (track 0: the last sector, the second byte
//! then being the index of its last byte). Every link is checked: a track or sector out of
//! range or a chain that loops is an error naming the file and the sector.
//!
//! Options: `file` (the name to load, `*` and `?` wildcards; default the first PRG).

use c64kit_plugin_api::names::{name_matches, show_name};
use c64kit_plugin_api::{Confidence, Options, Program, ProgramLoader};

/// Sectors on a track (1-42).
pub fn sectors_on(track: u8) -> u8 {
    match track {
        1..=17 => 21,
        18..=24 => 19,
        25..=30 => 18,
        _ => 17,
    }
}

/// A disk image, checked for its size.
pub struct Disk<'a> {
    bytes: &'a [u8],
    pub tracks: u8,
}

/// Sizes of images: (tracks, with error bytes?).
fn geometry(len: usize) -> Option<u8> {
    let sectors = |tracks: u8| (1..=tracks).map(|t| sectors_on(t) as usize).sum::<usize>();
    [35u8, 40, 42]
        .into_iter()
        .find(|&t| len == sectors(t) * 256 || len == sectors(t) * 257)
}

/// One directory entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    /// The type byte: bits 0-2 the kind (DEL SEQ PRG USR REL), bit 6 locked, bit 7 closed.
    pub type_byte: u8,
    pub track: u8,
    pub sector: u8,
    pub name: Vec<u8>,
    pub blocks: u16,
}

impl DirEntry {
    pub fn kind(&self) -> &'static str {
        ["DEL", "SEQ", "PRG", "USR", "REL", "???", "???", "???"][(self.type_byte & 7) as usize]
    }

    pub fn is_prg(&self) -> bool {
        self.type_byte & 7 == 2
    }
}

/// The BAM's header fields and the directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directory {
    pub disk_name: Vec<u8>,
    pub id: Vec<u8>,
    pub dos_type: Vec<u8>,
    pub blocks_free: u32,
    pub entries: Vec<DirEntry>,
}

impl<'a> Disk<'a> {
    pub fn new(bytes: &'a [u8]) -> Result<Disk<'a>, String> {
        let tracks = geometry(bytes.len()).ok_or_else(|| {
            format!(
                "not a D64 disk image: {} bytes (a D64 has 174848 bytes for 35 tracks, 196608 \
                 for 40 or 205312 for 42, or 1 more per sector with error bytes)",
                bytes.len()
            )
        })?;
        Ok(Disk { bytes, tracks })
    }

    /// The 256 bytes of a sector, or an error saying why it does not exist.
    pub fn sector(&self, track: u8, sector: u8, what: &str) -> Result<&'a [u8], String> {
        if track == 0 || track > self.tracks {
            return Err(format!(
                "{what}: track {track} is out of range (the disk has tracks 1-{})",
                self.tracks
            ));
        }
        if sector >= sectors_on(track) {
            return Err(format!(
                "{what}: sector {sector} is out of range on track {track} (sectors 0-{})",
                sectors_on(track) - 1
            ));
        }
        let index: usize =
            (1..track).map(|t| sectors_on(t) as usize).sum::<usize>() + sector as usize;
        Ok(&self.bytes[index * 256..index * 256 + 256])
    }

    /// Follows a sector chain from (track, sector); returns the data bytes.
    pub fn chain(&self, track: u8, sector: u8, what: &str) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let (mut t, mut s) = (track, sector);
        loop {
            if !seen.insert((t, s)) {
                return Err(format!(
                    "{what}: the sector chain loops (track {t} sector {s} comes again)"
                ));
            }
            let data = self.sector(t, s, what)?;
            if data[0] == 0 {
                let last = data[1] as usize;
                if last >= 2 {
                    out.extend_from_slice(&data[2..=last]);
                }
                return Ok(out);
            }
            out.extend_from_slice(&data[2..]);
            (t, s) = (data[0], data[1]);
        }
    }

    pub fn directory(&self) -> Result<Directory, String> {
        let bam = self.sector(18, 0, "BAM")?;
        let trim = |raw: &[u8]| {
            let mut v = raw.to_vec();
            while matches!(v.last(), Some(0xA0)) {
                v.pop();
            }
            v
        };
        let blocks_free = (1..=35u8)
            .filter(|&t| t != 18)
            .map(|t| bam[4 * t as usize] as u32)
            .sum();
        let mut entries = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let (mut t, mut s) = (bam[0], bam[1]);
        while t != 0 {
            if !seen.insert((t, s)) {
                return Err(format!(
                    "directory: the sector chain loops (track {t} sector {s} comes again)"
                ));
            }
            let data = self.sector(t, s, "directory")?;
            for e in data.chunks(32) {
                if e[2] == 0 {
                    continue;
                }
                entries.push(DirEntry {
                    type_byte: e[2],
                    track: e[3],
                    sector: e[4],
                    name: trim(&e[5..21]),
                    blocks: u16::from_le_bytes([e[30], e[31]]),
                });
            }
            (t, s) = (data[0], data[1]);
        }
        Ok(Directory {
            disk_name: trim(&bam[0x90..0xA0]),
            id: bam[0xA2..0xA4].to_vec(),
            dos_type: bam[0xA5..0xA7].to_vec(),
            blocks_free,
            entries,
        })
    }
}

/// The listing as `LOAD"$",8` and `LIST` show it.
pub fn listing(dir: &Directory) -> String {
    let mut out = format!(
        "0 \"{:<16}\" {} {}\n",
        show_name(&dir.disk_name),
        show_name(&dir.id),
        show_name(&dir.dos_type)
    );
    for e in &dir.entries {
        let name = format!("\"{}\"", show_name(&e.name));
        let splat = if e.type_byte & 0x80 == 0 { "*" } else { " " };
        let lock = if e.type_byte & 0x40 != 0 { "<" } else { "" };
        out.push_str(&format!(
            "{:<5}{name:<18}{splat}{}{lock}\n",
            e.blocks,
            e.kind()
        ));
    }
    out.push_str(&format!("{} BLOCKS FREE.\n", dir.blocks_free));
    out
}

pub struct D64Loader;

impl ProgramLoader for D64Loader {
    const EXTENSIONS: &'static str = "d64";

    fn probe(_path: &str, bytes: &[u8]) -> Confidence {
        if geometry(bytes.len()).is_some() {
            Confidence::Maybe
        } else {
            Confidence::No
        }
    }

    fn load(path: &str, bytes: &[u8], options: &Options) -> Result<Program, String> {
        options.check_known(&["file"])?;
        let disk = Disk::new(bytes)?;
        let dir = disk.directory()?;
        let entry = match options.get("file") {
            Some(want) => dir
                .entries
                .iter()
                .find(|e| name_matches(want.as_bytes(), &e.name))
                .ok_or_else(|| {
                    let names: Vec<String> = dir
                        .entries
                        .iter()
                        .map(|e| format!("{:?}", show_name(&e.name)))
                        .collect();
                    format!(
                        "no file {want:?} on the disk (it holds: {})",
                        if names.is_empty() {
                            "nothing".to_string()
                        } else {
                            names.join(", ")
                        }
                    )
                })?,
            None => dir
                .entries
                .iter()
                .find(|e| e.is_prg())
                .ok_or_else(|| "the disk holds no PRG file".to_string())?,
        };
        let shown = show_name(&entry.name);
        if !entry.is_prg() {
            return Err(format!(
                "{shown:?} is a {} file, not a program (PRG)",
                entry.kind()
            ));
        }
        let what = format!("file {shown:?}");
        let data = disk.chain(entry.track, entry.sector, &what)?;
        let mut program =
            Program::from_prg(&data, String::new()).map_err(|e| format!("{what}: {e}"))?;
        let seg = &program.segments[0];
        program.description = format!(
            "{path}: disk {:?}, file {shown:?} ${:04X}-${:04X} ({} blocks)",
            show_name(&dir.disk_name),
            seg.address,
            seg.address as usize + seg.bytes.len(),
            entry.blocks
        );
        Ok(program)
    }

    fn directory(_path: &str, bytes: &[u8]) -> Option<Result<String, String>> {
        Some(
            Disk::new(bytes)
                .and_then(|d| d.directory())
                .map(|d| listing(&d)),
        )
    }
}

c64kit_plugin_api::export_loader!(
    c64kit_plugin_entry_d64,
    D64Loader,
    "d64",
    "D64 disk images: a file by name (--entry) or the first PRG"
);

/// Builds a 35-track D64 image (for tests and examples): PRG files as (name, bytes with the
/// load address first). Files go on tracks 1-17 and 19-35 in order, the directory on track 18.
pub fn build_image(disk_name: &str, id: &str, files: &[(&str, &[u8])]) -> Vec<u8> {
    let tracks = 35u8;
    let total: usize = (1..=tracks).map(|t| sectors_on(t) as usize).sum();
    let mut img = vec![0u8; total * 256];
    let offset = |t: u8, s: u8| -> usize {
        ((1..t).map(|x| sectors_on(x) as usize).sum::<usize>() + s as usize) * 256
    };
    let mut free: Vec<(u8, u8)> = (1..=tracks)
        .filter(|&t| t != 18)
        .flat_map(|t| (0..sectors_on(t)).map(move |s| (t, s)))
        .collect();
    free.reverse();
    let mut used = std::collections::HashSet::new();
    let mut dir_entries = Vec::new();
    for (name, data) in files {
        let chunks: Vec<&[u8]> = if data.is_empty() {
            vec![&[][..]]
        } else {
            data.chunks(254).collect()
        };
        let sectors: Vec<(u8, u8)> = chunks
            .iter()
            .map(|_| free.pop().expect("disk full"))
            .collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let (t, s) = sectors[i];
            used.insert((t, s));
            let o = offset(t, s);
            match sectors.get(i + 1) {
                Some(&(nt, ns)) => {
                    img[o] = nt;
                    img[o + 1] = ns;
                }
                None => {
                    img[o] = 0;
                    img[o + 1] = (chunk.len() + 1) as u8;
                }
            }
            img[o + 2..o + 2 + chunk.len()].copy_from_slice(chunk);
        }
        dir_entries.push((name.to_string(), sectors[0], chunks.len() as u16));
    }
    // BAM.
    let bam = offset(18, 0);
    img[bam] = 18;
    img[bam + 1] = 1;
    img[bam + 2] = 0x41;
    for t in 1..=tracks {
        let e = bam + 4 * t as usize;
        let mut bits = 0u32;
        let mut count = 0;
        for s in 0..sectors_on(t) {
            let taken = used.contains(&(t, s)) || (t == 18 && s <= 1);
            if !taken {
                bits |= 1 << s;
                count += 1;
            }
        }
        img[e] = count;
        img[e + 1..e + 4].copy_from_slice(&bits.to_le_bytes()[..3]);
    }
    for i in 0..16 {
        img[bam + 0x90 + i] = disk_name.as_bytes().get(i).copied().unwrap_or(0xA0);
    }
    img[bam + 0xA0] = 0xA0;
    img[bam + 0xA1] = 0xA0;
    img[bam + 0xA2] = id.as_bytes().first().copied().unwrap_or(b'0');
    img[bam + 0xA3] = id.as_bytes().get(1).copied().unwrap_or(b'0');
    img[bam + 0xA4] = 0xA0;
    img[bam + 0xA5] = b'2';
    img[bam + 0xA6] = b'A';
    // Directory: 8 entries per sector on 18/1, 18/2, ...
    let dir_sectors = dir_entries.len().div_ceil(8).max(1);
    for d in 0..dir_sectors {
        let o = offset(18, 1 + d as u8);
        if d + 1 < dir_sectors {
            img[o] = 18;
            img[o + 1] = 2 + d as u8;
        } else {
            img[o] = 0;
            img[o + 1] = 0xFF;
        }
        for (k, (name, (t, s), blocks)) in dir_entries.iter().enumerate().skip(d * 8).take(8) {
            let e = o + (k % 8) * 32;
            img[e + 2] = 0x82;
            img[e + 3] = *t;
            img[e + 4] = *s;
            for i in 0..16 {
                img[e + 5 + i] = name.as_bytes().get(i).copied().unwrap_or(0xA0);
            }
            img[e + 30..e + 32].copy_from_slice(&blocks.to_le_bytes());
        }
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let big: Vec<u8> = [0x00, 0xC0]
            .into_iter()
            .chain((0..600).map(|i| i as u8))
            .collect();
        build_image(
            "TEST DISK",
            "AB",
            &[("FIRST", &[0x01, 0x08, 1, 2, 3]), ("BIG ONE", &big)],
        )
    }

    #[test]
    fn lists_and_loads() {
        let img = sample();
        assert_eq!(img.len(), 174848);
        assert_eq!(D64Loader::probe("x", &img), Confidence::Maybe);
        let dir = D64Loader::directory("x", &img).unwrap().unwrap();
        assert!(dir.starts_with("0 \"TEST DISK       \" AB 2A\n"), "{dir}");
        assert!(dir.contains("1    \"FIRST\"            PRG\n"), "{dir}");
        assert!(dir.contains("3    \"BIG ONE\"          PRG\n"), "{dir}");
        assert!(dir.ends_with(" BLOCKS FREE.\n"), "{dir}");
        let p = D64Loader::load("x.d64", &img, &Options::default()).unwrap();
        assert_eq!(p.segments[0].address, 0x0801);
        assert_eq!(p.segments[0].bytes, vec![1, 2, 3]);
        let opts = Options::new(vec![("file".into(), "BIG*".into())]);
        let p = D64Loader::load("x.d64", &img, &opts).unwrap();
        assert_eq!(p.segments[0].address, 0xC000);
        assert_eq!(p.segments[0].bytes.len(), 600);
        assert_eq!(p.segments[0].bytes[599], (599 % 256) as u8);
    }

    #[test]
    fn malformed_images_say_what_is_wrong() {
        let e = D64Loader::load("x", &[0; 1000], &Options::default()).unwrap_err();
        assert!(e.contains("not a D64 disk image: 1000 bytes"), "{e}");
        // A file whose chain points at track 50.
        let mut img = sample();
        let first = Disk::new(&img).unwrap().directory().unwrap().entries[1].clone();
        let o = ((1..first.track)
            .map(|t| sectors_on(t) as usize)
            .sum::<usize>()
            + first.sector as usize)
            * 256;
        img[o] = 50;
        let opts = Options::new(vec![("file".into(), "BIG ONE".into())]);
        let e = D64Loader::load("x", &img, &opts).unwrap_err();
        assert!(
            e.contains("file \"BIG ONE\": track 50 is out of range"),
            "{e}"
        );
        // A chain that loops back to its own first sector.
        img[o] = first.track;
        img[o + 1] = first.sector;
        let e = D64Loader::load("x", &img, &opts).unwrap_err();
        assert!(e.contains("loops"), "{e}");
        // A sector number too high for its track.
        img[o] = 20;
        img[o + 1] = 19;
        let e = D64Loader::load("x", &img, &opts).unwrap_err();
        assert!(e.contains("sector 19 is out of range on track 20"), "{e}");
        // A directory that links to itself.
        let mut img = sample();
        let d = ((1..18).map(|t| sectors_on(t) as usize).sum::<usize>() + 1) * 256;
        img[d] = 18;
        img[d + 1] = 1;
        let e = D64Loader::directory("x", &img).unwrap().unwrap_err();
        assert!(e.contains("directory: the sector chain loops"), "{e}");
        let e = D64Loader::load(
            "x",
            &sample(),
            &Options::new(vec![("file".into(), "NOPE".into())]),
        )
        .unwrap_err();
        assert!(e.contains("\"FIRST\", \"BIG ONE\""), "{e}");
    }
}
