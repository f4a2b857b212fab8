//! A model of the 5-byte floating point of Microsoft's 6502 BASIC as the C64 has it, for the
//! tests only: FADD, FSUB, FMULT, FDIV, INT, FIN and FOUT, written from Microsoft's
//! algorithms (../shared/reference/ms-basic-6502/m6502.asm, with its extra precision). The
//! results depend on details a plain floating-point model would miss: the rounding byte
//! FACOV, which bits a shift keeps, the carry a shift starts with, raw sign bytes; so the
//! model works on FAC, ARG and the product as bytes, step by step as the algorithm does,
//! and keeps the carry where the algorithm lets it flow from one step into the next.

/// FAC (or a result): the exponent, the mantissa (top bit set unless 0), the sign byte as
/// the routines leave it (only bit 7 is the sign, but the byte is kept whole) and FACOV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fac {
    pub exp: u8,
    pub mant: u32,
    pub sign: u8,
    pub ov: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelError {
    Overflow,
    DivisionByZero,
}

type R<T> = Result<T, ModelError>;

impl Fac {
    /// A packed number unpacked as MOVFM does (the sign byte is the first mantissa byte).
    pub fn unpack(p: [u8; 5]) -> Fac {
        Fac {
            exp: p[0],
            mant: u32::from_be_bytes([p[1] | 0x80, p[2], p[3], p[4]]),
            sign: p[1],
            ov: 0,
        }
    }

    /// Packed as MOVMF packs, without its rounding.
    pub fn pack(&self) -> [u8; 5] {
        let m = self.mant.to_be_bytes();
        [self.exp, (self.sign | 0x7F) & m[0], m[1], m[2], m[3]]
    }

    /// FAC as it stands in a zero page image that starts at $02.
    pub fn from_zp(zp: &[u8]) -> Fac {
        let z = |a: usize| zp[a - 2];
        Fac {
            exp: z(0x61),
            mant: u32::from_be_bytes([z(0x62), z(0x63), z(0x64), z(0x65)]),
            sign: z(0x66),
            ov: z(0x70),
        }
    }

    pub fn same_as(&self, other: &Fac) -> bool {
        self == other
    }
}

/// A number as the nearest packed one (for writing test constants).
pub fn pack_f64(x: f64) -> [u8; 5] {
    if x == 0.0 {
        return [0; 5];
    }
    let (mut m, mut e) = (x.abs(), 0i32);
    while m >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    while m < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    let mut mant = (m * 4294967296.0).round();
    if mant >= 4294967296.0 {
        mant /= 2.0;
        e += 1;
    }
    let b = (mant as u32).to_be_bytes();
    let sign = if x < 0.0 { 0x80 } else { 0 };
    [(e + 0x80) as u8, (b[0] & 0x7F) | sign, b[1], b[2], b[3]]
}

/// Which mantissa a shift works on: FAC's, ARG's or the product's (RESHO..RESLO).
#[derive(Clone, Copy, PartialEq, Eq)]
enum T {
    Fac,
    Arg,
    Res,
}

/// The routines' state: FAC, ARG, the product, and the bytes they share.
#[derive(Clone, Copy, Default)]
struct M {
    fexp: u8,
    f: [u8; 4],
    fsgn: u8,
    ov: u8,
    aexp: u8,
    a: [u8; 4],
    asgn: u8,
    arisgn: u8,
    oldov: u8,
    bits: u8,
    res: [u8; 4],
    spare: u8,
}

fn adc(a: u8, b: u8, c: bool) -> (u8, bool) {
    let s = a as u16 + b as u16 + c as u16;
    (s as u8, s > 0xFF)
}

fn sbc(a: u8, b: u8, c: bool) -> (u8, bool) {
    let d = a as i16 - b as i16 - (!c) as i16;
    (d as u8, d >= 0)
}

fn ror(v: &mut u8, c: bool) -> bool {
    let out = *v & 1 != 0;
    *v = (*v >> 1) | ((c as u8) << 7);
    out
}

fn rol(v: &mut u8, c: bool) -> bool {
    let out = *v & 0x80 != 0;
    *v = (*v << 1) | c as u8;
    out
}

