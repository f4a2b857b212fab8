//! The game tree in memory (F3, F4, F5, F6, F8): records 29 or 88 bytes apart from the tree
//! base, linked by parent/child addresses, minimax values, the announced addresses, the
//! memory check, and the size and speed of a depth-4 tree after the opening book.
//!
//! How: the program's think entry point ($0826) is called on a position poked into the game
//! state ($0830..); the records are then read back from the machine's RAM.

#[path = "ryg1_model.rs"]
mod model;

use model::*;

/// Cats after the opening book (F9), the mouse having made five moves.
const BOOK_CATS: [u8; 4] = [9, 11, 13, 15];

/// Everything the machine holds for the tree agrees with the model, byte for byte.
fn check_against_model(e: &mut Engine, p: Pos, level: u8, depth: u8) -> Thought {
    let t = e.think(&p, level, depth);
    let tree = think(p, level, depth, e.version);
    assert_eq!(t.records, tree.recs.len(), "record count");
    assert_eq!(t.end, tree.end(), "first free address");
    for i in 0..tree.recs.len() {
        let a = tree.addr(i);
        let got = &e.m.bus.ram[a..a + record_size(e.version)];
        assert_eq!(got, &tree.record_bytes(i)[..], "record {i} at ${a:04X}");
    }
    assert_eq!(t.value, tree.recs[0].value, "root value");
    let (cat, dest) = tree.choice();
    assert_eq!((t.cat as usize, t.dest), (cat, dest), "the cats' move");
    // F8: v18 on announce each record's address (the root first); before, a dot each.
    assert!(t.text.starts_with("PENSANDO:"));
    if e.version >= 18 {
        let addrs = announced_addresses(&t.text);
        let expected: Vec<usize> = (0..tree.recs.len()).map(|i| tree.addr(i)).collect();
        assert_eq!(addrs, expected);
    } else {
        let dots = format!("PENSANDO:{}\n", ".".repeat(tree.recs.len()));
        assert_eq!(t.text, dots);
    }
    t
}

#[test]
fn every_version_builds_the_tree_the_spec_describes() {
    for v in VERSIONS {
        let mut e = Engine::new(v);
        assert_eq!(e.ram(VERSION_ADDR) as u32, v);
        assert_eq!(e.ram(RECSIZE_ADDR) as usize, record_size(v));
        assert_eq!(e.word(TREEBASE_ADDR), TREE_BASE);
        // after the book, the mouse in the middle; and a later position with spread cats
        check_against_model(&mut e, Pos::new(36, BOOK_CATS), 9, max_depth(v));
        check_against_model(&mut e, Pos::new(45, [16, 11, 29, 22]), 13, max_depth(v));
        // depth 1 and 2 too
        check_against_model(&mut e, Pos::new(27, [9, 18, 13, 22]), 11, 1);
        check_against_model(&mut e, Pos::new(27, [9, 18, 13, 22]), 11, 2);
    }
}

/// Reads the records from memory alone (no model): 29/88 bytes apart from the base,
/// markers, parents and children pointing at each other, levels and turns alternating,
/// minimax consistent, and the allocation order of ryg1.md (a node's children are created
/// together, then visited in order, depth first).
fn check_links(e: &Engine, records: usize) {
    let size = record_size(e.version);
    let mut next = 1; // the next record to be allocated
    let mut seen = vec![false; records];
    seen[0] = true;
    walk(e, size, records, 0, &mut next, &mut seen);
    assert_eq!(next, records, "every record is in the tree");
    assert!(seen.iter().all(|&s| s));
    let root = &e.m.bus.ram[TREE_BASE..TREE_BASE + size];
    assert_eq!((root[6], root[7]), (0, 0), "the root has no parent");
}

fn walk(e: &Engine, size: usize, records: usize, i: usize, next: &mut usize, seen: &mut [bool]) {
    let addr = |i: usize| TREE_BASE + i * size;
    let index = |a: usize| {
        assert!(
            a >= TREE_BASE && (a - TREE_BASE).is_multiple_of(size),
            "${a:04X} is not a record"
        );
        let i = (a - TREE_BASE) / size;
        assert!(i < records, "${a:04X} beyond the tree");
        i
    };
    let r = e.m.bus.ram[addr(i)..addr(i) + size].to_vec();
    assert_eq!(&r[0..3], &[0xAA, 0xAA, 0xAA], "marker of record {i}");
    let children: Vec<usize> = (0..8)
        .map(|k| r[8 + 2 * k] as usize | (r[9 + 2 * k] as usize) << 8)
        .take_while(|&a| a != 0)
        .collect();
    for k in children.len()..8 {
        assert_eq!(
            (r[8 + 2 * k], r[9 + 2 * k]),
            (0, 0),
            "unused child slot of {i}"
        );
    }
    if children.is_empty() {
        return;
    }
    let mut values = Vec::new();
    for (k, &c) in children.iter().enumerate() {
        let j = index(c);
        assert_eq!(
            j,
            *next + k,
            "child {k} of record {i} is the next record allocated"
        );
        assert!(!seen[j]);
        seen[j] = true;
        let cr = &e.m.bus.ram[c..c + size];
        assert_eq!(
            cr[6] as usize | (cr[7] as usize) << 8,
            addr(i),
            "parent of {j}"
        );
        assert_eq!(cr[3], r[3] + 1, "level of {j}");
        assert_eq!(cr[4], if r[4] == 0xFF { 0x01 } else { 0xFF }, "turn of {j}");
        values.push(cr[5]);
    }
    *next += children.len();
    let v = if r[4] == 0x01 {
        *values.iter().max().unwrap()
    } else {
        *values.iter().min().unwrap()
    };
    assert_eq!(r[5], v, "minimax value of record {i}");
    for &c in &children {
        walk(e, size, records, index(c), next, seen);
    }
}

