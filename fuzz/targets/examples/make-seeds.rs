//! Writes the generated part of the seed corpus: PRGs, T64 tapes and D64 disks (in the d64
//! target's compact form, plus one whole image), built with c64kit's own tokenizer and the
//! loaders' `build_image` helpers, and the interpreter target's programs (small BASIC texts
//! written here, tokenized, in that target's input form). The text seeds are copied by hand
//! from the repository's test data and programs.
//!
//! `cargo run -p c64kit-fuzz --example make-seeds` (rewrites the files it makes).

use std::path::Path;

fn write(target: &str, name: &str, bytes: &[u8]) {
    let dir = c64kit_fuzz::seeds_dir(target);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    println!("{:>7} bytes  {}", bytes.len(), path.display());
}

fn tokenize(src: &str) -> Vec<u8> {
    c64kit_basic::tokenize(src, 0x0801).unwrap()
}

fn main() {
    // A BASIC stub followed by machine code, as the assembler makes programs.
    let mut stub = tokenize("10 SYS 2064\n");
    stub.resize(2 + 0x0810 - 0x0801, 0);
    stub.extend_from_slice(&[0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x60]);
    let basic = tokenize(
        "10 REM HELLO {CLR}\n20 PRINT \"HI{RVS ON}\";:GOTO 40\n30 DATA 1,2,\"A:B\"\n\
         40 IF X<>1 THEN ? ~*2\n50 POKE 53280,0:SYS 49152\n",
    );
    let ramunder = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../programs/ramunder/ramunder.asm"),
    )
    .unwrap();
    let ramunder = c64kit_asm::assemble_source(
        "ramunder.asm",
        std::str::from_utf8(&ramunder).unwrap(),
        &c64kit_asm::Options::default(),
    )
    .unwrap()
    .prg();
    let code = [0x00, 0xC0, 0xA2, 0x00, 0xE8, 0xD0, 0xFD, 0x60];
    // A link chain that loops back to its own line.
    let mut looping = tokenize("10 PRINT 1\n20 PRINT 2\n");
    looping[2] = 0x01;
    looping[3] = 0x08;
    write("prg", "stub.prg", &stub);
    write("prg", "basic.prg", &basic);
    write("prg", "ramunder.prg", &ramunder);
    write("prg", "code-c000.prg", &code);
    write("prg", "looping-link.prg", &looping);

    let t = |name, files: &[(&str, u16, &[u8])]| c64kit_loader_t64::build_image(name, files);
    write("t64", "one.t64", &t("ONE", &[("STUB", 0x0801, &stub[2..])]));
    write(
        "t64",
        "two.t64",
        &t(
            "TWO FILES",
            &[("BASIC", 0x0801, &basic[2..]), ("CODE", 0xC000, &code[2..])],
        ),
    );
    let mut wrong_end = t("WRONG END", &[("A", 0x0801, &stub[2..])]);
    wrong_end[64 + 4] = 0xC6;
    wrong_end[64 + 5] = 0xC3;
    write("t64", "wrong-end.t64", &wrong_end);
    write("t64", "empty.t64", &t("EMPTY", &[]));

    let d = |files: &[(&str, &[u8])]| c64kit_loader_d64::build_image("FUZZ DISK", "FZ", files);
    let big: Vec<u8> = [0x00, 0x10]
        .into_iter()
        .chain((0..1200u32).map(|i| (i * 7) as u8))
        .collect();
    write(
        "d64",
        "one.d64c",
        &c64kit_fuzz::d64_compact(&d(&[("STUB", &stub)])),
    );
    write(
        "d64",
        "three.d64c",
        &c64kit_fuzz::d64_compact(&d(&[
            ("BASIC", &basic),
            ("CODE", &code),
            ("RAMUNDER", &ramunder),
        ])),
    );
    write(
        "d64",
        "multi-sector.d64c",
        &c64kit_fuzz::d64_compact(&d(&[("BIG", &big)])),
    );
    let names: Vec<String> = (0..10).map(|i| format!("FILE{i}")).collect();
    let many: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &code[..])).collect();
    write(
        "d64",
        "two-dir-sectors.d64c",
        &c64kit_fuzz::d64_compact(&d(&many)),
    );
    write("d64", "empty.d64c", &c64kit_fuzz::d64_compact(&d(&[])));
    // One whole image: the size check and the raw path.
    write("d64", "whole.d64", &d(&[("STUB", &stub), ("CODE", &code)]));

    // The interpreter: small programs reaching every statement and function, some with keys.
    for (name, source, keys) in INTERPRETER_SEEDS {
        let input = c64kit_fuzz::interpreter::Input::encode(&tokenize(source), keys.as_bytes());
        write("interpreter", name, &input);
    }
}