impl M {
    fn with_fac(fac: Fac) -> M {
        M {
            fexp: fac.exp,
            f: fac.mant.to_be_bytes(),
            fsgn: fac.sign,
            ov: fac.ov,
            ..M::default()
        }
    }

    fn fac(&self) -> Fac {
        Fac {
            exp: self.fexp,
            mant: u32::from_be_bytes(self.f),
            sign: self.fsgn,
            ov: self.ov,
        }
    }

    fn mant(&mut self, t: T) -> &mut [u8; 4] {
        match t {
            T::Fac => &mut self.f,
            T::Arg => &mut self.a,
            T::Res => &mut self.res,
        }
    }

    /// CONUPK: a packed number into ARG, ARISGN set.
    fn conupk(&mut self, p: [u8; 5]) {
        self.a = [p[1] | 0x80, p[2], p[3], p[4]];
        self.asgn = p[1];
        self.arisgn = p[1] ^ self.fsgn;
        self.aexp = p[0];
    }

    /// MOVFM.
    fn movfm(&mut self, p: [u8; 5]) {
        self.f = [p[1] | 0x80, p[2], p[3], p[4]];
        self.fsgn = p[1];
        self.fexp = p[0];
        self.ov = 0;
    }

    /// A byte shift right (SHFTR2): the lowest byte to FACOV, BITS in at the top.
    fn shftr2(&mut self, t: T) {
        let bits = self.bits;
        let m = self.mant(t);
        let low = m[3];
        m.copy_within(0..3, 1);
        m[0] = bits;
        self.ov = low;
    }

    /// SHIFTR: shift right by -A bits, entered with carry `c`; returns A (the bits out).
    fn shiftr(&mut self, t: T, mut a: u8, mut c: bool) -> u8 {
        loop {
            (a, c) = adc(a, 8, c);
            if a & 0x80 != 0 || a == 0 {
                self.shftr2(t);
                continue;
            }
            (a, c) = sbc(a, 8, c);
            let acc = self.ov;
            if c {
                return acc;
            }
            return self.shftr3(t, a, acc);
        }
    }

    /// SHFTR3: one bit right keeping the top bit, then ROLSHF's part, Y counting up to 0.
    fn shftr3(&mut self, t: T, y: u8, acc: u8) -> u8 {
        let m = self.mant(t);
        let c = m[0] & 1 != 0;
        m[0] = (m[0] >> 1) | (m[0] & 0x80);
        self.rolshf(t, y, acc, c)
    }

    /// ROLSHF: the carry into bytes 1-3 and A; Y up by one; again from SHFTR3 until Y is 0.
    fn rolshf(&mut self, t: T, mut y: u8, mut acc: u8, mut c: bool) -> u8 {
        loop {
            let m = self.mant(t);
            for b in m.iter_mut().skip(1) {
                c = ror(b, c);
            }
            ror(&mut acc, c);
            y = y.wrapping_add(1);
            if y == 0 {
                return acc;
            }
            let m = self.mant(t);
            c = m[0] & 1 != 0;
            m[0] = (m[0] >> 1) | (m[0] & 0x80);
        }
    }

    /// INCFAC: the mantissa plus one; true if it carried out of the top (Z).
    fn incfac(&mut self) -> bool {
        for i in (0..4).rev() {
            self.f[i] = self.f[i].wrapping_add(1);
            if self.f[i] != 0 {
                return false;
            }
        }
        true
    }

    fn negfch(&mut self) {
        for b in &mut self.f {
            *b = !*b;
        }
        self.ov = (!self.ov).wrapping_add(1);
        if self.ov == 0 {
            self.incfac();
        }
    }

    fn negfac(&mut self) {
        self.fsgn = !self.fsgn;
        self.negfch();
    }

    fn zerofc(&mut self) {
        self.fexp = 0;
        self.fsgn = 0;
    }

    /// RNDSHF: a carry in at the top.
    fn rndshf(&mut self) -> R<()> {
        self.fexp = self.fexp.wrapping_add(1);
        if self.fexp == 0 {
            return Err(ModelError::Overflow);
        }
        let mut c = true;
        for b in &mut self.f {
            c = ror(b, c);
        }
        ror(&mut self.ov, c);
        Ok(())
    }

