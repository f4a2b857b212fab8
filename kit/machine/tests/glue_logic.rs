//! The glue logic between CIA 2's port A and the VIC-II's bank lines. A breadbin C64's TTL
//! gates follow the port at once; a C64C's custom chip, switching straight between banks 1
//! and 2, shows bank 3 for a cycle on the way, and a data-direction write that lowers the
//! bank takes effect a cycle late (VICE's c64gluelogic.c, the model x64sc's `-model c64c`
//! runs VICE's test programs on). What the VIC-II fetched in a cycle's phi1 is seen here
//! through RAM $0001, which a write to the port fills with it.

use c64kit_cpu::Bus;
use c64kit_machine::{GlueLogic, Machine};

/// A machine whose bank `b` (1-3) holds $11 * `b` in every byte, the VIC-II's character
/// set at its bank's $0000 (no character ROM in any fetch), in bank `from`.
fn machine(glue: GlueLogic, from: u8) -> Machine {
    let mut m = Machine::builtin();
    m.bus.set_glue_logic(glue);
    for bank in 1..4u8 {
        let base = usize::from(bank) * 0x4000;
        m.bus.ram[base..base + 0x4000].fill(0x11 * bank);
    }
    m.bus.write(0xD018, 0x10);
    m.bus.write(0xDD02, 0x03);
    m.bus.write(0xDD00, !from & 3);
    m
}

/// The bank (by its marker byte) the VIC-II fetched from in phi1 of the next two cycles.
fn next_two_fetches(m: &mut Machine) -> [u8; 2] {
    let mut seen = [0; 2];
    for fetched in &mut seen {
        m.bus.write(0x0001, 0x37); // the port as it is: only RAM $0001 changes
        *fetched = m.bus.ram_under_port()[1];
    }
    seen
}

#[test]
fn a_c64c_shows_bank_3_for_a_cycle_between_banks_1_and_2() {
    for (from, to) in [(1u8, 2u8), (2, 1)] {
        let mut m = machine(GlueLogic::Discrete, from);
        m.bus.write(0xDD00, !to & 3);
        assert_eq!(
            next_two_fetches(&mut m),
            [0x11 * to; 2],
            "discrete {from}->{to}"
        );
        assert_eq!(m.bus.vic_bank(), to);

        let mut m = machine(GlueLogic::CustomIc, from);
        m.bus.write(0xDD00, !to & 3);
        assert_eq!(m.bus.vic_bank(), 3, "custom IC {from}->{to}: bank 3 first");
        assert_eq!(
            next_two_fetches(&mut m),
            [0x33, 0x11 * to],
            "custom IC {from}->{to}"
        );
        assert_eq!(m.bus.vic_bank(), to);
    }
    // Other switches go straight there on both.
    let mut m = machine(GlueLogic::CustomIc, 3);
    m.bus.write(0xDD00, !1 & 3);
    assert_eq!(next_two_fetches(&mut m), [0x11; 2]);
}

#[test]
fn a_c64c_lowers_the_bank_a_cycle_late_through_the_data_direction() {
    // Port A's bits 0-1 output %00 (bank 3); making bit 1 an input pulls it up: %10, bank 1.
    for (glue, first) in [(GlueLogic::Discrete, 0x11), (GlueLogic::CustomIc, 0x33)] {
        let mut m = machine(glue, 3);
        m.bus.write(0xDD02, 0x01);
        assert_eq!(next_two_fetches(&mut m), [first, 0x11], "{glue:?}");
    }
}
