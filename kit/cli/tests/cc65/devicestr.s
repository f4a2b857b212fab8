; cc65 2.19's initcwd/devicestr (libsrc/cbm/initcwd.s) write drive 8 as "80": they read the
; quotient and remainder of their division by 10 from the registers the runtime used before
; it changed (cc65 fixed it after 2.19, commit 8ac5e2f7b, 2023-01-28). So getcwd() is "80"
; and enumdevdir prints "Dir 80". Linked before c64.lib, these replace them: the unit in A
; as decimal text at (ptr2), then a 0; A = 0 on return. kit/cli/tests/cc65.rs links them into
; cc65's sample enumdevdir to check that the rest lists drive 8's folder.
        .export         initcwd, devicestr
        .import         curunit, __cwd
        .importzp       ptr2

initcwd:
        lda     #<__cwd
        ldx     #>__cwd
        sta     ptr2
        stx     ptr2+1
        lda     curunit
devicestr:
        ldy     #0
        ldx     #0              ; tens
@tens:  cmp     #10
        bcc     @ones
        sbc     #10             ; carry is set
        inx
        bne     @tens
@ones:  pha
        txa
        beq     @unit
        ora     #'0'
        sta     (ptr2),y
        iny
@unit:  pla
        ora     #'0'
        sta     (ptr2),y
        iny
        lda     #0
        sta     (ptr2),y
        rts