    /// NORMAL.
    fn normal(&mut self) -> R<()> {
        let mut a: u8 = 0;
        while self.f[0] == 0 {
            self.f.copy_within(1..4, 0);
            self.f[3] = self.ov;
            self.ov = 0;
            a += 8;
            if a == 32 {
                self.zerofc();
                return Ok(());
            }
        }
        while self.f[0] & 0x80 == 0 {
            a = a.wrapping_add(1);
            let mut c = rol(&mut self.ov, false);
            for b in self.f.iter_mut().rev() {
                c = rol(b, c);
            }
        }
        if a >= self.fexp {
            self.zerofc();
        } else {
            self.fexp -= a;
        }
        Ok(())
    }

    /// FADFLT: carry clear means the mantissa is negative.
    fn fadflt(&mut self, c: bool) -> R<()> {
        if !c {
            self.negfac();
        }
        self.normal()
    }

    /// FADDT: FAC = ARG + FAC.
    fn faddt(&mut self) -> R<()> {
        if self.fexp == 0 {
            self.movfa();
            return Ok(());
        }
        self.oldov = self.ov;
        self.faddc(self.aexp, T::Arg)
    }

    /// FADDC: A = ARG's exponent (MUL10 raises it), X = `x`.
    fn faddc(&mut self, a: u8, x: T) -> R<()> {
        if a == 0 {
            return Ok(());
        }
        let (r, c) = sbc(a, self.fexp, true);
        if r == 0 {
            return self.fadd4(x, 0, c);
        }
        let (x, count) = if c {
            self.fexp = a;
            self.fsgn = self.asgn;
            self.oldov = 0;
            (T::Fac, (!r).wrapping_add(1))
        } else {
            self.ov = 0;
            (x, r)
        };
        // FADD1: CMP #$F9; BMI FADD5 (carry from the compare: clear there).
        if count.wrapping_sub(0xF9) & 0x80 != 0 {
            let acc = self.shiftr(x, count, count >= 0xF9);
            return self.fadd4(x, acc, false);
        }
        let acc = self.ov;
        let m = self.mant(x);
        let c = m[0] & 1 != 0;
        m[0] >>= 1;
        let acc = self.rolshf(x, count, acc, c);
        self.fadd4(x, acc, false)
    }

    /// FADD4: add (same signs) or subtract, A = the shifted operand's bits out.
    fn fadd4(&mut self, x: T, acc: u8, c: bool) -> R<()> {
        if self.arisgn & 0x80 == 0 {
            // FADD2.
            let (ov, mut c) = adc(acc, self.oldov, c);
            self.ov = ov;
            for i in (0..4).rev() {
                (self.f[i], c) = adc(self.f[i], self.a[i], c);
            }
            if c {
                self.rndshf()?;
            }
            return Ok(());
        }
        // SUBIT: the other (Y) less the shifted one (X).
        let (ymant, xmant) = if x == T::Arg {
            (self.f, self.a)
        } else {
            (self.a, self.f)
        };
        let (ov, mut c) = adc(!acc, self.oldov, true);
        self.ov = ov;
        for i in (0..4).rev() {
            (self.f[i], c) = sbc(ymant[i], xmant[i], c);
        }
        self.fadflt(c)
    }

    fn movfa(&mut self) {
        self.fsgn = self.asgn;
        self.fexp = self.aexp;
        self.f = self.a;
        self.ov = 0;
    }

    /// ROUND.
    fn round(&mut self) -> R<()> {
        if self.fexp == 0 {
            return Ok(());
        }
        let c = rol(&mut self.ov, false);
        if c && self.incfac() {
            self.rndshf()?;
        }
        Ok(())
    }

    /// MOVAF: ARG = FAC rounded.
    fn movaf(&mut self) -> R<()> {
        self.round()?;
        self.aexp = self.fexp;
        self.a = self.f;
        self.asgn = self.fsgn;
        self.ov = 0;
        Ok(())
    }

