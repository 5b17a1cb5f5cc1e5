/* ncb.h: the .ncb container shared by every target's binaries.
 *
 * A .ncb file is a versioned header (magic "NCB\0", format version, target
 * name, counts), the descriptors of the network's inputs and outputs (name,
 * element type, shape, quantization), a table of typed sections, and the
 * sections, whose contents the target defines: NorthPole writes its chip
 * figures and one section per tile, the crossbar target its crossbars and
 * control programs. Nothing about any chip is in the container itself. The
 * header and every section carry a CRC-32 (the zlib/PNG polynomial, so
 * `zlib.crc32` checks them). docs/targets/ncb-format.md is the byte-level
 * reference.
 *
 * Writers produce the same bytes for the same content: no timestamps,
 * no pointers, zero padding. Readers check everything before any target
 * code looks at a section (bad magic, version mismatch, truncation, a bad
 * checksum, sections out of bounds or overlapping, descriptor fields out of
 * range), so a target's loader only validates the meaning of its sections.
 *
 * This part of nc has no dependency but libc: it is in the runtime library
 * that host programs link.
 */
#ifndef NC_RUNTIME_NCB_H
#define NC_RUNTIME_NCB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nc/support/base.h"

#ifdef __cplusplus
extern "C" {
#ifdef __cplusplus
}
#endif

#endif

/** Format version written, and the newest read (same major, minor <= this). */
#define NC_NCB_VERSION_MAJOR 2
#define NC_NCB_VERSION_MINOR 0

/** Sizes of the fixed parts (bytes). */
#define NC_NCB_HEADER_SIZE 128
#define NC_NCB_TENSOR_SIZE 128
#define NC_NCB_SECTION_ENTRY_SIZE 32
/** Largest rank of a tensor descriptor. */
#define NC_NCB_MAX_RANK 8
/** Section alignment in the file. */
#define NC_NCB_ALIGN 16
/** Length of the target name field (with its NUL). */
#define NC_NCB_TARGET_LEN 32

/** Element types of tensor descriptors. Sub-byte integers are stored one
 * element per byte in host buffers (int8 storage holding the narrower
 * range); nc_ncb_dtype_storage_bytes gives the storage size. */
typedef enum nc_ncb_dtype {
  NC_NCB_DTYPE_I8 = 1,
  NC_NCB_DTYPE_I4 = 2,
  NC_NCB_DTYPE_I2 = 3,
  NC_NCB_DTYPE_U8 = 4,
  NC_NCB_DTYPE_I16 = 5,
  NC_NCB_DTYPE_I32 = 6,
  NC_NCB_DTYPE_F32 = 7,
} nc_ncb_dtype;

/** Bytes one element of `dtype` takes in a host buffer (0: unknown type). */
size_t nc_ncb_dtype_storage_bytes(uint32_t dtype);
/** The dtype's name ("i8", "f32"), or NULL if unknown. */
NC_KEEP const char *nc_ncb_dtype_name(uint32_t dtype);
/** The value range of an integer dtype (false for floats and unknown types). */
bool nc_ncb_dtype_range(uint32_t dtype, int64_t *min, int64_t *max);

/** A network input or output as the host sees it (one inference). */
typedef struct nc_ncb_tensor {
  char name[32];
  uint32_t dtype; /**< nc_ncb_dtype */
  uint32_t rank;
  int64_t dims[NC_NCB_MAX_RANK];
  float scale;    /**< real = scale * (q - zero_point); 1 and 0 for float tensors */
  int32_t zero_point;
} nc_ncb_tensor;

/** A section: its table entry and, once parsed, its bytes. */
typedef struct nc_ncb_section {
  uint32_t type;        /**< target-defined kind */
  uint32_t id;          /**< target-defined (e.g. a tile number) */
  uint64_t offset, size;
  uint32_t crc;
  const uint8_t *data;  /**< points into the parsed image */
} nc_ncb_section;

/** A parsed binary. Arrays are malloc'ed; `data` is the caller's image. */
typedef struct nc_ncb {
  uint16_t version_major, version_minor;
  char target[NC_NCB_TARGET_LEN]; /**< the target name, NUL-terminated */
  size_t n_inputs, n_outputs, n_sections;
  nc_ncb_tensor *inputs, *outputs;
  nc_ncb_section *sections;
  const uint8_t *data;
  size_t size;
} nc_ncb;

/** CRC-32 (IEEE 802.3, reflected, as zlib): start with crc = 0. */
uint32_t nc_crc32(uint32_t crc, const void *data, size_t n);