#[test]
fn records_are_29_or_88_bytes_apart_and_linked() {
    for v in VERSIONS {
        let mut e = Engine::new(v);
        let t = e.think(&Pos::new(36, BOOK_CATS), 9, max_depth(v));
        assert_eq!(t.end, TREE_BASE + t.records * record_size(v));
        check_links(&e, t.records);
    }
}

#[test]
fn a_depth_4_tree_runs_into_the_ram_under_the_basic_rom() {
    // Cats on 2, 4, 6, 25 have two steps each and the mouse on 45 four: the largest tree
    // of any position with cats on rows 0-3 (1,199 records, found with the model), close to
    // the worst case, longer than $A000 - $2000 allows (F6: v16 on switch the ROM out).
    let p = Pos::new(45, [2, 4, 6, 25]);
    let mut e = Engine::new(19);
    let t = check_against_model(&mut e, p, 21, 4);
    assert!(t.end > 0xA000, "tree ends at ${:04X}", t.end);
    assert!(t.end <= 0xD000);
    assert_eq!(e.ram(0x0001) & 1, 0, "LORAM cleared");
    check_links(&e, t.records);
    eprintln!(
        "v19 depth 4, mouse 45 cats 2/4/6/25: {} records, {} bytes, ${:04X}-${:04X}, {} cycles",
        t.records,
        t.end - TREE_BASE,
        TREE_BASE,
        t.end - 1,
        t.cycles
    );
}

#[test]
fn depths_whose_worst_case_tree_overruns_memory_are_refused() {
    for v in VERSIONS {
        let top: u64 = if v >= 16 { 0xD000 } else { 0xA000 };
        let mut e = Engine::new(v);
        for d in 1..=6u8 {
            let fits =
                TREE_BASE as u64 + worst_case_records(d as u32) * record_size(v) as u64 <= top;
            let from = e.m.transcript().len();
            e.call(API_CHECKDEPTH, d);
            let refused = e.ram(RESULT_ADDR) == 1;
            assert_eq!(refused, !fits, "v{v} depth {d}");
            let text = e.text_from(from);
            if refused {
                assert_eq!(text, format!("NO HAY MEMORIA PARA PROFUNDIDAD {d}\n"));
            } else {
                assert_eq!(text, "");
            }
        }
        // the table of ryg1.md: depth 3 is the most the 88-byte builds take, 4 the others
        let mut e = Engine::new(v);
        e.call(API_CHECKDEPTH, max_depth(v));
        assert_eq!(e.ram(RESULT_ADDR), 0);
        e.call(API_CHECKDEPTH, max_depth(v) + 1);
        assert_eq!(e.ram(RESULT_ADDR), 1);
    }
}

/// v19 measured budget for a depth-4 answer (cycles; / 985,248 for seconds on a PAL C64).
/// The largest, 2,848,067 (mouse on 34: 803 records), is mostly the announcement of each
/// record (F8: four hex digits and four cursor-lefts, about 1,750 cycles of Commodore's
/// CHROUT; the trap KERNAL takes its time: kernal/timing.rs).
const DEPTH4_BUDGET: u64 = 3_000_000;

#[test]
fn depth_4_after_the_book_size_and_time() {
    // At level 9 (the first search) the cats stand on 9, 11, 13, 15 and the mouse has made
    // five moves from 59: it is on row 6, 4 or 2. Every such square:
    let mut e = Engine::new(19);
    let mut max = (0, 0, 0);
    for mouse in (16..56u8).filter(|&m| usable(m as i32) && [2, 4, 6].contains(&(m / 8))) {
        let p = Pos::new(mouse, BOOK_CATS);
        let t = check_against_model(&mut e, p, 9, 4);
        // F5: at most 1,024 leaves; ryg1.md: at most 1,321 records
        assert!(t.records <= 1321);
        assert!(
            t.cycles <= DEPTH4_BUDGET,
            "mouse {mouse}: {} cycles",
            t.cycles
        );
        eprintln!(
            "mouse {mouse:2}: {:4} records, {:5} bytes, last byte ${:04X}, {:7} cycles ({:.3} s)",
            t.records,
            t.end - TREE_BASE,
            t.end - 1,
            t.cycles,
            t.cycles as f64 / c64kit_machine::PAL_HZ as f64
        );
        if t.records > max.0 {
            max = (t.records, t.end, t.cycles);
        }
    }
    eprintln!("largest: {max:?}");
}