    /// MULDIV: Some(carry) to go on, None for an underflow to 0 (the caller returns).
    fn muldiv(&mut self) -> R<Option<bool>> {
        if self.aexp == 0 {
            self.zerofc();
            return Ok(None);
        }
        let (s, c) = adc(self.aexp, self.fexp, false);
        let (e, c) = if !c {
            if s & 0x80 == 0 {
                self.zerofc();
                return Ok(None);
            }
            adc(s, 0x80, false)
        } else {
            if s & 0x80 != 0 {
                return Err(ModelError::Overflow);
            }
            adc(s, 0x80, false)
        };
        self.fexp = e;
        if e == 0 {
            self.fsgn = 0;
        } else {
            self.fsgn = self.arisgn;
        }
        Ok(Some(c))
    }

    /// FMULTT.
    fn fmultt(&mut self) -> R<()> {
        if self.fexp == 0 {
            return Ok(());
        }
        let Some(mut c) = self.muldiv()? else {
            return Ok(());
        };
        self.res = [0; 4];
        for byte in [self.ov, self.f[3], self.f[2], self.f[1]] {
            c = self.mltply(byte, c);
        }
        self.mltpl1(self.f[0]);
        self.movfr()
    }

    /// MLTPLY: a byte of FAC times ARG into the product; returns the carry it leaves.
    fn mltply(&mut self, byte: u8, c: bool) -> bool {
        if byte != 0 {
            return self.mltpl1(byte);
        }
        // MULSHF: a byte shift, then SHIFTR with A = 0 and the carry as it is (clear after
        // another MULSHF: then it shifts one bit more).
        self.shftr2(T::Res);
        self.shiftr(T::Res, 0, c);
        false
    }

    fn mltpl1(&mut self, byte: u8) -> bool {
        let mut c = byte & 1 != 0;
        let mut acc = (byte >> 1) | 0x80;
        loop {
            if c {
                let mut k = false;
                for i in (0..4).rev() {
                    (self.res[i], k) = adc(self.res[i], self.a[i], k);
                }
                c = k;
            }
            for b in &mut self.res {
                c = ror(b, c);
            }
            ror(&mut self.ov, c);
            c = acc & 1 != 0;
            acc >>= 1;
            if acc == 0 {
                return c;
            }
        }
    }

    fn movfr(&mut self) -> R<()> {
        self.f = self.res;
        self.normal()
    }

    /// FDIVT: FAC = ARG / FAC.
    fn fdivt(&mut self) -> R<()> {
        if self.fexp == 0 {
            return Err(ModelError::DivisionByZero);
        }
        self.round()?;
        self.fexp = 0u8.wrapping_sub(self.fexp);
        if self.muldiv()?.is_none() {
            return Ok(());
        }
        self.fexp = self.fexp.wrapping_add(1);
        if self.fexp == 0 {
            return Err(ModelError::Overflow);
        }
        let mut x: u8 = 0xFC;
        let mut acc: u8 = 1;
        // Where the loop goes next: compare (DIVIDE) or save a known bit (SAVQUO).
        let mut c = self.compare_arg_fac();
        loop {
            // SAVQUO.
            let pushed = c;
            let out = rol(&mut acc, c);
            if out {
                x = x.wrapping_add(1);
                let slot = x.wrapping_add(3);
                if slot < 4 {
                    self.res[slot as usize] = acc;
                } else {
                    self.spare = acc;
                }
                if x == 0 {
                    acc = 0x40;
                } else if x & 0x80 == 0 {
                    // DIVNRM.
                    self.ov = acc << 6;
                    return self.movfr();
                } else {
                    acc = 1;
                }
            }
            // QSHFT.
            if pushed {
                let mut k = true;
                for i in (0..4).rev() {
                    (self.a[i], k) = sbc(self.a[i], self.f[i], k);
                }
            }
            // SHFARG.
            let mut k = false;
            for b in self.a.iter_mut().rev() {
                k = rol(b, k);
            }
            if k {
                c = true;
            } else if self.a[0] & 0x80 != 0 {
                c = self.compare_arg_fac();
            } else {
                c = false;
            }
        }
    }

    /// DIVIDE's comparison: carry = ARG's mantissa >= FAC's.
    fn compare_arg_fac(&self) -> bool {
        self.a >= self.f
    }

