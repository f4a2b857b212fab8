//! The trap KERNAL's screen editor reads typed lines back as Commodore's does: the same keys
//! typed on c64kit's trap KERNAL and on the real ROMs (KERNAL 901227-03 from the folder in
//! `C64KIT_ROMS`) must make CHRIN hand back the same bytes, and leave the same screen and
//! line link table. Without the variable (CI has no Commodore ROM) each test says so and
//! passes.
//!
//! The keys do not come through the keyboard matrix (the two KERNALs see a scripted key at
//! different times): the program's own interrupt routine fills the keyboard buffer from a
//! table, then goes on to the KERNAL's handler, so both KERNALs echo the same keys from the
//! same buffer.

use c64kit_machine::{Machine, Roms, StopReason};

mod common;

use common::real_roms;

/// Where the program keeps the keys to type (ending with a 0) and the bytes CHRIN returned.
const KEYS: u16 = 0x3000;
const LOG: u16 = 0x4000;

/// The program at $C000: its interrupt routine types the keys at `KEYS`, up to the
/// keyboard buffer's 10; the main loop calls CHRIN for ever, logging each byte at `LOG`.
fn program() -> Vec<u8> {
    let irq = 0xC030u16;
    let [irq_lo, irq_hi] = irq.to_le_bytes();
    let [log_lo, log_hi] = LOG.to_le_bytes();
    let [keys_lo, keys_hi] = KEYS.to_le_bytes();
    #[rustfmt::skip]
    let mut code = vec![
        0x78, // SEI
        0xA9, irq_lo, 0x8D, 0x14, 0x03, // LDA #<irq; STA $0314
        0xA9, irq_hi, 0x8D, 0x15, 0x03, // LDA #>irq; STA $0315
        0xA9, log_lo, 0x85, 0xFB, 0xA9, log_hi, 0x85, 0xFC, // the log's pointer
        0xA9, keys_lo, 0x85, 0xFD, 0xA9, keys_hi, 0x85, 0xFE, // the keys' pointer
        0x58, // CLI
        // loop: JSR CHRIN; LDY #0; STA ($FB),Y; INC $FB; BNE loop; INC $FC; JMP loop
        0x20, 0xCF, 0xFF, 0xA0, 0x00, 0x91, 0xFB, 0xE6, 0xFB, 0xD0, 0xF5, 0xE6, 0xFC,
        0x4C, 0x1C, 0xC0,
    ];
    assert_eq!(code.len(), 0x2C);
    code.resize(usize::from(irq - 0xC000), 0xEA);
    #[rustfmt::skip]
    code.extend([
        0xA6, 0xC6, 0xE0, 0x0A, 0xB0, 0x14, // irq: LDX NDX; CPX #10; BCS done
        0xA0, 0x00, 0xB1, 0xFD, 0xF0, 0x0E, // LDY #0; LDA ($FD),Y; BEQ done
        0x9D, 0x77, 0x02, 0xE6, 0xC6, // STA KEYD,X; INC NDX
        0xE6, 0xFD, 0xD0, 0xEB, 0xE6, 0xFE, 0x4C, 0x30, 0xC0, // the next key; JMP irq
        0x4C, 0x31, 0xEA, // done: JMP $EA31
    ]);
    code
}

/// What a run leaves: CHRIN's bytes, the screen, the line link table and the cursor.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    read: Vec<u8>,
    screen: Vec<u8>,
    colours: Vec<u8>,
    links: Vec<u8>,
    cursor: (u8, u8),
    /// The editor's zero page: RVS, INDX, LSXP, LSTP, CRSW, PNT, PNTR, QTSW, LNMX, TBLX,
    /// DATA, INSRT.
    editor: Vec<u8>,
}

fn type_keys(roms: Roms, keys: &[u8]) -> Outcome {
    let mut m = Machine::new(roms);
    m.kernal.idle_poll_limit = u32::MAX;
    m.load_raw(0xC000, &program());
    let mut table = keys.to_vec();
    table.push(0);
    m.load_raw(KEYS, &table);
    m.start_at(0xC000, 0x0803);
    // Run until every key has gone into the buffer and out of it.
    let end = KEYS + keys.len() as u16;
    let taken =
        |m: &Machine| u16::from_le_bytes([m.peek(0xFD), m.peek(0xFE)]) == end && m.peek(0xC6) == 0;
    // A key a frame at the least, a scroll or a row opened for each.
    for _ in 0..keys.len() + 10 {
        let stop = m.run(100_000);
        assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
        if taken(&m) {
            break;
        }
    }
    assert!(taken(&m), "the keys were not all taken");
    // The last key's echo and the line's read-back.
    m.run(400_000);
    let logged = u16::from_le_bytes([m.peek(0xFB), m.peek(0xFC)]);
    let mut screen: Vec<u8> = (0x0400..0x07E8).map(|a| m.peek(a)).collect();
    let mut colours: Vec<u8> = (0xD800..0xDBE8).map(|a| m.peek(a) & 0x0F).collect();
    if m.peek(0xCF) != 0 {
        // Commodore's IRQ blinked the cursor on (the trap KERNAL does not draw it): what
        // was under it is in GDBLN and GDCOL.
        let at = u16::from_le_bytes([m.peek(0xD1), m.peek(0xD2)]) + u16::from(m.peek(0xD3));
        let i = usize::from(at - 0x0400);
        screen[i] = m.peek(0xCE);
        colours[i] = m.peek(0x0287) & 0x0F;
    }
    Outcome {
        read: (LOG..logged).map(|a| m.peek(a)).collect(),
        screen,
        colours,
        links: (0xD9..=0xF2).map(|a| m.peek(a)).collect(),
        cursor: (m.peek(0xD6), m.peek(0xD3)),
        editor: (0xC7..=0xD8)
            .filter(|&a| a != 0xCB)
            .filter(|&a| !(0xCC..=0xCF).contains(&a))
            .map(|a| m.peek(a))
            .collect(),
    }
}

