//! The noise generator's 23-bit shift register (LFSR): clocking, O(log n)
//! jump-ahead, the eight bits OSC3 shows and the write-back rules.

use super::SidModel;

/// Seed of the noise LFSR at power-on: all ones, then the one shift the
/// reset line's release makes (NOT bit 17 into bit 0), so OSC3 reads $FE
/// with noise selected (VICE's reSID and reSIDfp reset to this value).
pub const NOISE_SEED: u32 = 0x7F_FFFE;
/// The LFSR once the test bit has held it long enough: every bit 1.
pub const NOISE_ALL_ONES: u32 = 0x7F_FFFF;

const NOISE_MASK: u32 = 0x7F_FFFF;
/// Bit 19 of the accumulator: its rise clocks the noise LFSR 2 cycles later.
pub(crate) const NOISE_CLOCK_BIT: u32 = 0x08_0000;
/// Period of the (maximal-length) 23-bit noise LFSR.
pub(crate) const NOISE_PERIOD: u64 = (1 << 23) - 1;
/// Characteristic polynomial of the LFSR step map: x^23 + x^5 + 1.
/// (Each state bit obeys n(t) = n(t-23) ^ n(t-18), so M^23 = M^5 + I.)
const NOISE_POLY: u64 = (1 << 23) | (1 << 5) | 1;
/// Clocks beyond which polynomial jump-ahead beats stepping.
const NOISE_STEP_LIMIT: u64 = 64;
/// The LFSR bits OSC3 shows, from its bit 7 down to bit 0. These are the
/// positions read off die photographs that VICE's reSID and reSIDfp use
/// (reSID 0.16 read bits 22,20,16,13,11,7,4,2: the same noise two shifts
/// later). It matters where the register is written: the bit the test bit's
/// release shifts in shows at OSC3 bit 0 at once, and write-back lands on
/// these bits (VICE testprogs SID/wb_testsuite, sampled on real chips).
pub(crate) const NOISE_TAPS: [u32; 8] = [20, 18, 14, 11, 9, 5, 2, 0];

/// Clocks the noise LFSR once: bit 22 XOR bit 17 shifts in at bit 0.
pub fn noise_clock(lfsr: u32) -> u32 {
    let bit0 = ((lfsr >> 22) ^ (lfsr >> 17)) & 1;
    ((lfsr << 1) | bit0) & NOISE_MASK
}

/// The shift done when the test bit is released: the test line forces the
/// feedback's bit-22 input to 1, so NOT bit 17 shifts in.
pub fn noise_clock_test_release(lfsr: u32) -> u32 {
    let bit0 = !(lfsr >> 17) & 1;
    ((lfsr << 1) | bit0) & NOISE_MASK
}

/// Clocks the noise LFSR `n` times in O(log n).
pub fn noise_clock_n(lfsr: u32, n: u64) -> u32 {
    let mut state = lfsr & NOISE_MASK;
    if n <= NOISE_STEP_LIMIT {
        for _ in 0..n {
            state = noise_clock(state);
        }
        return state;
    }
    // M^n = r(M) with r = x^n mod p(x); apply r to the state.
    let r = poly_x_pow_mod(n % NOISE_PERIOD);
    let mut result = 0;
    for i in 0..23 {
        if (r >> i) & 1 != 0 {
            result ^= state;
        }
        state = noise_clock(state);
    }
    result
}

/// The 8 bits of OSC3 for a given LFSR state: bits 20,18,14,11,9,5,2,0.
pub fn noise_output(lfsr: u32) -> u8 {
    NOISE_TAPS
        .iter()
        .fold(0u8, |out, &bit| (out << 1) | ((lfsr >> bit) & 1) as u8)
}

/// Combined waveforms pull the LFSR's output bits down: each tap whose
/// waveform output bit (bits 11..4 of the 12-bit output) is 0 is cleared. A
/// bit once 0 stays 0 until shifted on.
pub fn noise_write_back(lfsr: u32, output: u16) -> u32 {
    let mut cleared = 0u32;
    for (i, &bit) in NOISE_TAPS.iter().enumerate() {
        if output & (0x800 >> i) == 0 {
            cleared |= 1 << bit;
        }
    }
    lfsr & !cleared
}