/// The interpreter target's seeds: name, BASIC text, keys typed (PETSCII; CR is RETURN).
const INTERPRETER_SEEDS: &[(&str, &str, &str)] = &[
    (
        "numbers",
        "10 A=1.5:B%=-7:C=3E-3:D=.5\n\
         20 PRINT A*B%+2^3/4-SQR(16),INT(-2.5);ABS(-3);-A;+B%\n\
         30 PRINT SIN(1);COS(1);TAN(1);ATN(1);LOG(10);EXP(1);~\n\
         40 PRINT SGN(-2);RND(-1)<1;RND(0)>=0;NOT 5 AND 3 OR 8;1E30*C;A<=B%;A<>D\n\
         50 PRINT 123456789;1/3;-1E-10;65535;32767+1;B%/2;A=1.5\n\
         60 PRINT 1E38*10\n",
        "",
    ),
    (
        "strings",
        "10 A$=\"HELLO\"+\" \"+\"WORLD\":B$=MID$(A$,3,4):C$=\"\"\n\
         20 PRINT LEFT$(A$,2);RIGHT$(A$,3);LEN(A$);ASC(B$);CHR$(65);STR$(-12.5);VAL(\"3E2\")\n\
         30 DIM S$(20):FOR I=0 TO 20:S$(I)=STR$(I)+A$:NEXT:C$=S$(20)+C$\n\
         40 PRINT FRE(0);TI$;POS(0);SPC(3);TAB(10);\"X\";MID$(A$,4)\n\
         50 IF A$>B$ THEN PRINT \"GT\":GOTO 70\n\
         60 PRINT \"LE\"\n\
         70 PRINT \"{RVS ON}Q{RVS OFF}\";CHR$(13);:TI$=\"123456\":PRINT LEN(TI$):END\n",
        "",
    ),
    (
        "flow",
        "10 FOR I=1 TO 3:FOR J=I TO 1 STEP -1\n\
         20 ON J GOSUB 100,200,300\n\
         30 NEXT J,I\n\
         40 GOSUB 400:PRINT \"DONE\":IF I THEN STOP\n\
         50 END\n\
         100 PRINT \"ONE\";:RETURN\n\
         200 PRINT \"TWO\";:RETURN\n\
         300 PRINT \"THREE\";:RETURN\n\
         400 ON 2 GOTO 410,420\n\
         410 PRINT \"NO\"\n\
         420 FOR K=1 TO 2:RETURN\n",
        "",
    ),
    (
        "data",
        "10 READ A,B$,C:PRINT A;B$;C\n\
         20 RESTORE:READ X:PRINT X:REM A COMMENT: PRINT\n\
         30 DATA 1,\"TWO\",3E1\n\
         40 DATA ,\"\",-.5, SPACED ,\"A:B\"\n\
         50 RESTORE:READ A,B$,C,D$,E$,F,G$:PRINT A;B$;C;D$;E$;F;G$\n\
         60 READ Z\n",
        "",
    ),
    (
        "arrays",
        "10 DIM A(3,4),B%(10),C$(2,2)\n\
         20 DEF FN F(X)=X*X+1:DEF FN G(Y)=FN F(Y)/2\n\
         30 FOR I=0 TO 3:FOR J=0 TO 4:A(I,J)=FN G(I+J):NEXT J,I\n\
         40 B%(5)=A(3,4):C$(1,1)=\"Q\":PRINT B%(5);C$(1,1);A(2,2);Z(10)\n\
         50 CLR:PRINT A(1,1):LET X=FRE(0)\n\
         60 DIM A(3,4):DIM A(3,4)\n",
        "",
    ),
    (
        "input",
        "10 INPUT \"NAME\";N$:INPUT A,B\n\
         20 GET K$:IF K$=\"\" THEN 20\n\
         30 PRINT N$;A+B;ASC(K$)\n\
         40 OPEN 1,0:INPUT#1,L$\n\
         45 GET#1,M$:IF M$=\"\" THEN 45\n\
         47 CLOSE 1:PRINT L$;M$\n\
         50 INPUT X\n",
        "ADA\r3,4\rXYZ\r!\r",
    ),
    (
        "devices",
        "10 OPEN 1,3:PRINT#1,\"SCREEN\";1:CMD 1:PRINT \"CMD\":PRINT#1:CLOSE 1\n\
         20 OPEN 2,8,2,\"NOFILE,S,R\":GET#2,A$:PRINT ST:CLOSE 2\n\
         30 OPEN 15,8,15,\"I\":INPUT#15,E,E$:CLOSE 15:PRINT E;E$\n\
         40 VERIFY \"NOFILE\",8\n",
        "",
    ),
    ("save", "10 SAVE \"NEW\",8\n", ""),
    ("load", "10 PRINT \"LOADING\":LOAD \"$\",8\n", ""),
    (
        "list",
        "10 REM {CLR}\"ABC\n20 OPEN 4,4:CMD 4\n30 CLOSE 4:LIST 10-20\n",
        "",
    ),
    (
        "machine",
        "10 POKE 53280,2:POKE 1024+40,81:WAIT 53265,128:PRINT PEEK(1024+40);PEEK(53266)\n\
         20 T=TI:FOR I=1 TO 100:NEXT:PRINT TI-T>=0:PRINT USR(1)\n",
        "",
    ),
    (
        "loop",
        "10 PRINT \"GO\";:SYS 65517:PRINT \"BACK\":NEW\n\
         20 GOTO 20\n",
        "",
    ),
    (
        "forever",
        "1 X=X+1:IF X<100 THEN 1\n\
         2 PRINT X;:CONT\n\
         3 RUN\n",
        "",
    ),
];