/** Parses and checks a binary image (kept by reference, not copied). On
 * failure returns false with a one-line message ("truncated: ...",
 * "checksum mismatch in section 2 ...") in err. */
bool nc_ncb_parse(const void *data, size_t size, nc_ncb *out, char *err, size_t errlen);
/** Frees the arrays of a parsed binary. */
void nc_ncb_clear(nc_ncb *ncb);
/** Elements of one inference of a tensor descriptor. */
size_t nc_ncb_tensor_elements(const nc_ncb_tensor *t);

/* ------------------------------------------------------------------------ */
/* Byte buffers and cursors: how printers write sections and loaders read   */
/* them (little-endian, bounds-checked).                                     */
/* ------------------------------------------------------------------------ */

/** A growable byte buffer. */
typedef struct nc_bytes {
  uint8_t *data;
  size_t len, cap;
} nc_bytes;

/** Appends n bytes. */
void nc_bytes_put(nc_bytes *b, const void *data, size_t n);
/** Appends n zero bytes (one growth, one clear: for large reserved fills). */
void nc_bytes_put_zeros(nc_bytes *b, size_t n);
/** Appends an integer, little-endian. */
void nc_bytes_put_u32(nc_bytes *b, uint32_t v);
void nc_bytes_put_i32(nc_bytes *b, int32_t v);
void nc_bytes_put_u64(nc_bytes *b, uint64_t v);
void nc_bytes_put_i64(nc_bytes *b, int64_t v);
/** A fixed-width, NUL-padded string field (truncated to n - 1 bytes). */
void nc_bytes_put_str(nc_bytes *b, const char *s, size_t n);
/** Zero bytes up to a multiple of `align`. */
void nc_bytes_align(nc_bytes *b, size_t align);
/** Frees the buffer's bytes (the struct is reset to empty). */
void nc_bytes_clear(nc_bytes *b);

/** A read cursor: every read past the end sets `bad` and yields zeros. */
typedef struct nc_cursor {
  const uint8_t *p;
  size_t len, pos;
  bool bad;
} nc_cursor;

/** A cursor at the start of len bytes. */
nc_cursor nc_cursor_make(const void *data, size_t len);
/** Reads an integer, little-endian. */
uint32_t nc_cursor_u32(nc_cursor *c);
int32_t nc_cursor_i32(nc_cursor *c);
uint64_t nc_cursor_u64(nc_cursor *c);
int64_t nc_cursor_i64(nc_cursor *c);
/** A pointer to the next n bytes (NULL and `bad` if fewer remain). */
NC_KEEP const uint8_t *nc_cursor_bytes(nc_cursor *c, size_t n);
/** A fixed-width string field into out[n] (always NUL-terminated). */
void nc_cursor_str(nc_cursor *c, char *out, size_t n);
/** Skips to a multiple of `align` bytes from the start. */
void nc_cursor_align(nc_cursor *c, size_t align);

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */
/* ------------------------------------------------------------------------ */

/** A binary being written. */
typedef struct nc_ncb_writer nc_ncb_writer;

/** Starts a binary for the target named `target` (at most
 * NC_NCB_TARGET_LEN - 1 bytes). */
NC_GIVE nc_ncb_writer *nc_ncb_writer_create(const char *target);
/** Adds an input / output descriptor (in order). */
void nc_ncb_writer_add_input(nc_ncb_writer *w, const nc_ncb_tensor *t);
void nc_ncb_writer_add_output(nc_ncb_writer *w, const nc_ncb_tensor *t);
/** Starts a new section and returns the buffer to fill (valid until the
 * next call on the writer). */
NC_KEEP nc_bytes *nc_ncb_writer_add_section(nc_ncb_writer *w, uint32_t type, uint32_t id);
/** Lays out the file (header, descriptors, table, sections, checksums) and
 * returns a malloc'ed image of *size bytes; frees the writer. */
NC_GIVE uint8_t *nc_ncb_writer_finish(NC_TAKE nc_ncb_writer *w, size_t *size);
/** As nc_ncb_writer_finish, but hands the same bytes, in order, to `write`
 * (false stops) and frees each section once written, so the whole image never
 * sits in memory; frees the writer. Returns false if a write failed. */
bool nc_ncb_writer_finish_to(NC_TAKE nc_ncb_writer *w, bool (*write)(const void *data, size_t n, void *userData),
                             void *userData);
/** Frees a writer without finishing it. */
void nc_ncb_writer_destroy(NC_TAKE nc_ncb_writer *w);

#ifdef __cplusplus
}
#endif

#endif
