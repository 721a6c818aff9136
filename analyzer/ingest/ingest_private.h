/*
 * ingest/ingest_private.h - helpers shared by the ingest sources (reader.c, walk.c, text.c).
 * Not part of the public contract.
 */
#ifndef INGEST_PRIVATE_H
#define INGEST_PRIVATE_H

#include <stddef.h>

/* Bytes of a member's head copied for classification (ingest_member.head). */
#define INGEST_HEAD_MAX ((size_t)64 * 1024)

/* 1 when the head of a member looks binary: more than a few separate NUL runs in its first
 * 8 KiB, or more than 30% of its bytes are control characters (other than \t \n \r \f \b ESC)
 * or bytes that are not valid UTF-8. A leading run of NULs (the hole a copytruncate'd log starts
 * with) is ignored. */
int ingest_looks_binary(const unsigned char *p, size_t n);

/* Copy src[0..n) to dst without ANSI/VT escape sequences (CSI, OSC/DCS/APC/PM/SOS strings
 * ended by BEL or ESC \, and ESC + intermediates + final byte). dst holds at least n bytes.
 * @return bytes written to dst. */
size_t ingest_strip_ansi(const char *src, size_t n, char *dst);

#endif /* INGEST_PRIVATE_H */