    /// MUL10.
    fn mul10(&mut self) -> R<()> {
        self.movaf()?;
        if self.aexp == 0 {
            return Ok(());
        }
        let (e, c) = adc(self.aexp, 2, false);
        if c {
            return Err(ModelError::Overflow);
        }
        self.arisgn = 0;
        self.faddc(e, T::Fac)?;
        self.fexp = self.fexp.wrapping_add(1);
        if self.fexp == 0 {
            return Err(ModelError::Overflow);
        }
        Ok(())
    }

    /// DIV10 (FAC positive).
    fn div10(&mut self) -> R<()> {
        self.movaf()?;
        self.arisgn = 0;
        self.movfm([0x84, 0x20, 0, 0, 0]);
        self.fdivt()
    }

    /// FLOAT: FAC = the signed byte.
    fn float(&mut self, v: u8) -> R<()> {
        self.f = [v, 0, 0, 0];
        self.fexp = 0x88;
        self.ov = 0;
        self.fsgn = 0;
        self.fadflt(v & 0x80 == 0)
    }

    /// FINLOG: FAC = FAC + the signed byte.
    fn finlog(&mut self, v: u8) -> R<()> {
        self.movaf()?;
        self.float(v)?;
        self.arisgn = self.asgn ^ self.fsgn;
        self.faddt()
    }

    /// QINT.
    fn qint(&mut self) {
        if self.fexp == 0 {
            self.f = [0; 4];
            return;
        }
        let (a, _) = sbc(self.fexp, 0xA0, true);
        if self.fsgn & 0x80 != 0 {
            self.bits = 0xFF;
            self.negfch();
        }
        if a.wrapping_sub(0xF9) & 0x80 != 0 {
            self.shiftr(T::Fac, a, a >= 0xF9);
        } else {
            let c = self.f[0] & 1 != 0;
            self.f[0] = (self.f[0] >> 1) | (self.fsgn & 0x80);
            let acc = self.f[0];
            self.rolshf(T::Fac, a, acc, c);
        }
        self.bits = 0;
    }

    /// FCOMP: 1 if FAC is greater than the number, 0 equal, $FF smaller.
    fn fcomp(&self, p: [u8; 5]) -> u8 {
        let sign_of = |s: u8| if s & 0x80 != 0 { 0xFF } else { 1 };
        if p[0] == 0 {
            return if self.fexp == 0 {
                0
            } else {
                sign_of(self.fsgn)
            };
        }
        if (p[1] ^ self.fsgn) & 0x80 != 0 {
            return sign_of(self.fsgn);
        }
        let c = 'c: {
            if p[0] != self.fexp {
                break 'c p[0] >= self.fexp;
            }
            let m = [p[1] | 0x80, p[2], p[3]];
            for (mb, fb) in m.iter().zip(&self.f) {
                if mb != fb {
                    break 'c mb >= fb;
                }
            }
            let (r, c) = sbc(p[4], self.f[3], 0x7F >= self.ov);
            if r == 0 {
                return 0;
            }
            c
        };
        let s = if c { !self.fsgn } else { self.fsgn };
        sign_of(s)
    }
}

/// FAC = ARG + FAC, ARG being the packed number `arg` (FADD).
pub fn fadd(arg: Fac, fac: Fac) -> R<Fac> {
    let mut m = M::with_fac(fac);
    m.conupk(arg.pack());
    m.faddt()?;
    Ok(m.fac())
}

/// FAC = ARG - FAC (FSUB).
pub fn fsub(arg: Fac, fac: Fac) -> R<Fac> {
    let mut m = M::with_fac(fac);
    m.conupk(arg.pack());
    m.fsgn = !m.fsgn;
    m.arisgn = m.fsgn ^ m.asgn;
    m.faddt()?;
    Ok(m.fac())
}

/// FAC = ARG * FAC (FMULT).
pub fn fmult(arg: Fac, fac: Fac) -> R<Fac> {
    let mut m = M::with_fac(fac);
    m.conupk(arg.pack());
    m.fmultt()?;
    Ok(m.fac())
}

/// FAC = ARG / FAC (FDIV).
pub fn fdiv(arg: Fac, fac: Fac) -> R<Fac> {
    let mut m = M::with_fac(fac);
    m.conupk(arg.pack());
    m.fdivt()?;
    Ok(m.fac())
}