/// Whether releasing the test bit, going from waveform selection `old` to
/// `new` (control bits 7-4), writes the output of `old` back into the
/// register before the release's shift completes. While the test bit is on
/// the register sits in the first phase of a shift; what the release writes
/// depends on both selections, as sampled on real chips by VICE testprogs
/// SID/wb_testsuite and modelled by VICE's reSID (`do_pre_writeback`):
/// - only from noise combined with another waveform, never into noise alone;
/// - 6581: never between a triangle and a sawtooth selection (one of them
///   without the other, in either direction);
/// - from noise+pulse: never on the 6581; on the 8580 only into
///   noise+triangle or noise+pulse+sawtooth;
/// - 6581: never into noise+pulse (SID/wb_testsuite's A->C, real 6581s keep
///   the register; reSIDfp's notes on its NO_WB_NOI_PUL switch).
pub(crate) fn pre_write_back(model: SidModel, old: u8, new: u8) -> bool {
    if old <= 8 || new == 8 {
        return false;
    }
    let is_6581 = model == SidModel::Mos6581;
    let (old_ts, new_ts) = (old & 3, new & 3);
    if is_6581 && ((old_ts == 1 && new_ts == 2) || (old_ts == 2 && new_ts == 1)) {
        return false;
    }
    if old == 0xC {
        return !is_6581 && (new == 0x9 || new == 0xE);
    }
    !(is_6581 && new == 0xC)
}

/// Noise combined with pulse: the pulse line connects all output bits, and
/// the 4 grounded bits below the output pull their neighbours down. A 6581
/// reads 0 below $F00 and keeps a bit only if its two lower neighbours are
/// 1; an 8580 keeps a bit only if its lower neighbour is 1 and reads $FC0
/// from $FC0 up (VICE's reSID `noise_pulse6581` / `noise_pulse8580`; VICE
/// testprogs SID/wf12nsr reads $FC for noise+pulse on a 6581).
pub(crate) fn noise_pulse(model: SidModel, out: u16) -> u16 {
    match model {
        SidModel::Mos6581 if out < 0xF00 => 0,
        SidModel::Mos6581 => out & (out << 1) & (out << 2) & 0xFFF,
        SidModel::Mos8580 if out < 0xFC0 => out & (out << 1) & 0xFFF,
        SidModel::Mos8580 => 0xFC0,
    }
}

/// Whether noise combined with waveform selection `wave` writes its output
/// back into the register cycle by cycle (test bit off). A 6581 with noise
/// and pulse alone keeps the register (SID/wb_testsuite 8->C and C->C on
/// real 6581s: the register reads as if noise alone had been selected).
pub(crate) fn writes_back(model: SidModel, wave: u8) -> bool {
    wave > 8 && !(model == SidModel::Mos6581 && wave == 0xC)
}

/// Carry-less product of two polynomials below degree 23, reduced mod NOISE_POLY.
fn poly_mul_mod(a: u64, b: u64) -> u64 {
    let mut product = 0u64;
    for i in 0..23 {
        if (b >> i) & 1 != 0 {
            product ^= a << i;
        }
    }
    for bit in (23..46).rev() {
        if (product >> bit) & 1 != 0 {
            product ^= NOISE_POLY << (bit - 23);
        }
    }
    product
}

/// x^n mod NOISE_POLY by square-and-multiply.
fn poly_x_pow_mod(mut n: u64) -> u64 {
    let mut result = 1u64;
    let mut base = 2u64; // the polynomial x
    while n > 0 {
        if n & 1 != 0 {
            result = poly_mul_mod(result, base);
        }
        base = poly_mul_mod(base, base);
        n >>= 1;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_back_clears_the_taps_of_zero_output_bits() {
        // Output all 0: every tap cleared, the other bits kept.
        let taps: u32 = NOISE_TAPS.iter().map(|b| 1 << b).sum();
        assert_eq!(noise_write_back(NOISE_ALL_ONES, 0), NOISE_ALL_ONES & !taps);
        // Output all 1: nothing changes.
        assert_eq!(noise_write_back(NOISE_ALL_ONES, 0xFFF), NOISE_ALL_ONES);
        // Output bit 11 (OSC3 bit 7) is tap 20.
        assert_eq!(
            noise_write_back(NOISE_ALL_ONES, 0x7FF),
            NOISE_ALL_ONES & !(1 << 20)
        );
    }

    #[test]
    fn test_release_shifts_in_not_bit_17() {
        assert_eq!(noise_clock_test_release(NOISE_ALL_ONES), 0x7F_FFFE);
        assert_eq!(noise_clock_test_release(0), 1);
    }
}