impl Outcome {
    /// The editor's state is one a C64 can show: the cursor on the screen, its logical line
    /// of one or two rows starting at a row, row 0 starting a line and no line longer than
    /// two rows. A few key sequences drive Commodore's editor out of it (the cursor's row
    /// becomes $FF, a line grows to several rows); from there its routines index their ROM
    /// tables past their ends, reading whatever code follows, which c64kit's editor (with
    /// no copy of that code) cannot follow.
    fn sane(&self) -> bool {
        let (row, _) = self.cursor;
        let pnt = u16::from_le_bytes([self.editor[5], self.editor[6]]);
        let lnmx = self.editor[9];
        let links_sane = self.links[0] & 0x80 != 0
            && self
                .links
                .windows(2)
                .all(|w| w[0] & 0x80 != 0 || w[1] & 0x80 != 0);
        row < 25
            && (lnmx == 39 || lnmx == 79)
            && pnt >= 0x0400
            && (pnt - 0x0400).is_multiple_of(40)
            && (pnt - 0x0400) / 40 < 25
            && links_sane
    }
}

/// A small deterministic generator (xorshift64*), so a failing sequence can be named by its
/// seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Keys a person types at a BASIC prompt: runs of letters, digits and spaces of any length
/// (lines reaching a row's end and going on to a second row), quotes, shifted and reversed
/// characters, cursor moves over earlier lines, inserts and deletes, colours, RETURN on a
/// line typed earlier.
fn keys_for(seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut keys = Vec::new();
    let lines = 1 + rng.below(12);
    for _ in 0..lines {
        let tokens = rng.below(30);
        for _ in 0..tokens {
            match rng.below(20) {
                0..=5 => {
                    // A run of ordinary characters, sometimes long.
                    let n = if rng.below(4) == 0 {
                        20 + rng.below(50)
                    } else {
                        1 + rng.below(8)
                    };
                    for _ in 0..n {
                        let c = match rng.below(10) {
                            0 => b' ',
                            1 => b'0' + rng.below(10) as u8,
                            2 => 0xC1 + rng.below(26) as u8,
                            _ => b'A' + rng.below(26) as u8,
                        };
                        keys.push(c);
                    }
                }
                6 | 7 => keys.push(b'"'),
                8 => keys.push(0x91),                                 // up
                9 => keys.push(0x11),                                 // down
                10 => keys.push(0x9D),                                // left
                11 => keys.push(0x1D),                                // right
                12 => keys.push(0x14),                                // DEL
                13 => keys.push(0x94),                                // INST
                14 => keys.push([0x12, 0x92][rng.below(2) as usize]), // RVS on/off
                15 => keys.push([0x05, 0x1C, 0x9E][rng.below(3) as usize]), // colours
                16 => keys.push(0x13),                                // HOME
                17 => keys.push(0x8D),                                // shifted RETURN
                _ => keys.push(b' '),
            }
        }
        keys.push(0x0D);
    }
    keys
}

#[test]
fn typed_lines_read_back_as_on_commodores_kernal() {
    let Some(_) = real_roms() else { return };
    let count: u64 = std::env::var("C64KIT_EDITOR_SEQUENCES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let (mut bad, mut left_out) = (Vec::new(), 0);
    for seed in 0..count {
        let keys = keys_for(seed);
        let trap = type_keys(Roms::builtin(), &keys);
        let real = type_keys(real_roms().unwrap(), &keys);
        if trap != real && !real.sane() {
            left_out += 1;
            continue;
        }
        if trap != real {
            bad.push(seed);
            if bad.len() <= 3 {
                println!("seed {seed}: keys {keys:02X?}");
                let first = trap.read.iter().zip(&real.read).position(|(a, b)| a != b);
                println!(
                    "  read: {} and {} bytes, first difference at {first:?}",
                    trap.read.len(),
                    real.read.len()
                );
                if let Some(i) = first {
                    println!(
                        "  trap read from there {:02X?}",
                        &trap.read[i..(i + 40).min(trap.read.len())]
                    );
                    println!(
                        "  real read from there {:02X?}",
                        &real.read[i..(i + 40).min(real.read.len())]
                    );
                }
                let cells =
                    |a: &[u8], b: &[u8]| (0..a.len()).filter(|&i| a[i] != b[i]).collect::<Vec<_>>();
                println!(
                    "  screen cells differing {:?}",
                    cells(&trap.screen, &real.screen)
                );
                println!(
                    "  colour cells differing {:?}",
                    cells(&trap.colours, &real.colours)
                );
                println!("  trap links {:02X?} cursor {:?}", trap.links, trap.cursor);
                println!("  real links {:02X?} cursor {:?}", real.links, real.cursor);
            }
        }
    }
    println!(
        "{} key sequences typed on both KERNALs, {left_out} differing left out (Commodore's \
         editor left the screen's bounds), {} differ",
        count,
        bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} of {count} sequences differ: {bad:?}",
        bad.len()
    );
}