/// INT(FAC).
pub fn int(fac: Fac) -> Fac {
    let mut m = M::with_fac(fac);
    if m.fexp >= 0xA0 {
        return m.fac();
    }
    m.qint();
    m.ov = 0;
    let sign = m.fsgn;
    m.fsgn = 0;
    m.fexp = 0xA0;
    // INT's result is an integer below 2^31: normalising it cannot overflow.
    m.fadflt(sign & 0x80 == 0).expect("no overflow");
    m.fac()
}

/// FIN: the number at the start of `text` (CHRGET's view: spaces skipped) and how many
/// bytes it took; FACOV as it comes in (FIN leaves it be when there is no digit).
pub fn fin(text: &[u8], ov: u8) -> R<(Fac, usize)> {
    let mut m = M { ov, ..M::default() };
    let mut at = 0usize;
    let ch = |at: usize| text.get(at).copied().unwrap_or(0);
    let chrget = |at: &mut usize| {
        *at += 1;
        while ch(*at) == b' ' {
            *at += 1;
        }
        ch(*at)
    };
    let is_digit = |c: u8| c.is_ascii_digit();
    let (mut deccnt, mut tenexp, mut dptflg, mut expsgn, mut sgnflg) = (0u8, 0u8, 0u8, 0u8, 0u8);
    // CHRGOT: the first character (spaces before it skipped too).
    while ch(at) == b' ' {
        at += 1;
    }
    let mut c = ch(at);
    if !is_digit(c) {
        if c == b'-' {
            sgnflg = 0xFF;
            c = chrget(&mut at);
        } else if c == b'+' {
            c = chrget(&mut at);
        }
    }
    loop {
        if is_digit(c) {
            if dptflg & 0x80 != 0 {
                deccnt = deccnt.wrapping_add(1);
            }
            m.mul10()?;
            m.finlog(c - b'0')?;
            c = chrget(&mut at);
            continue;
        }
        if c == b'.' {
            // ROR DPTFLG with the carry of the compare (set); a second point ends it.
            dptflg = (dptflg >> 1) | 0x80;
            if dptflg & 0x40 == 0 {
                c = chrget(&mut at);
                continue;
            }
            break;
        }
        if c == b'E' {
            c = chrget(&mut at);
            if !is_digit(c) {
                match c {
                    0xAB | b'-' => {
                        expsgn = (expsgn >> 1) | 0x80;
                        c = chrget(&mut at);
                    }
                    0xAA | b'+' => c = chrget(&mut at),
                    _ => {}
                }
            }
            while is_digit(c) {
                if tenexp >= 10 {
                    if expsgn & 0x80 == 0 {
                        return Err(ModelError::Overflow);
                    }
                    tenexp = 100;
                } else {
                    tenexp = (tenexp * 10).wrapping_add(c - b'0');
                }
                c = chrget(&mut at);
            }
            if expsgn & 0x80 != 0 {
                tenexp = 0u8.wrapping_sub(tenexp);
            }
        }
        break;
    }
    tenexp = tenexp.wrapping_sub(deccnt);
    if tenexp & 0x80 != 0 {
        while tenexp != 0 {
            m.div10()?;
            tenexp = tenexp.wrapping_add(1);
        }
    } else {
        while tenexp != 0 {
            m.mul10()?;
            tenexp -= 1;
        }
    }
    if sgnflg & 0x80 != 0 && m.fexp != 0 {
        m.fsgn = !m.fsgn;
    }
    Ok((m.fac(), at))
}

/// FOUT's powers of ten (32-bit, alternating in sign).
const FOUTBL: [i32; 9] = [
    -100_000_000,
    10_000_000,
    -1_000_000,
    100_000,
    -10_000,
    1000,
    -100,
    10,
    -1,
];

/// FOUT: FAC as PRINT shows it (without the cursor-right PRINT adds). Overflows where
/// rounding the largest numbers carries out of the exponent.
pub fn fout(fac: Fac) -> R<String> {
    let mut m = M::with_fac(fac);
    // buf[i] is $00FF + i; FOUT writes from $0100 (i = 1).
    let mut buf = [0u8; 24];
    let sign = if m.fsgn & 0x80 != 0 { b'-' } else { b' ' };
    buf[1] = sign;
    m.fsgn = sign;
    let mut fbufpt = 1usize;
    if m.fexp == 0 {
        buf[2] = b'0';
        return Ok(text_of(&buf));
    }
    let mut deccnt: u8 = 0;
    if m.fexp <= 0x80 {
        m.conupk([0x9E, 0x6E, 0x6B, 0x28, 0x00]);
        m.fmultt()?;
        deccnt = 0xF7;
    }
    const NZ9999: [u8; 5] = [0x9E, 0x6E, 0x6B, 0x27, 0xFD];
    const NZ0999: [u8; 5] = [0x9B, 0x3E, 0xBC, 0x1F, 0xFD];
    // FOUT4 / FOUT3: into [99999999.9, 999999999]; the loops' exits as the code has them.
    'bigges: {
        'fout4: loop {
            match m.fcomp(NZ9999) {
                0 => break 'bigges,
                1 => {}
                _ => loop {
                    // FOUT3.
                    match m.fcomp(NZ0999) {
                        0 | 0xFF => {
                            m.mul10()?;
                            deccnt = deccnt.wrapping_sub(1);
                            if deccnt != 0 {
                                continue;
                            }
                            break;
                        }
                        _ => break 'fout4,
                    }
                },
            }
            // FOUT9.
            m.div10()?;
            deccnt = deccnt.wrapping_add(1);
            if deccnt == 0 {
                break;
            }
        }
        // FOUT5.
        m.conupk([0x80, 0, 0, 0, 0]);
        m.faddt()?;
    }
    m.qint();
    let mut x: u8 = 1;
    let a = deccnt.wrapping_add(10);
    // Under .01 or from 1E9 on: E notation (TENEXP); else X digits before the point.
    let tenexp = if a & 0x80 != 0 || a >= 11 {
        a.wrapping_sub(2)
    } else {
        x = a.wrapping_add(0xFF);
        0
    };
    deccnt = x;
    if x == 0 || x & 0x80 != 0 {
        fbufpt += 1;
        buf[fbufpt] = b'.';
        if x != 0 {
            fbufpt += 1;
            buf[fbufpt] = b'0';
        }
    }
    // The digits: add or subtract each power of ten until the sign flips.
    let mut v = u32::from_be_bytes(m.f) as i32;
    let mut xr: u8 = 0x80;
    for p in FOUTBL {
        let mut c;
        loop {
            let (s, carry) = (v as u32).overflowing_add(p as u32);
            v = s as i32;
            c = carry;
            xr = xr.wrapping_add(1);
            let n = xr & 0x80 != 0;
            if c != n {
                break;
            }
        }
        let (mut a, mut k) = (xr, c);
        if c {
            (a, k) = adc(!xr, 10, true);
        }
        let (a, _) = adc(a, 0x2F, k);
        fbufpt += 1;
        buf[fbufpt] = a & 0x7F;
        deccnt = deccnt.wrapping_sub(1);
        if deccnt == 0 {
            fbufpt += 1;
            buf[fbufpt] = b'.';
        }
        xr = !a & 0x80;
    }
    // Trailing zeros off, a point left last too.
    let mut y = fbufpt;
    loop {
        let ch = buf[y];
        y -= 1;
        if ch == b'0' {
            continue;
        }
        if ch != b'.' {
            y += 1;
        }
        break;
    }
    if tenexp == 0 {
        buf[y + 1] = 0;
        return Ok(text_of(&buf));
    }
    let (esign, mut e) = if tenexp & 0x80 != 0 {
        (b'-', 0u8.wrapping_sub(tenexp))
    } else {
        (b'+', tenexp)
    };
    buf[y + 1] = b'E';
    buf[y + 2] = esign;
    let mut tens = b'0';
    while e >= 10 {
        e -= 10;
        tens += 1;
    }
    buf[y + 3] = tens;
    buf[y + 4] = b'0' + e;
    buf[y + 5] = 0;
    Ok(text_of(&buf))
}

fn text_of(buf: &[u8]) -> String {
    let text = &buf[1..];
    let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
    String::from_utf8_lossy(&text[..end]).into_owned()
}
